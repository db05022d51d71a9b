import { ContextError } from '../errors.js';
import { createSummaryMessage } from '../messages/create-summary-message.js';
import { SUMMARY_PREFIX } from '../messages/wire-strings.js';
import type { ModelTarget, NativeCompaction, NativeCompactionApi } from '../native-compaction.js';
import type { Anchor } from '../summarizing/anchors/anchor.js';
import type { AssistantMessage, Message, ProviderData, TextContent, UserMessage } from '../types.js';
import { assertMessages } from '../validation/assert-messages.js';

// Where the adapters carry a block or item ctxkit does not model (`ctxkit/anthropic` keeps it in
// `providerData.anthropic.block`, `ctxkit/openai` in `providerData.openai.responses.raw`): a
// native compaction rides there on a text part reading `[compaction]`, so the adapters write it back
// verbatim and every other function sees a short placeholder. A compaction that is a window of
// several items (OpenAI's `POST /responses/compact`: the user messages, then the item) keeps the
// items before its payload beside it, in `providerData.openai.responses.leading`; sent to its maker,
// each rides on a text part of its own (its text, for counting) that the adapter writes verbatim.

const PLACEHOLDER = '[compaction]';

function objectAt(value: unknown, ...keys: string[]): Record<string, unknown> | undefined {
  let current = value;
  for (const key of keys) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return typeof current === 'object' && current !== null && !Array.isArray(current)
    ? (current as Record<string, unknown>)
    : undefined;
}

/** The compaction payload a part carries, its API, and the items that go before it, if it carries one. */
function carried(part: {
  providerData?: ProviderData;
}): { api: NativeCompactionApi; payload: Record<string, unknown>; leading?: Record<string, unknown>[] } | undefined {
  if (typeof part !== 'object' || part === null) return undefined;
  const block = objectAt(part.providerData, 'anthropic', 'block');
  if (block?.['type'] === 'compaction') return { api: 'anthropic-messages', payload: block };
  const data = objectAt(part.providerData, 'openai', 'responses');
  const item = objectAt(data, 'raw');
  if (item?.['type'] !== 'compaction') return undefined;
  const leading = data?.['leading'];
  const items =
    Array.isArray(leading) && leading.length > 0 && leading.every((entry) => objectAt(entry) !== undefined)
      ? (leading as Record<string, unknown>[])
      : undefined;
  return { api: 'openai-responses', payload: item, ...(items ? { leading: items } : {}) };
}

/** The text parts that carry a payload (and the items that go before it) back to the API that made it. */
function carrierParts(native: NativeCompaction): TextContent[] {
  const wrap = (value: Record<string, unknown>): ProviderData =>
    native.api === 'anthropic-messages' ? { anthropic: { block: value } } : { openai: { responses: { raw: value } } };
  const leading = (native.leading ?? []).map(
    (item): TextContent => ({ type: 'text', text: textOf(item), providerData: wrap(item) }),
  );
  return [...leading, { type: 'text', text: PLACEHOLDER, providerData: wrap(native.payload) }];
}

/** What a provider's item says, for counting: its string content or its parts' text, else a placeholder. */
function textOf(item: Record<string, unknown>): string {
  const content = item['content'];
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const texts = content.flatMap((part) => {
      const text = objectAt(part)?.['text'];
      return typeof text === 'string' ? [text] : [];
    });
    if (texts.length > 0) return texts.join('\n');
  }
  return `[${typeof item['type'] === 'string' ? item['type'] : 'item'}]`;
}

/**
 * The native compaction an assistant message carries, as the adapters read it from a response
 * (`fromAnthropicMessage`, `fromOpenAIResponse`, `readOpenAICompaction`): the payload verbatim
 * (with the items that go before it, for OpenAI's standalone endpoint), tagged with the message's
 * provider and model, with Anthropic's readable `content` as the portable summary and the cost of
 * the compaction step from `usage.compaction`.
 *
 * @param message - Any message; only assistant messages carry native compactions.
 * @returns The native compaction, or `undefined` when the message carries none.
 *
 * @example
 * ```ts
 * const { message } = fromAnthropicMessage(response);
 * const native = nativeCompactionOf(message); // { provider: 'anthropic', api: 'anthropic-messages', model, payload, summary }
 * ```
 */
