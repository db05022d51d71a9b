import type { Message } from '../types.js';

/** What a summary is for. */
export type SummaryKind = 'compaction' | 'tool_results' | 'branch';

/**
 * One request to a {@link Summarizer}.
 *
 * @example
 * ```ts
 * const request: SummaryRequest = {
 *   kind: 'compaction',
 *   messages,
 *   text: serializeConversation(messages),
 *   maxOutputTokens: 4096,
 * };
 * ```
 */
export interface SummaryRequest {
  /** What is summarized. */
  kind: SummaryKind;
  /** The messages to summarize, already projected to what the model saw. */
  messages: readonly Message[];
  /** The same messages flattened to plain text, clipped where the reference rules clip them. */
  text: string;
  /** An earlier summary to update rather than summarize again. */
  previousSummary?: string;
  /** Focus instructions from the user (`/compact focus on the auth bug`). */
  instructions?: string;
  /** The most tokens the summary may take. */
  maxOutputTokens: number;
  /** Aborts the request; a summarizer must reject promptly once it fires. */
  signal?: AbortSignal;
  /**
   * The conversation as the model was last sent it (system prompt and tools aside), when the
   * caller knows it: the context manager sets it. A summarizer that reuses the provider's prompt
   * cache sends these messages, with the same system prompt and tools, then its instruction as
   * the final user message, so the provider reads them from the cache instead of a rebuilt prompt
   * (the adapters' `reuseConversation` option). `messages` are the part to summarize.
   */
  conversation?: readonly Message[];
}

/**
 * A summarizer's answer: the text, or the text with the reason the model stopped. A `stopReason`
 * of `'length'` marks a summary cut off at the output limit, which ctxkit refuses to store.
 */
export type SummaryOutput = string | { text: string; stopReason?: 'stop' | 'length' | (string & {}) };

/**
 * Produces summaries; the only I/O in ctxkit's core.
 *
 * Contract:
 * - `summarize` may reject (network, provider, abort); callers treat a rejection as "no summary" and
 *   never store a partial one. Tool-result summarization falls back to the heuristic; compaction
 *   fails with a `CompactionError` and leaves the history as it was.
 * - It must honour `request.signal`: once aborted, reject (an `AbortError` is fine).
 * - It should stay within `request.maxOutputTokens`, and report `stopReason: 'length'` when the
 *   model was cut off.
 *
 * @example
 * ```ts
 * const summarizer: Summarizer = {
 *   async summarize(request) {
 *     const reply = await myModel.complete({ prompt: request.text, signal: request.signal });
 *     return { text: reply.text, stopReason: reply.finishReason };
 *   },
 * };
 * ```
 */
export interface Summarizer {
  /**
   * Writes the summary the request asks for.
   *
   * @param request - What to summarize, the previous summary, focus instructions, the output
   *   budget and the abort signal.
   * @returns The summary text (or the text and why the model stopped).
   */
  summarize(request: SummaryRequest): Promise<SummaryOutput>;
}
