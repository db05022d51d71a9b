/**
 * Provider-native compaction in ctxkit's model: the payload a provider returned when it compacted
 * the conversation on its side, kept verbatim and tagged with who made it, beside a portable summary
 * any other provider or model can read.
 *
 * The types are written by hand; `schemas/native-compaction.ts` validates them.
 */

/**
 * The wire APIs whose native compaction ctxkit keeps: Anthropic's Messages API with the
 * `compact_20260112` context edit (a `compaction` content block) and OpenAI's Responses API (a
 * `compaction` output item, from `context_management` or `POST /responses/compact`).
 */
export type NativeCompactionApi = 'anthropic-messages' | 'openai-responses';

/**
 * The tokens a provider's own compaction step used: Anthropic's `usage.iterations[]` entries of
 * type `compaction`, summed; OpenAI's `usage` of a `POST /responses/compact` call.
 *
 * @example
 * ```ts
 * const cost: CompactionUsage = { input: 180_000, output: 2_400 };
 * ```
 */
export interface CompactionUsage {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/**
 * The model a request goes to: native payloads are sent only to the provider, API and model that
 * made them.
 *
 * @example
 * ```ts
 * const target: ModelTarget = { provider: 'openai', api: 'openai-responses', model: 'gpt-5' };
 * ```
 */
export interface ModelTarget {
  /** The provider name, as the adapters set it on assistant messages (`'anthropic'`, `'openai'`). */
  provider: string;
  /** The wire API of the call; `'openai-chat'`, `'ai-sdk'` or any other string never receives a payload. */
  api: NativeCompactionApi | (string & {});
  /** The model id of this call (the active one, not a configured default). */
  model: string;
}

/**
 * A compaction the provider did on its side.
 *
 * @example
 * ```ts
 * const native: NativeCompaction = {
 *   provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-5',
 *   payload: { type: 'compaction', content: '## Goal…', encrypted_content: 'Eq…' },
 *   summary: '## Goal…',
 * };
 * ```
 */
export interface NativeCompaction {
  /** Who made it: the provider name of the assistant message that carried it. */
  provider: string;
  /** The wire API it came from. */
  api: NativeCompactionApi;
  /** The model that made it; the payload is sent back only to this model. */
  model: string;
  /** The block or item exactly as the provider returned it (at most {@link NATIVE_PAYLOAD_LIMIT} bytes of JSON). */
  payload: Record<string, unknown>;
  /**
   * The items the provider returned before the payload, verbatim and in order, when its compaction
   * is a window of several: OpenAI's `POST /responses/compact` keeps every user message of the
   * compacted input and puts one `compaction` item after them that stands for all the rest, and the
   * next request must send that output whole. They go with the payload, before it, to its maker
   * only; any other model gets the portable summary, which covers them (it is written from the
   * whole span, user messages included). Absent for a lone block or item (Anthropic's, OpenAI's
   * inline `context_management` item), which stands for everything before it.
   */
  leading?: Record<string, unknown>[];
  /**
   * The portable summary: readable text any model can take. Anthropic's block carries it
   * (`content`; the manager adds, under `## Pinned Facts`, the facts of the replaced span that
   * text lost, within a quarter of the token limit); OpenAI's item is opaque, so ctxkit writes it
   * with the host's summarizer, and only when the session must leave that provider or the item is
   * refused. Absent until then.
   */
  summary?: string;
  /** What the compaction step cost, when the provider reported it. */
  usage?: CompactionUsage;
  /**
   * Set when the provider's payload (with its `leading` items) was past {@link NATIVE_PAYLOAD_LIMIT}:
   * its size in bytes. The payload is then not kept (`payload` is only `{ type: 'compaction' }`, no
   * `leading`) and never sent; every model gets the portable summary.
   */
  omitted?: number;
}

/**
 * The most bytes (UTF-8) of JSON a native payload may take in a session entry or message, its
 * `leading` items counted with it (schemas refuse a larger one, naming `native.payload` or
 * `native.leading`). The manager keeps a larger payload out: the
 * compaction is recorded with `omitted` set and its portable summary (OpenAI's written before the
 * next request), and every model, its maker included, gets the portable summary.
 */
export const NATIVE_PAYLOAD_LIMIT = 1_048_576;

/** The UTF-8 size of a value's JSON text, or `Infinity` when it has none (a cycle, a BigInt). @internal */
export function jsonBytes(value: unknown): number {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? 0 : new TextEncoder().encode(text).length;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
