import { ContextError } from '../errors.js';

/**
 * Options of {@link openaiCompactionParams}.
 *
 * @example
 * ```ts
 * const options: OpenAICompactionOptions = { threshold: manager.nativeCompaction(target)!.threshold };
 * ```
 */
export interface OpenAICompactionOptions {
  /** The input tokens at which the Responses API compacts: the manager's `nativeCompaction(target).threshold`. */
  threshold: number;
}

/**
 * The request option that turns on the Responses API's server-side compaction, to spread into
 * `client.responses.create`: `context_management: [{ type: 'compaction', compact_threshold }]`. The
 * output then holds a `compaction` item whenever the API compacted; `fromOpenAIResponse` keeps it
 * verbatim, and a manager with `compaction: nativeCompaction()` takes it in.
 *
 * @param options - The threshold.
 * @returns `{ context_management }`.
 * @throws `ContextError` with code `INPUT_INVALID` when `threshold` is not a positive whole number.
 *
 * @example
 * ```ts
 * const native = manager.nativeCompaction(target);
 * const response = await client.responses.create({
 *   model, input: toOpenAIResponses({ messages }).items, tools,
 *   ...(native ? openaiCompactionParams({ threshold: native.threshold }) : {}),
 * });
 * ```
 */
export function openaiCompactionParams(options: OpenAICompactionOptions): {
  context_management: { type: 'compaction'; compact_threshold: number }[];
} {
  const threshold = options?.threshold;
  if (!Number.isSafeInteger(threshold) || threshold < 1) {
    throw new ContextError({
      message: `openaiCompactionParams: options.threshold must be a positive whole number of input tokens (the manager's nativeCompaction(target).threshold), got ${String(threshold)}.`,
      code: 'INPUT_INVALID',
    });
  }
  return { context_management: [{ type: 'compaction', compact_threshold: threshold }] };
}
