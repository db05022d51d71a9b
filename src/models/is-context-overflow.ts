/**
 * Options of {@link isContextOverflow}.
 *
 * @example
 * ```ts
 * const options: IsContextOverflowOptions = { contextWindow: 200_000 };
 * ```
 */
export interface IsContextOverflowOptions {
  /**
   * The model's window; enables the silent-overflow check on usage (`input + cacheRead +
   * cacheWrite` above the window on a message that otherwise succeeded).
   */
  contextWindow?: number;
}

/**
 * Phrases providers use when a request does not fit the context window. Each line names who says
 * it; the texts are the providers' own.
 */
const OVERFLOW_PATTERNS: readonly RegExp[] = [
  /maximum context length/i, // OpenAI chat, vLLM, OpenRouter, Mistral: "This model's maximum context length is 128000 tokens"
  /context[_ ]length[_ ]exceeded/i, // OpenAI error code (chat and Responses), Cerebras
  /exceeds? the context window/i, // OpenAI Responses: "Your input exceeds the context window of this model"
  /prompt is too long/i, // Anthropic: "prompt is too long: 213462 tokens > 200000 maximum"; xAI
  /exceed context limit/i, // Anthropic: "input length and `max_tokens` exceed context limit: 174167 + 64000 > 200000"
  /input token count.*exceeds the maximum/i, // Gemini: "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575)"
  /input is too long|too many input tokens/i, // Bedrock: "Input is too long for requested model.", "Too many input tokens. Max input tokens: 8192"
  /reduce the length of the messages/i, // OpenAI, Groq, Cerebras: "Please reduce the length of the messages or completion."
  /maximum prompt length is \d+/i, // xAI: "This model's maximum prompt length is 131072 but the request contains …"
  /\binput_too_large\b|current message \(\d+ tokens\) exceeds budget/i, // xAI: "[input_too_large] Current message (N tokens) exceeds budget (M tokens)"
  /exceeds the available context size|context size has been exceeded/i, // llama.cpp server (400 exceed_context_size_error, 500 server_error)
  /requested tokens (\(\d+\) )?exceed context window/i, // llama-cpp-python: "Requested tokens (2285) exceed context window of 2048", older "Requested tokens exceed context window of 512"
  /input token count is \d+ but (the )?model only supports up to \d+/i, // Vertex AI: "Unable to submit request because the input token count is 38429 but model only supports up to 32768. …"
  /decoder prompt \(length \d+\) is longer than the maximum model length/i, // vLLM: "The decoder prompt (length 17772) is longer than the maximum model length of 16384."
  /prompt length of \d+ is longer than the maximum model length/i, // vLLM V1: "Prompt length of 5016 is longer than the maximum model length of 4096."
  /total number of tokens \(prompt and prediction\) cannot exceed/i, // Cohere: "too many tokens: total number of tokens (prompt and prediction) cannot exceed 2048 - received 6354. …"
  /`?inputs`? tokens \+ `?max_new_tokens`? must be <=/i, // Hugging Face TGI: "`inputs` tokens + `max_new_tokens` must be <= 1512. Given: 1000 `inputs` tokens and 1024 `max_new_tokens`"
  /`?inputs`? must have less than \d+ tokens/i, // Hugging Face TGI: "Input validation error: `inputs` must have less than 1024 tokens. Given: 1872"
  /input length \(\d+ tokens\) exceeds the maximum allowed length/i, // SGLang: "Input length (160062 tokens) exceeds the maximum allowed length (59862 tokens)."
  /context the overflows|greater than the context length|context length of only \d+|n_keep \(\d+\) >= n_ctx/i, // LM Studio
  /prompt too long; exceeded (max )?context length/i, // Ollama: "prompt too long; exceeded max context length by 4021 tokens"
  /too long to fit into the model|longer than the model's context length/i, // vLLM (older), Together
  /exceeded model token limit/i, // Moonshot (Kimi): "Your request exceeded model token limit: 262144 (requested: 300000)"
  /context window (exceeded|is full|overflow)/i,
  /too many tokens in (the )?(prompt|request|input)/i,
  /request_too_large|request exceeds the maximum (allowed )?(number of bytes|size)/i, // Anthropic 413
  /request entity too large|payload too large/i, // HTTP 413 reason phrase
];

