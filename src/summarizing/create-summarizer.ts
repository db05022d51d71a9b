import { CompactionError, ConfigError } from '../errors.js';
import { raceAbort } from '../internal/race-abort.js';
import * as v from '../validation/light-schema.js';
import { parseOptions } from '../validation/parse-options.js';
import type { Summarizer, SummaryKind, SummaryOutput } from './summarizer-types.js';
import { normalizeStopReason } from './summary-output.js';
import { SUMMARY_PROMPTS, SUMMARY_SYSTEM_PROMPT, type SummaryPromptBuilder } from './summary-prompts.js';

/**
 * What the host's completion function receives: one system prompt, one user prompt, an output budget
 * and the abort signal of the summary request.
 *
 * @example
 * ```ts
 * const input: CompletionInput = { system: SUMMARY_SYSTEM_PROMPT, prompt: '…', maxOutputTokens: 4096 };
 * ```
 */
export interface CompletionInput {
  /** The system prompt: what the model is and how it must answer. */
  system: string;
  /** The user prompt: the task with the flattened conversation inside it. */
  prompt: string;
  /** The most tokens the answer may take; pass it to the model as its output limit. */
  maxOutputTokens: number;
  /** Aborts the request; pass it to the model client. */
  signal?: AbortSignal;
}

/**
 * What the host's completion function returns: the text, or the text with the provider's finish
 * reason (`'length'`, `'max_tokens'`, `'MAX_TOKENS'` and `'stop'`, `'end_turn'`, `'STOP'` are understood).
 *
 * @example
 * ```ts
 * const output: CompletionOutput = { text: '## Goal\n- Fix the parser', stopReason: 'end_turn' };
 * ```
 */
export type CompletionOutput = string | { text: string; stopReason?: string };

/**
 * The host's one call to a model: system and user text in, text and finish reason out. It may reject;
 * it should honour the signal.
 *
 * @example
 * ```ts
 * const complete: CompletionFunction = async ({ system, prompt, maxOutputTokens, signal }) => {
 *   const reply = await client.generate({ system, prompt, maxOutputTokens, signal });
 *   return { text: reply.text, stopReason: reply.finishReason };
 * };
 * ```
 */
export type CompletionFunction = (input: CompletionInput) => Promise<CompletionOutput> | CompletionOutput;

/**
 * Options of {@link createSummarizer}.
 *
 * @example
 * ```ts
 * const options: CreateSummarizerOptions = { complete, prompts: { branch: (request) => `…${request.text}` } };
 * ```
 */
export interface CreateSummarizerOptions {
  /** The host's completion function. */
  complete: CompletionFunction;
  /** Replaces the system prompt. @default SUMMARY_SYSTEM_PROMPT */
  systemPrompt?: string;
  /** Replaces the prompt of some kinds. @default SUMMARY_PROMPTS */
  prompts?: Partial<Record<SummaryKind, SummaryPromptBuilder>>;
}

function toOutput(reply: unknown): Exclude<SummaryOutput, string> {
  if (typeof reply === 'string') return { text: reply.trim() };
  if (typeof reply === 'object' && reply !== null && typeof (reply as { text?: unknown }).text === 'string') {
    const { text, stopReason } = reply as { text: string; stopReason?: unknown };
    return typeof stopReason === 'string' && stopReason.length > 0
      ? { text: text.trim(), stopReason: normalizeStopReason(stopReason) }
      : { text: text.trim() };
  }
  throw new CompactionError({
    message: `The completion function returned ${reply === null ? 'null' : typeof reply}; it must return a string or { text, stopReason? }.`,
    code: 'SUMMARIZER_FAILED',
  });
}

const isFunction = (value: unknown) => typeof value === 'function';
const optionsSchema = /* @__PURE__ */ (() =>
  v.object({
    complete: v.custom(
      isFunction,
      'must be a function that calls your model: ({ system, prompt, maxOutputTokens, signal }) => ({ text, stopReason })',
    ),
    systemPrompt: v.string({ error: 'must be a string' }).optional(),
    prompts: v
      .record(v.custom(isFunction, 'must be a function from the request to the prompt text').optional(), {
        error: 'must be an object of prompt builders by summary kind',
      })
      .optional(),
  }))();

/**
 * Builds a {@link Summarizer} from one completion function. The summarizer owns the prompts
 * ({@link SUMMARY_PROMPTS}): a structured checkpoint for `compaction` (updating `previousSummary`
 * rather than starting again, with the focus `instructions` appended), a digest for `tool_results`,
 * and a summary of an abandoned branch for `branch`. The conversation reaches the model as quoted
 * text with an instruction not to continue it. The request's `maxOutputTokens` and `signal` are passed
 * through; the answer is trimmed and its finish reason normalized (`'max_tokens'` → `'length'`,
 * `'end_turn'` → `'stop'`, …), so a cut-off summary is recognised and never stored.
 *
 * @param options - The completion function, and optional replacement prompts.
 * @returns A summarizer that rejects when the signal has fired (with the signal's reason) or when the
 * completion function rejects or returns something that is not text.
 * @throws {@link ConfigError} when `complete` is not a function or a prompt override is not a function.
 *
 * @example
 * ```ts
 * const summarizer = createSummarizer({
 *   complete: async ({ system, prompt, maxOutputTokens, signal }) => {
 *     const reply = await myModel.generate({ system, prompt, maxOutputTokens, signal });
 *     return { text: reply.text, stopReason: reply.finishReason };
 *   },
 * });
 * const manager = createContextManager({ model: 'gpt-4o', summarizer });
 * ```
 */
export function createSummarizer(options: CreateSummarizerOptions): Summarizer {
  parseOptions('createSummarizer', optionsSchema, options ?? {});
  const { complete } = options;
  const system = options.systemPrompt ?? SUMMARY_SYSTEM_PROMPT;
  const prompts: Partial<Record<SummaryKind, SummaryPromptBuilder>> = options.prompts ?? {};
  return {
    async summarize(request) {
      request.signal?.throwIfAborted();
      const build = prompts[request.kind] ?? SUMMARY_PROMPTS[request.kind] ?? SUMMARY_PROMPTS.compaction;
      const input: CompletionInput = {
        system,
        prompt: build(request),
        maxOutputTokens: request.maxOutputTokens,
        ...(request.signal ? { signal: request.signal } : {}),
      };
      const reply = await raceAbort(
        Promise.resolve().then(() => complete(input)),
        request.signal,
      );
      return toOutput(reply);
    },
  };
}
