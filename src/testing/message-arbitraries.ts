import * as fc from 'fast-check';
import { createToolSummaryMessage } from '../messages/summary-messages.js';
import type { AssistantMessage, Message, StopReason, ToolResultMessage, UserMessage } from '../types.js';
import { assertOptionalObjectArgument } from '../validation/assert-argument.js';
import { imageMessage, summaryMessage, toolResultMessage } from './message-builders.js';

/**
 * Options of {@link arbitraryConversation} (and, for the kinds of message, {@link arbitraryMessage}).
 *
 * @example
 * ```ts
 * const options: ArbitraryConversationOptions = { maxLength: 20, withImages: false };
 * ```
 */
export interface ArbitraryConversationOptions {
  /** Messages at least. @default 0 */
  minLength?: number;
  /** Messages at most. @default 30 */
  maxLength?: number;
  /** User messages and tool results with images. @default true */
  withImages?: boolean;
  /** Messages hidden from the model (`agentVisible: false`) or from the user (`userVisible: false`). @default true */
  withHidden?: boolean;
  /** Earlier compaction summaries and tool summaries. @default true */
  withSummaries?: boolean;
  /** Assistant turns with tool calls and their results. @default true */
  withToolCalls?: boolean;
  /**
   * Now and then a tool call id used again: a turn whose ids restart at `call_0` (as some providers
   * and local servers number them per response), or one turn whose parallel calls share one id.
   * @default true
   */
  withReusedIds?: boolean;
}

const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const text = fc.oneof(fc.lorem({ maxCount: 40 }), fc.string({ unit: 'grapheme', maxLength: 80 }));
/** True about one time in `n`. */
const rarely = (n: number) => fc.integer({ min: 1, max: n }).map((value) => value === 1);

const resultSpec = fc.record({
  text,
  isError: rarely(5),
  archived: rarely(6),
  image: rarely(8),
  missing: rarely(12),
});

function turnArbitraries(options: ArbitraryConversationOptions) {
  const stopReason = fc.oneof(
    { weight: 12, arbitrary: fc.constant<StopReason>('stop') },
    { weight: 1, arbitrary: fc.constantFrom<StopReason>('length', 'aborted', 'error') },
  );
  const turns = [
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('user' as const),
        text,
        image: options.withImages === false ? fc.constant(false) : rarely(6),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('reply' as const),
        text,
        thinking: fc.option(text, { nil: undefined }),
        usage: fc.option(fc.record({ input: fc.nat(60_000), output: fc.nat(4_000) }), { nil: undefined }),
        stopReason,
      }),
    },
  ];
  const tools = {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('tools' as const),
      text: fc.option(text, { nil: undefined }),
      name: fc.constantFrom('bash', 'read', 'grep', 'write'),
      results: fc.array(resultSpec, { minLength: 1, maxLength: 3 }),
      shuffle: fc.boolean(),
      delayOne: rarely(8),
      aborted: rarely(15),
      ids:
        options.withReusedIds === false
          ? fc.constant('unique' as const)
          : fc.oneof(
              { weight: 12, arbitrary: fc.constant('unique' as const) },
              { weight: 2, arbitrary: fc.constant('restart' as const) },
              { weight: 1, arbitrary: fc.constant('shared' as const) },
            ),
    }),
  };
  const hidden = {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('hidden' as const), text, from: fc.constantFrom('agent', 'user') }),
  };
  const summary = {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('summary' as const),
      text,
      which: fc.constantFrom('compaction', 'tools'),
    }),
  };
  return fc.oneof(
    ...turns,
    ...(options.withToolCalls === false ? [] : [tools]),
    ...(options.withHidden === false ? [] : [hidden]),
    ...(options.withSummaries === false ? [] : [summary]),
  );
}

type Turn = ReturnType<typeof turnArbitraries> extends fc.Arbitrary<infer T> ? T : never;

/** Builds the messages of one turn; results held back for later go to `delayed`. */
function turnMessages(turn: Turn, ids: { next: number }, images: boolean, delayed: Message[]): Message[] {
  switch (turn.kind) {
    case 'user':
      return [turn.image && images ? imageMessage(PIXEL, { text: turn.text }) : { role: 'user', content: turn.text }];
    case 'reply':
      return [
        {
          role: 'assistant',
          content: [
            ...(turn.thinking === undefined ? [] : [{ type: 'thinking' as const, thinking: turn.thinking }]),
            { type: 'text', text: turn.text },
          ],
          stopReason: turn.stopReason,
          ...(turn.usage === undefined ? {} : { usage: turn.usage }),
          ...(turn.stopReason === 'error' ? { errorMessage: 'provider error' } : {}),
        } satisfies AssistantMessage,
      ];
    case 'hidden': {
      const meta = turn.from === 'agent' ? { agentVisible: false } : { userVisible: false, kind: 'custom' };
      return [{ role: 'user', content: turn.text, meta } satisfies UserMessage];
    }
    case 'summary':
      return [turn.which === 'compaction' ? summaryMessage(turn.text) : createToolSummaryMessage(turn.text)];
    case 'tools':
      return toolTurn(turn, ids, images, delayed);
  }
}