/** Rate limits, quotas and throttling that mention tokens: retry later, do not compact. */
const NOT_OVERFLOW_PATTERNS: readonly RegExp[] = [
  /rate[ _-]?limit/i,
  /throttl/i,
  /per min(ute)?\b|per day|per hour|\bTPM\b|\bRPM\b|\bTPD\b/i,
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
  'model_context_window_exceeded',
]);
const NOT_OVERFLOW_CODE = /throttl|rate_limit|resource_exhausted|quota|overloaded/;
const NOT_OVERFLOW_STATUS = new Set([429, 503, 529]);

/** "413 status code (no body)" (OpenAI-style SDKs) or a message that starts with its status. */
const STATUS_IN_TEXT = /\b([1-5]\d\d) status code\b|^\s*([45]\d\d)(?=\s|$)/;

const TEXT_KEYS = ['message', 'errorMessage', 'error_message', 'detail', 'reason'] as const;
const CODE_KEYS = ['code', 'type', 'name', '__type', 'status'] as const;
const STATUS_KEYS = ['status', 'statusCode', 'httpStatus', 'code'] as const;
const NESTED_KEYS = [
  'error',
  'errors',
  'cause',
  'lastError',
  'data',
  'response',
  'body',
  'responseBody',
  'details',
] as const;

/** Bounds on the walk: nesting depth, objects visited, and items read from one array. */
const MAX_DEPTH = 8;
const MAX_NODES = 200;
const MAX_ITEMS = 20;

interface Facts {
  texts: string[];
  codes: string[];
  statuses: number[];
}

function addText(facts: Facts, text: string): void {
  facts.texts.push(text);
  const match = STATUS_IN_TEXT.exec(text);
  const status = match?.[1] ?? match?.[2];
  if (status !== undefined) facts.statuses.push(Number(status));
}

function addFields(facts: Facts, object: Record<string, unknown>): void {
  for (const key of TEXT_KEYS) {
    const field = object[key];
    if (typeof field === 'string') addText(facts, field);
  }
  for (const key of CODE_KEYS) {
    const field = object[key];
    if (typeof field !== 'string') continue;
    if (/^[1-5]\d\d$/.test(field)) facts.statuses.push(Number(field));
    else facts.codes.push(field.toLowerCase());
  }
  for (const key of STATUS_KEYS) {
    const field = object[key];
    if (typeof field === 'number' && field >= 100 && field <= 599) facts.statuses.push(field);
  }
  const metadata = object.$metadata;
  if (typeof metadata === 'object' && metadata !== null) {
    const status = (metadata as Record<string, unknown>).httpStatusCode;
    if (typeof status === 'number') facts.statuses.push(status);
  }
}

/**
 * Collects messages, codes and statuses from an error, a response body or a message, looking into
 * nested `error`, `cause` and response fields and into arrays. Bounded and cycle-safe; a property
 * that throws when read is skipped.
 */
function collect(root: unknown): Facts {
  const facts: Facts = { texts: [], codes: [], statuses: [] };
  const seen = new Set<object>();
  const visit = (value: unknown, depth: number): void => {
    if (typeof value === 'string') {
      addText(facts, value);
      return;
    }
    if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return;
    if (seen.has(value) || seen.size >= MAX_NODES) return;
    seen.add(value);
    try {
      if (Array.isArray(value)) {
        for (const item of value.slice(0, MAX_ITEMS)) visit(item, depth + 1);
        return;
      }
      const object = value as Record<string, unknown>;
      addFields(facts, object);
      for (const key of NESTED_KEYS) visit(object[key], depth + 1);
    } catch {
      // A hostile or broken getter: use what was read before it.
    }
  };
  visit(root, 0);
  return facts;
}

function inputTokens(value: unknown): number | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const object = value as Record<string, unknown>;
  const usage = (typeof object.usage === 'object' && object.usage !== null ? object.usage : object) as Record<
    string,
    unknown
  >;
  const input = usage.input;
  if (typeof input !== 'number' || !Number.isFinite(input)) return undefined;
  const cacheRead = typeof usage.cacheRead === 'number' ? usage.cacheRead : 0;
  const cacheWrite = typeof usage.cacheWrite === 'number' ? usage.cacheWrite : 0;
  return input + cacheRead + cacheWrite;
}

