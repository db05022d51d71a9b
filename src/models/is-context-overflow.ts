import { collectErrorFacts } from './internal/collect-error-facts.js';
import {
  NOT_OVERFLOW_CODE,
  NOT_OVERFLOW_PATTERNS,
  NOT_OVERFLOW_STATUS,
  OVERFLOW_CODES,
  OVERFLOW_PATTERNS,
} from './internal/overflow-patterns.js';

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
 * Bedrock, Mistral, Groq, Cerebras, xAI, OpenRouter (and the providers it relays), Together,
 * Moonshot, DeepSeek, Cohere, GitHub Copilot, MiniMax, DashScope, SambaNova, NVIDIA NIM, vLLM,
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
 * async function send(messages: Message[]) {
 *   try {
 *     return await callModel(messages);
 *   } catch (error) {
 *     if (!isContextOverflow(error)) throw error;
 *     return callModel((await manager.compact(messages)).messages);
 *   }
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
    const facts = collectErrorFacts(last);
    if (facts.texts.length + facts.codes.length + facts.statuses.length > 0) return judge(last, options, depth + 1);
  }
  const facts = collectErrorFacts(value);
  const text = facts.texts.join('\n');
  if (facts.statuses.some((status) => NOT_OVERFLOW_STATUS.has(status))) return false;
  if (NOT_OVERFLOW_PATTERNS.some((pattern) => pattern.test(text))) return false;
  if (facts.codes.some((code) => NOT_OVERFLOW_CODE.test(code))) return false;
  if (facts.codes.some((code) => OVERFLOW_CODES.has(code))) return true;
  if (OVERFLOW_PATTERNS.some((pattern) => pattern.test(text))) return true;
  return facts.statuses.includes(413);
}
