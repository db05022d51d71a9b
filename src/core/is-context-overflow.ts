/**
 * Options of {@link isContextOverflow}.
 *
 * @example
 * ```ts
 * const options: IsContextOverflowOptions = { contextWindow: 200_000 };
 * ```
 */
export interface IsContextOverflowOptions {
  /** The model's window; enables the silent-overflow check on usage (input above the window). */
  contextWindow?: number;
}

/**
 * Phrases providers use when a request does not fit the context window. Each line names who says
 * it; the texts are the providers' own.
 */
const OVERFLOW_PATTERNS: readonly RegExp[] = [
  /maximum context length/i, // OpenAI chat, OpenRouter, Mistral, vLLM: "This model's maximum context length is 128000 tokens"
  /context[_ ]length[_ ]exceeded/i, // OpenAI error code, Cerebras
  /exceeds? the context window/i, // OpenAI Responses: "Your input exceeds the context window of this model"
  /prompt is too long/i, // Anthropic: "prompt is too long: 213462 tokens > 200000 maximum"
  /input token count.*exceeds the maximum/i, // Gemini: "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575)"
  /input is too long/i, // Bedrock: "Input is too long for requested model."
  /exceed context limit/i, // Bedrock (Anthropic models): "input length and `max_tokens` exceed context limit"
  /too large for model with \d+ maximum context length/i, // Mistral
  /reduce the length of the messages/i, // Groq, OpenAI, Cerebras
  /maximum prompt length is \d+/i, // xAI: "This model's maximum prompt length is 131072 but the request contains …"
  /exceeds the available context size/i, // llama.cpp: "the request exceeds the available context size"
  /exceed_context_size_error/i, // llama.cpp error type
  /context the overflows|greater than the context length|context length of only \d+/i, // LM Studio
  /prompt too long; exceeded (max )?context length/i, // Ollama
  /context window (exceeded|is full|overflow)/i,
  /too many tokens in (the )?(prompt|request|input)/i,
  /request_too_large|request exceeds the maximum (allowed )?(number of bytes|size)/i, // Anthropic 413
];

/** Rate limits and throttling that mention tokens: retry later, do not compact. */
const NOT_OVERFLOW_PATTERNS: readonly RegExp[] = [
  /rate[ _-]?limit/i,
  /throttl/i,
  /per minute|per day|per hour|\bTPM\b|\bRPM\b|\bTPD\b/i,
  /too many requests/i,
  /quota/i,
  /please wait before trying again/i,
  /overloaded/i,
];

const OVERFLOW_CODES = new Set([
  'context_length_exceeded',
  'request_too_large',
  'exceed_context_size_error',
  'string_above_max_length',
]);
const NOT_OVERFLOW_STATUS = new Set([429, 503, 529]);

interface Facts {
  texts: string[];
  codes: string[];
  statuses: number[];
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

/** Collects messages, codes and statuses from an error, a response body or nested `error`/`cause`. */
function collect(value: unknown, facts: Facts, depth: number): void {
  if (depth > 5 || value === undefined || value === null) return;
  if (typeof value === 'string') {
    facts.texts.push(value);
    return;
  }
  const object = record(value);
  if (object === undefined) return;
  for (const key of ['message', 'errorMessage', 'error_message', 'detail', 'reason']) {
    const field = object[key];
    if (typeof field === 'string') facts.texts.push(field);
  }
  for (const key of ['code', 'type', 'name', '__type']) {
    const field = object[key];
    if (typeof field === 'string') facts.codes.push(field.toLowerCase());
  }
  for (const key of ['status', 'statusCode', 'httpStatus']) {
    const field = object[key];
    if (typeof field === 'number') facts.statuses.push(field);
  }
  const metadata = record(object.$metadata);
  if (typeof metadata?.httpStatusCode === 'number') facts.statuses.push(metadata.httpStatusCode);
  for (const key of ['error', 'cause', 'data', 'response', 'body', 'responseBody'])
    collect(object[key], facts, depth + 1);
}

function inputTokens(value: unknown): number | undefined {
  const object = record(value);
  if (object === undefined) return undefined;
  const usage = record(object.usage) ?? object;
  const input = usage.input;
  if (typeof input !== 'number' || !Number.isFinite(input)) return undefined;
  const cacheRead = typeof usage.cacheRead === 'number' ? usage.cacheRead : 0;
  const cacheWrite = typeof usage.cacheWrite === 'number' ? usage.cacheWrite : 0;
  return input + cacheRead + cacheWrite;
}

/**
 * Tells whether a provider error (or a failed assistant message, or a usage report) means the
 * request did not fit the model's context window — the one failure that compaction fixes.
 *
 * Recognises the overflow errors of OpenAI (chat and Responses), Anthropic, Gemini, Bedrock,
 * Mistral, Groq, xAI, OpenRouter, llama.cpp, LM Studio and Ollama, by message text, error code
 * (`context_length_exceeded`, …) or HTTP 413, looking into nested `error`, `cause` and response
 * bodies. Rate-limit and throttling errors that merely mention tokens (429, "tokens per minute",
 * `ThrottlingException`) are not overflows. With `contextWindow`, a usage report or assistant
 * message whose input exceeds the window is a silent overflow.
 *
 * @param value - A thrown error, an error response body, a message string, an assistant message
 *   with `stopReason: 'error'`, or a `Usage`.
 * @param options - The context window, for the silent-overflow check.
 * @returns `true` when compacting and retrying is the right response.
 *
 * @example
 * ```ts
 * try {
 *   return await callModel(messages);
 * } catch (error) {
 *   if (!isContextOverflow(error)) throw error;
 *   messages = (await manager.compact(messages)).messages;
 * }
 * ```
 */
export function isContextOverflow(value: unknown, options: IsContextOverflowOptions = {}): boolean {
  const { contextWindow } = options;
  if (contextWindow !== undefined) {
    const input = inputTokens(value);
    if (input !== undefined && input > contextWindow) return true;
  }
  const facts: Facts = { texts: [], codes: [], statuses: [] };
  collect(value, facts, 0);
  const text = facts.texts.join('\n');
  if (facts.statuses.some((status) => NOT_OVERFLOW_STATUS.has(status))) return false;
  if (NOT_OVERFLOW_PATTERNS.some((pattern) => pattern.test(text))) return false;
  if (facts.codes.some((code) => code.includes('throttl') || code.includes('rate_limit'))) return false;
  if (facts.codes.some((code) => OVERFLOW_CODES.has(code))) return true;
  if (OVERFLOW_PATTERNS.some((pattern) => pattern.test(text))) return true;
  return facts.statuses.includes(413);
}