function isSilentOverflow(value: unknown, contextWindow: number | undefined): boolean {
  if (contextWindow === undefined) return false;
  try {
    const input = inputTokens(value);
    return input !== undefined && input > contextWindow;
  } catch {
    return false;
  }
}

/**
 * Tells whether a provider error (or a failed assistant message, or a usage report) means the
 * request did not fit the model's context window — the one failure that compacting and retrying
 * fixes.
 *
 * Recognises the overflow errors of OpenAI (chat and Responses), Anthropic, Gemini, Vertex AI,
 * Bedrock, Mistral, Groq, Cerebras, xAI, OpenRouter, Together, Moonshot, DeepSeek, Cohere, vLLM,
 * SGLang, Hugging Face TGI, llama.cpp, llama-cpp-python, LM Studio and Ollama by message text or
 * error code (`context_length_exceeded`, …), and HTTP 413 as a status or as text ("413 status code
 * (no body)"). A retry wrapper (the AI SDK's `RetryError`, with `errors` and `lastError`) is judged
 * by its last attempt first, so an overflow after an earlier 429 is still an overflow. It reads strings, error objects, SDK errors
 * (`.status`, `.error`), response bodies (also as JSON strings or arrays), `cause` chains and
 * failed assistant messages (`errorMessage`), within fixed bounds and safely on cycles.
 *
 * Not overflows: rate limits, quotas and throttling that merely mention tokens (429, 503, 529,
 * "tokens per minute", `ThrottlingException`, `RESOURCE_EXHAUSTED`), and output-limit errors
 * ("max_tokens is too large") where the input fits. An error that says input plus output exceed
 * the window ("However, you requested …", "input length and `max_tokens` exceed context limit")
 * is an overflow: a smaller input fixes it. With `contextWindow`, a usage report or assistant
 * message whose input (cache reads and writes included) exceeds the window is a silent overflow.
 *
 * Never throws.
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
  // Never throws: options that are not an object, or a window that is not a positive number, are ignored.
  const window = typeof options === 'object' && options !== null ? options.contextWindow : undefined;
  const contextWindow = typeof window === 'number' && window > 0 ? window : undefined;
  return judge(value, contextWindow === undefined ? {} : { contextWindow }, 0);
}

/**
 * The last attempt's error of a retry wrapper (the AI SDK's `RetryError`: `errors` and
 * `lastError`), or undefined for anything else. Read safely: a hostile getter yields undefined.
 */
function lastAttempt(value: unknown): unknown {
  try {
    if (typeof value !== 'object' || value === null) return undefined;
    const object = value as Record<string, unknown>;
    const errors = object.errors;
    if (!Array.isArray(errors) || errors.length === 0) return undefined;
    return 'lastError' in object && object.lastError !== undefined ? object.lastError : errors[errors.length - 1];
  } catch {
    return undefined;
  }
}

function judge(value: unknown, options: IsContextOverflowOptions, depth: number): boolean {
  if (isSilentOverflow(value, options.contextWindow)) return true;
  // A retry wrapper: the attempt that finally failed decides, not an earlier 429 the retries outlived.
  const last = depth < 4 ? lastAttempt(value) : undefined;
  if (last !== undefined) {
    const facts = collect(last);
    if (facts.texts.length + facts.codes.length + facts.statuses.length > 0) return judge(last, options, depth + 1);
  }
  const facts = collect(value);
  const text = facts.texts.join('\n');
  if (facts.statuses.some((status) => NOT_OVERFLOW_STATUS.has(status))) return false;
  if (NOT_OVERFLOW_PATTERNS.some((pattern) => pattern.test(text))) return false;
  if (facts.codes.some((code) => NOT_OVERFLOW_CODE.test(code))) return false;
  if (facts.codes.some((code) => OVERFLOW_CODES.has(code))) return true;
  if (OVERFLOW_PATTERNS.some((pattern) => pattern.test(text))) return true;
  return facts.statuses.includes(413);
}
