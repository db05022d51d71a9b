import {
  describe,
  expectArray,
  expectObject,
  expectString,
  invalid,
  isObject,
  type WireObject,
} from '../internal/wire-object.js';
import type { CompactionUsage } from '../native-compaction.js';
import type { AssistantMessage } from '../types.js';
import type { ConversionWarning } from './chat-types.js';
import { fromOpenAIUsage } from './from-openai-usage.js';
import { withData } from './internal/provider-data.js';
import type { OpenAIResponsesItemInput, OpenAIResponsesUsage } from './responses-types.js';

const WHERE = 'readOpenAICompaction';

/**
 * What `POST /responses/compact` returns, structurally compatible with the `openai` SDK's
 * `CompactedResponse` (`client.responses.compact`, openai 6 and 7): the compacted window (the user
 * messages of the compacted input, then one `compaction` item that stands for everything else),
 * and the usage of the compaction pass.
 *
 * @example
 * ```ts
 * const compacted: OpenAICompactedResponse = await client.responses.compact({ model: 'gpt-5', input: items });
 * ```
 */
export interface OpenAICompactedResponse {
  id: string;
  /** `'response.compaction'`. */
  object?: string;
  created_at?: number;
  output: OpenAIResponsesItemInput[];
  usage?: OpenAIResponsesUsage | null;
}

/**
 * Options of {@link readOpenAICompaction}.
 *
 * @example
 * ```ts
 * const options: ReadOpenAICompactionOptions = { model: 'gpt-5' };
 * ```
 */
export interface ReadOpenAICompactionOptions {
  /**
   * The model the compact request went to (the response does not name it): the item is sent back
   * only to this model; any other gets the portable summary.
   */
  model: string;
  /**
   * The provider name recorded on the message (for an OpenAI-compatible server).
   * @default 'openai'
   */
  provider?: string;
  /**
   * Receives each output item the reader leaves out, with its index: an item after the compaction
   * item (the endpoint puts it last; every item before it is kept).
   * @default undefined (the warnings are not reported)
   */
  onWarning?: (warning: ConversionWarning) => void;
}

/**
 * Reads a `POST /responses/compact` response (the `openai` SDK's `client.responses.compact`) as the
 * assistant turn that carries the compacted window: its `compaction` item verbatim (as
 * `fromOpenAIResponse` keeps one, so `toOpenAIResponses` writes it back exactly) with the output
 * items before it (the user messages of the compacted input) verbatim and in order beside it, tagged
 * with `provider` and `model`, and the compaction pass's usage as `usage.compaction`
 * (`input_tokens - cached_tokens` as `input`, `cached_tokens` as `cacheRead`), with `input` and
 * `output` 0: the pass is billed, but it is not a context the next request sends, so token
 * accounting leaves it out. `nativeCompactionOf` reads the turn as one `NativeCompaction`
 * (provider, `api: 'openai-responses'`, model, `payload`: the item, `leading`: the items before it).
 *
 * The endpoint's output is the compacted window: the user messages stay, and the item stands only
 * for the rest (assistant messages, tool calls and results, reasoning), so the next request must
 * send the output whole. Append the turn to the history (and to the session store) as the
 * compacted span's successor: a manager with `compaction: nativeCompaction(…)` takes it in on its
 * next call, as it does an item from `context_management`. The history then starts from its summary
 * message; the store gets one compaction entry with the item and the items before it verbatim;
 * `stats().nativeCompactions` reports it once, with its usage; a request to `model` sends the
 * endpoint's output items exactly, in order (the user messages, then the item), then what followed;
 * any other model (or `model` after refusing the item) gets the portable summary, written (once,
 * with the host's summarizer) from the whole compacted span, its user messages included. Sent
 * without a manager, the turn writes back the item alone: the history before it holds the user
 * messages already.
 *
 * @param response - The compacted response.
 * @param options - The model the request went to, the provider name, where warnings go.
 * @returns The assistant turn carrying the compacted window and the pass's usage.
 * @throws `ContextError` with code `INPUT_INVALID` naming the field: `options.model` missing,
 * `response.output` not a list, or holding no `compaction` item or more than one.
 *
 * @example
 * ```ts
 * const compacted = await client.responses.compact({ model: 'gpt-5', input: toOpenAIResponses({ messages }).items });
 * const turn = readOpenAICompaction(compacted, { model: 'gpt-5' });
 * history.push(turn);
 * await store.appendEntry(sessionId, { type: 'message', message: turn });
 * const { messages: next } = await manager.prepare(history, { target });
 * // toOpenAIResponses({ messages: next }).items starts with compacted.output, verbatim
 * ```
 */
export function readOpenAICompaction(
  response: OpenAICompactedResponse,
  options: ReadOpenAICompactionOptions,
): AssistantMessage {
  const settings = expectObject(
    options,
    WHERE,
    'options',
    ' Pass { model }: the model the compact request went to (the response does not name it).',
  );
  const model = expectString(settings.model, WHERE, 'options.model', true);
  const provider =
    settings.provider === undefined ? 'openai' : expectString(settings.provider, WHERE, 'options.provider', true);
  const onWarning =
    typeof settings.onWarning === 'function'
      ? (settings.onWarning as ReadOpenAICompactionOptions['onWarning'])
      : undefined;
  const wire = expectObject(response, WHERE, 'response');
  const output = expectArray(wire.output, WHERE, 'response.output');
  let item: WireObject | undefined;
  // The items before the compaction item (the user messages), kept verbatim: the next request sends them.
  const leading: WireObject[] = [];
  output.forEach((value, index) => {
    const entry = expectObject(value, WHERE, `response.output[${index}]`);
    if (entry.type === 'compaction') {
      if (item !== undefined) {
        invalid(WHERE, `response.output[${index}]`, 'is a second compaction item; the endpoint returns one');
      }
      expectString(entry.encrypted_content, WHERE, `response.output[${index}].encrypted_content`, true);
      item = entry;
      return;
    }
    if (item === undefined) {
      leading.push(entry);
      return;
    }
    onWarning?.({
      index,
      message: `response.output[${index}] (${describe(entry.type ?? entry.role)}) is left out: it comes after the compaction item, which the endpoint puts last.`,
    });
  });
  if (item === undefined) {
    invalid(
      WHERE,
      'response.output',
      'holds no compaction item; pass the response of client.responses.compact (POST /responses/compact)',
    );
  }
  const compaction = isObject(wire.usage) ? compactionUsage(wire.usage as never) : undefined;
  return {
    role: 'assistant',
    content: [
      {
        type: 'text',
        text: '[compaction]',
        ...withData('responses', { raw: item, leading: leading.length > 0 ? leading : undefined }),
      },
    ],
    usage: { input: 0, output: 0, ...(compaction ? { compaction } : {}) },
    stopReason: 'stop',
    provider,
    model,
  };
}

/** The usage of the compaction pass, as ctxkit's compaction usage. */
function compactionUsage(usage: OpenAIResponsesUsage): CompactionUsage {
  const { input, output, cacheRead, cacheWrite } = fromOpenAIUsage(usage);
  return {
    input,
    output,
    ...(cacheRead ? { cacheRead } : {}),
    ...(cacheWrite ? { cacheWrite } : {}),
  };
}