function toolTurn(
  turn: Extract<Turn, { kind: 'tools' }>,
  ids: { next: number },
  images: boolean,
  delayed: Message[],
): Message[] {
  const shared = `call_${ids.next}`;
  const callIds = turn.results.map((_, index) =>
    turn.ids === 'restart' ? `call_${index}` : turn.ids === 'shared' ? shared : `call_${ids.next++}`,
  );
  if (turn.ids === 'shared') ids.next++;
  const call: AssistantMessage = {
    role: 'assistant',
    content: [
      ...(turn.text === undefined ? [] : [{ type: 'text' as const, text: turn.text }]),
      ...callIds.map((id, index) => ({
        type: 'toolCall' as const,
        id,
        name: turn.name,
        arguments: { step: index, note: 'x' },
      })),
    ],
    stopReason: turn.aborted ? 'aborted' : 'toolUse',
  };
  if (turn.aborted) return [call];
  const results: ToolResultMessage[] = [];
  turn.results.forEach((spec, index) => {
    if (spec.missing) return;
    const result = toolResultMessage(callIds[index]!, spec.text, {
      toolName: turn.name,
      ...(spec.isError ? { isError: true } : {}),
      ...(spec.archived ? { meta: { agentVisible: false, kind: 'tool_result_archived' } } : {}),
    });
    if (spec.image && images) result.content.push({ type: 'image', data: PIXEL, mimeType: 'image/png' });
    results.push(result);
  });
  if (turn.shuffle) results.reverse();
  if (turn.delayOne && results.length > 0) delayed.push(results.pop()!);
  return [call, ...results];
}

/**
 * Random well-formed conversations, the shapes a real agent produces: user messages (sometimes with
 * an image), replies (with thinking, usage, and now and then a `length`, `aborted` or `error` stop),
 * tool turns with one to three parallel calls followed by their results (occasionally a result
 * missing, given in reverse order, arriving after the next turn, failed, archived, or carrying an
 * image; occasionally an aborted turn whose calls never ran), hidden messages, and earlier
 * compaction and tool summaries. Tool call ids count up (`call_0`, `call_1`, …), except that now and
 * then (unless `withReusedIds` is `false`) a turn restarts them at `call_0` or gives its parallel
 * calls one shared id, as some providers and local servers do; a result then answers the nearest
 * call before it with its id.
 *
 * @param options - Length bounds and which kinds of message to include.
 * @returns An arbitrary of message lists.
 *
 * @example
 * ```ts
 * test.prop([arbitraryConversation({ maxLength: 40 })])('pairing holds', (messages) => {
 *   expect(checkToolPairing(prepareModelMessages(messages))).toEqual([]);
 * });
 * ```
 */
export function arbitraryConversation(options: ArbitraryConversationOptions = {}): fc.Arbitrary<Message[]> {
  assertOptionalObjectArgument(options, 'arbitraryConversation', 'options');
  const minLength = options.minLength ?? 0;
  const maxLength = Math.max(minLength, options.maxLength ?? 30);
  return fc.array(turnArbitraries(options), { minLength, maxLength }).map((turns) => {
    const ids = { next: 0 };
    const messages: Message[] = [];
    let delayed: Message[] = [];
    for (const turn of turns) {
      const next: Message[] = [];
      messages.push(...turnMessages(turn, ids, options.withImages !== false, next), ...delayed);
      delayed = next;
    }
    messages.push(...delayed);
    return messages.slice(0, maxLength);
  });
}

/**
 * One random message of any role, of the kinds {@link arbitraryConversation} produces. A tool
 * result it produces answers no call, so use {@link arbitraryConversation} for lists.
 *
 * @param options - Which kinds of message to include.
 * @returns An arbitrary of single messages.
 *
 * @example
 * ```ts
 * test.prop([arbitraryMessage()])('counts at least zero tokens', (message) => {
 *   expect(estimateMessageTokens(message)).toBeGreaterThanOrEqual(0);
 * });
 * ```
 */
export function arbitraryMessage(
  options: Omit<ArbitraryConversationOptions, 'minLength' | 'maxLength'> = {},
): fc.Arbitrary<Message> {
  assertOptionalObjectArgument(options, 'arbitraryMessage', 'options');
  return fc.tuple(turnArbitraries(options), fc.nat()).map(([turn, pick]) => {
    const delayed: Message[] = [];
    const messages = [...turnMessages(turn, { next: 0 }, options.withImages !== false, delayed), ...delayed];
    return messages[pick % messages.length]!;
  });
}
