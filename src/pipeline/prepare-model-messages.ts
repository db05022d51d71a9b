import { isAgentVisible } from '../counting/is-agent-visible.js';
import { freshCallId } from '../internal/reused-call-id.js';
import { pairToolResults, toolCallIds } from '../internal/tool-pairing.js';
import { createArchivedPlaceholder, createMissingResult } from '../messages/kept-tool-results.js';
import type { AssistantMessage, Message, ToolCall, ToolResultMessage } from '../types.js';
import { assertMessages } from '../validation/assert-messages.js';
import { withoutAwaitedResults } from './awaited-approvals.js';
import { sendableAssistant, sendableUser } from './empty-content.js';

const placeholders = new WeakMap<ToolResultMessage, ToolResultMessage>();
const synthetic = new WeakMap<AssistantMessage, Map<number, ToolResultMessage>>();
const renamedCalls = new WeakMap<AssistantMessage, { key: string; message: AssistantMessage }>();
const renamedResults = new WeakMap<ToolResultMessage, { id: string; message: ToolResultMessage }>();

function placeholderFor(result: ToolResultMessage): ToolResultMessage {
  let placeholder = placeholders.get(result);
  if (placeholder === undefined) {
    placeholder = createArchivedPlaceholder(result);
    placeholders.set(result, placeholder);
  }
  return placeholder;
}

function missingResultFor(assistant: AssistantMessage, partIndex: number, call: ToolCall): ToolResultMessage {
  let perMessage = synthetic.get(assistant);
  if (perMessage === undefined) {
    perMessage = new Map();
    synthetic.set(assistant, perMessage);
  }
  let result = perMessage.get(partIndex);
  if (result === undefined) {
    result = createMissingResult(call.id, call.name);
    perMessage.set(partIndex, result);
  }
  return result;
}

/** The assistant message with its tool calls carrying `ids` (in order); the same object when unchanged. */
function withCallIds(message: AssistantMessage, ids: readonly string[]): AssistantMessage {
  let index = 0;
  let changed = false;
  for (const part of message.content) if (part.type === 'toolCall' && part.id !== ids[index++]) changed = true;
  if (!changed) return message;
  const key = ids.join('\u0000');
  const cached = renamedCalls.get(message);
  if (cached?.key === key) return cached.message;
  index = 0;
  const content = message.content.map((part) => (part.type === 'toolCall' ? { ...part, id: ids[index++]! } : part));
  const renamed: AssistantMessage = { ...message, content };
  renamedCalls.set(message, { key, message: renamed });
  return renamed;
}

/** The result answering the call `id`; the same object when it already does. */
function withResultId(result: ToolResultMessage, id: string): ToolResultMessage {
  if (result.toolCallId === id) return result;
  const cached = renamedResults.get(result);
  if (cached?.id === id) return cached.message;
  const renamed: ToolResultMessage = { ...result, toolCallId: id };
  renamedResults.set(result, { id, message: renamed });
  return renamed;
}

function isSendableAssistant(message: AssistantMessage): boolean {
  return isAgentVisible(message) && message.stopReason !== 'aborted' && message.stopReason !== 'error';
}

/**
 * Which result answers which call: `answers.get(i)[k]` is the index of the result of the `k`-th tool
 * call of message `i`. A result answers the nearest call before it with its id that has no result
 * yet (within one assistant message, the first such call); results that answer nothing are orphans
 * or second results.
 */
function matchResults(messages: readonly Message[]): Map<number, (number | undefined)[]> {
  const answers = new Map<number, (number | undefined)[]>();
  messages.forEach((message, index) => {
    const calls = message.role === 'assistant' ? toolCallIds(message).length : 0;
    if (calls > 0) answers.set(index, new Array<number | undefined>(calls));
  });
  for (const [result, site] of pairToolResults(messages)) answers.get(site.message)![site.call] = result;
  return answers;
}

/** Every tool call and result id in the list, so a fresh id never clashes with one of them. */
function allIds(messages: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (message.role === 'toolResult') ids.add(message.toolCallId);
    else if (message.role === 'assistant')
      for (const part of message.content) if (part.type === 'toolCall') ids.add(part.id);
  }
  return ids;
}