export function nativeCompactionOf(message: Message): NativeCompaction | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  if (message.role !== 'assistant' || !Array.isArray(message.content)) return undefined;
  for (const part of message.content) {
    const found = carried(part);
    if (found === undefined) continue;
    const content = found.payload['content'];
    return {
      provider: message.provider ?? (found.api === 'anthropic-messages' ? 'anthropic' : 'openai'),
      api: found.api,
      model: message.model ?? '',
      payload: found.payload,
      ...(found.leading ? { leading: found.leading } : {}),
      ...(typeof content === 'string' && content.trim() !== '' ? { summary: content } : {}),
      ...(message.usage?.compaction ? { usage: message.usage.compaction } : {}),
    };
  }
  return undefined;
}

/**
 * The message that stands for a native compaction in a history: a compaction summary (a user
 * message, kind `compaction_summary`) whose text is the portable summary and whose `meta.native`
 * holds the payload. Without a portable summary yet (OpenAI's opaque item) its text says so;
 * `resolveNativeCompactions` reports it so the summary is written before another model reads it.
 *
 * @param native - The native compaction.
 * @param options - `anchors`: facts the portable summary keeps (from `compact`).
 * @returns The summary message.
 *
 * @example
 * ```ts
 * const resumed = [nativeSummaryMessage(native), ...history.slice(index)];
 * ```
 */
export function nativeSummaryMessage(
  native: NativeCompaction,
  options: { anchors?: readonly Anchor[] } = {},
): UserMessage {
  if (typeof native !== 'object' || native === null || typeof native.payload !== 'object') {
    throw new ContextError({
      message:
        'nativeSummaryMessage: native must be a NativeCompaction ({ provider, api, model, payload }); read one with nativeCompactionOf.',
      code: 'INPUT_INVALID',
    });
  }
  const text =
    native.summary ??
    `(${native.provider} compacted the conversation on its side with ${native.model || 'its model'}; its summary is opaque to other models and not written yet.)`;
  const message = createSummaryMessage(text, options.anchors ? { anchors: options.anchors } : {});
  return { ...message, meta: { ...message.meta, native } };
}

/**
 * Whether `native` may go to `target`: the same provider, API and model, and a payload that was
 * kept (not `omitted` for its size).
 *
 * @param native - The native compaction.
 * @param target - The model of the call; `undefined` matches nothing.
 * @returns `true` when the payload may be sent.
 *
 * @example
 * ```ts
 * madeBy(native, { provider: 'openai', api: 'openai-responses', model: 'gpt-5' });
 * ```
 */
export function madeBy(native: NativeCompaction, target: ModelTarget | undefined): boolean {
  return (
    typeof native === 'object' &&
    native !== null &&
    native.omitted === undefined &&
    typeof target === 'object' &&
    target !== null &&
    native.provider === target.provider &&
    native.api === target.api &&
    native.model === target.model
  );
}

/**
 * Options of {@link resolveNativeCompactions}.
 *
 * @example
 * ```ts
 * const options: ResolveNativeCompactionsOptions = { target: { provider: 'anthropic', api: 'anthropic-messages', model } };
 * ```
 */
export interface ResolveNativeCompactionsOptions {
  /** The model of this call. @default undefined: no payload is sent, every model gets the portable summary */
  target?: ModelTarget;
}

/**
 * What {@link resolveNativeCompactions} returns.
 *
 * @example
 * ```ts
 * const { messages, native, unsummarized } = resolveNativeCompactions(prepared, { target });
 * ```
 */
export interface ResolvedNativeCompactions {
  /** The messages to hand the adapter for this call. */
  messages: Message[];
  /** How many native payloads go out verbatim (0 or 1: only the latest compaction is on a path). */
  native: number;
  /**
   * Indexes (in `messages`) of native compaction summaries going to another model without a
   * portable summary: write one (the manager does) before sending, or that model sees only a note.
   */
  unsummarized: number[];
}

/**
 * The messages as one call should send them: a native compaction summary becomes its payload
 * (an assistant turn the adapter writes verbatim, its `leading` items first: for OpenAI's
 * standalone endpoint, the whole output in order) for the provider, API and model that made it,
 * and stays the portable summary (a ctxkit checkpoint) for any other; a compaction block or item
 * still inside an assistant turn is left out when its summary message stands before it, and
 * otherwise goes only to its maker (another model gets Anthropic's readable content as text, or
 * nothing for an opaque item). Pure: the input is not changed; messages without anything native
 * are the same objects.
 *
 * @param messages - The messages to send (the output of `prepare` or `prepareModelMessages`).
 * @param options - The model of this call.
 * @returns The messages for this call, how many payloads go verbatim, and the summaries still to write.
 * @throws `ContextError` with code `INPUT_INVALID` when `messages` is not a message list.
 *
 * @example
 * ```ts
 * const { messages } = resolveNativeCompactions(prepared.messages, { target: { provider: 'openai', api: 'openai-responses', model: 'gpt-5' } });
 * const { items } = toOpenAIResponses({ messages });
 * ```
 */
export function resolveNativeCompactions(
  messages: readonly Message[],
  options: ResolveNativeCompactionsOptions = {},
): ResolvedNativeCompactions {
  assertMessages(messages, 'resolveNativeCompactions');
  const target = options?.target;
  const out: Message[] = [];
  const unsummarized: number[] = [];
  const adopted: NativeCompaction[] = [];
  let native = 0;
  for (const message of messages) {
    const own = message.meta?.native;
    if (own !== undefined) {
      adopted.push(own);
      if (madeBy(own, target)) {
        native++;
        out.push({ role: 'assistant', content: carrierParts(own), provider: own.provider, model: own.model });
      } else {
        if (own.summary === undefined) unsummarized.push(out.length);
        out.push(withoutPayload(message));
      }
      continue;
    }
    if (message.role !== 'assistant' || !message.content.some((part) => carried(part) !== undefined)) {
      out.push(message);
      continue;
    }
    const content = message.content.flatMap((part): AssistantMessage['content'] => {
      const found = carried(part);
      if (found === undefined) return [part];
      if (adopted.some((known) => samePayload(known.payload, found.payload))) return [];
      const inline = nativeCompactionOf({ ...message, content: [part] })!;
      if (madeBy(inline, target)) {
        native++;
        return [part];
      }
      return inline.summary === undefined ? [] : [{ type: 'text', text: `${SUMMARY_PREFIX}\n${inline.summary}` }];
    });
    if (content.length > 0) out.push({ ...message, content });
  }
  return { messages: out, native, unsummarized };
}

/**
 * The messages with every native payload dropped: each native compaction summary keeps only its
 * portable summary (a note when none is written yet), and compaction blocks or items inside
 * assistant turns are removed (Anthropic's readable content stays as text). What the
 * manager splices in when a provider refuses a payload.
 *
 * @param messages - The history; not mutated.
 * @returns The history without native payloads.
 *
 * @example
 * ```ts
 * if (isNativeCompactionRefusal(error)) history = dropNativeCompactions(history);
 * ```
 */
export function dropNativeCompactions(messages: readonly Message[]): Message[] {
  assertMessages(messages, 'dropNativeCompactions');
  return resolveNativeCompactions(messages).messages;
}

/** A native summary message as another model gets it: its text, without the payload in its meta. */
function withoutPayload(message: Message): Message {
  const { native: _, ...meta } = message.meta!;
  return { ...message, meta } as Message;
}

/**
 * A message without the compaction blocks or items an assistant turn carries: the message itself
 * when it carries none, `undefined` when nothing else was in it. What a compaction entry or summary
 * message that took the payload over leaves of the turn.
 *
 * @internal
 */
export function withoutCompactionParts(message: Message): Message | undefined {
  if (message.role !== 'assistant' || !message.content.some((part) => carried(part) !== undefined)) return message;
  const content = message.content.filter((part) => carried(part) === undefined);
  return content.length > 0 ? { ...message, content } : undefined;
}

function samePayload(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  if (a === b) return true;
  const keys = ['id', 'encrypted_content', 'content', 'signature'];
  return keys.every((key) => a[key] === b[key]);
}