/**
 * The projection a provider receives, repaired so the request is never rejected:
 * - messages with `agentVisible: false` are dropped, except that a hidden (archived) tool result
 *   whose call is sent goes out with a short placeholder, so the call stays paired;
 * - aborted or errored assistant turns are dropped (and with them their tool calls);
 * - every tool call is followed, right after its assistant message and in call order, by exactly
 *   one result: a result found later in the list is moved up, and a call with none gets a synthetic
 *   error result. A result answers the nearest call before it with its id that has no result yet;
 * - the one exception: a call awaiting its approved execution (an AI SDK `tool-approval-request`
 *   beside it, answered by a `tool-approval-response` at the end of the list, and no result yet)
 *   gets no synthetic result, as the AI SDK runs the approved tool (or writes its denial) itself
 *   before the next model call, and skips a call that already has a result;
 * - results whose call is missing, and second results for the same call, are dropped;
 * - a tool call id used again (by a later turn, or twice in one message: some providers and local
 *   servers restart their ids) is sent under a fresh id, in the call and in its result, as providers
 *   reject a request in which two calls share an id. The fresh id is valid wherever the id itself
 *   is: `_2`, `_3`… appended (`call_0` → `call_0_2`), within 40 characters (or the id's own length
 *   when longer); an id of nine letters and digits (the only ids Mistral accepts) stays one, its end
 *   replaced by the count in base 36 (`aB3dE5gH9` → `aB3dE5gH2`). A name already used by
 *   another id of the list is skipped;
 * - empty content is not sent, as providers reject it: whitespace-only text parts (and empty thinking
 *   without a signature) are removed, and a user or assistant message left with nothing is dropped.
 *   Thinking with a signature or `providerData` is kept, and tool calls and results are never
 *   dropped for this, so pairing is unaffected.
 *
 * Messages that need no change are returned as the same objects, and the placeholders, synthetic
 * results and renamed messages are memoized per source message, so repeated calls stay cheap and
 * token counts stay cached. The input is never mutated.
 *
 * @param messages - The conversation as stored.
 * @returns A new array, safe to send.
 * @throws {@link ContextError} with code `INPUT_INVALID` when a message does not fit the message
 * model (the index and field are named).
 *
 * @example
 * ```ts
 * const response = await client.chat({ messages: toProvider(prepareModelMessages(messages)) });
 * ```
 */
export function prepareModelMessages(messages: readonly Message[]): Message[] {
  assertMessages(messages, 'prepareModelMessages');
  const answers = matchResults(messages);
  const taken = allIds(messages);
  const sent = new Set<string>();
  const nextSuffix = new Map<string, number>();
  const inUse = (name: string) => taken.has(name) || sent.has(name);
  const output: Message[] = [];
  messages.forEach((message, index) => {
    switch (message.role) {
      case 'user': {
        const sendable = isAgentVisible(message) ? sendableUser(message) : undefined;
        if (sendable) output.push(sendable);
        return;
      }
      case 'toolResult':
        return; // emitted right after its call, or dropped as an orphan or duplicate
      case 'assistant': {
        const sendable = isSendableAssistant(message) ? sendableAssistant(message) : undefined;
        if (sendable === undefined) return;
        const calls = message.content.filter((part): part is ToolCall => part.type === 'toolCall');
        const ids = calls.map((call) => {
          const id = sent.has(call.id) ? freshCallId(call.id, inUse, nextSuffix) : call.id;
          sent.add(id);
          return id;
        });
        output.push(withCallIds(sendable, ids));
        const resultIndexes = answers.get(index);
        calls.forEach((call, callIndex) => {
          const resultIndex = resultIndexes?.[callIndex];
          const result = resultIndex === undefined ? undefined : (messages[resultIndex] as ToolResultMessage);
          const answer =
            result === undefined
              ? missingResultFor(message, callIndex, call)
              : isAgentVisible(result)
                ? result
                : placeholderFor(result);
          output.push(withResultId(answer, ids[callIndex]!));
        });
        return;
      }
    }
  });
  return withoutAwaitedResults(output);
}
