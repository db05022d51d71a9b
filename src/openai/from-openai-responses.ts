import type { AssistantMessage, Message } from '../types.js';
import { instructionText } from './internal/instruction-text.js';
import { otherFields, withData } from './internal/provider-data.js';
import {
  assistantParts,
  inputPart,
  instructionContent,
  isMessage,
  userMessage,
} from './internal/read-responses-items.js';
import { describe, expectArray, expectObject, expectString, invalid, type WireObject } from './internal/wire-object.js';
import type { OpenAIResponsesConversation, ResponsesMessageData } from './responses-data.js';
import type { OpenAIResponsesItemInput } from './responses-types.js';

const WHERE = 'fromOpenAIResponses';
const ROLES = ['user', 'assistant', 'system', 'developer'];

/**
 * What {@link fromOpenAIResponses} returns: the conversation, and a sentence for each thing ctxkit
 * could not see as the wire said it (the round trip stays exact regardless).
 */
export interface FromOpenAIResponsesResult extends OpenAIResponsesConversation {
  /** One sentence per lossy spot, naming the item index and field; empty when none. */
  warnings: string[];
}

/**
 * Converts a Responses API input (the `openai` SDK's `ResponseInputItem[]`, with earlier
 * `response.output` items appended) into ctxkit messages and the system prompt.
 *
 * - Leading `system` and `developer` messages become `systemPrompt`; one later in the list becomes a
 *   user message sent back with its own role. User messages become user messages.
 * - The items the model produced between two user-side items (`reasoning`, assistant `message`,
 *   `function_call`, and items of other types) become one assistant message, one part per item (per
 *   content part for messages), in order. `function_call_output` items become tool results.
 * - `reasoning` becomes thinking: its summary text, `encrypted_content` as the signature (so a
 *   `store: false` conversation can send it back), `redacted` when only the encrypted form came.
 * - Items and parts ctxkit does not model (web search calls, item references, files…) are carried
 *   verbatim behind a short placeholder text, with a warning; item ids, statuses, annotations and
 *   unknown fields go to `providerData.openai.responses`, so `toOpenAIResponses(fromOpenAIResponses(x))`
 *   deep-equals `x`.
 *
 * @param items - The request's `input` items.
 * @returns The system prompt, the messages and the warnings.
 * @throws `ContextError` with code `INPUT_INVALID` when the input is not a list of items (the
 * index and field are named).
 *
 * @example
 * ```ts
 * const { messages } = fromOpenAIResponses(items);
 * const { messages: prepared } = await manager.prepare(messages);
 * await client.responses.create({ model, instructions, input: toOpenAIResponses({ messages: prepared }).items, store: false });
 * ```
 */
export function fromOpenAIResponses(items: readonly OpenAIResponsesItemInput[]): FromOpenAIResponsesResult {
  const list = expectArray(items, WHERE, 'items');
  const warnings: string[] = [];
  const messages: Message[] = [];
  const toolNames = new Map<string, string>();
  const system: WireObject[] = [];
  let group: AssistantMessage | undefined;
  let index = 0;
  for (; index < list.length; index++) {
    const item = expectItem(list[index], index);
    if (!isMessage(item) || (item.role !== 'system' && item.role !== 'developer')) break;
    instructionContent(item.content, `items[${index}].content`);
    system.push(item);
  }
  for (; index < list.length; index++) {
    const item = expectItem(list[index], index);
    const path = `items[${index}]`;
    if (isMessage(item) && item.role !== 'assistant') {
      group = undefined;
      messages.push(userMessage(item, path, warnings));
    } else if (item.type === 'function_call_output') {
      group = undefined;
      const toolCallId = expectString(item.call_id, WHERE, `${path}.call_id`);
      const toolName = toolNames.get(toolCallId);
      if (toolName === undefined) warnings.push(`${path} answers call '${toolCallId}', which no earlier item made.`);
      const spelledAsParts = typeof item.output !== 'string';
      const content =
        typeof item.output === 'string'
          ? [{ type: 'text' as const, text: item.output }]
          : expectArray(item.output, WHERE, `${path}.output`).map((part, partIndex) =>
              inputPart(part, `${path}.output[${partIndex}]`, warnings),
            );
      const data: ResponsesMessageData = {
        fields: otherFields(item, ['call_id', 'output']),
        content: spelledAsParts ? 'parts' : undefined,
      };
      messages.push({
        role: 'toolResult',
        toolCallId,
        toolName: toolName ?? 'unknown',
        content,
        ...withData('responses', data),
      });
    } else {
      if (group === undefined) {
        group = { role: 'assistant', content: [] };
        messages.push(group);
      }
      for (const part of assistantParts(item, path, warnings)) {
        if (part.type === 'toolCall') toolNames.set(part.id, part.name);
        group.content.push(part);
      }
    }
  }
  return { ...systemPrompt(system), messages, warnings };
}

function expectItem(value: unknown, index: number): WireObject {
  const item = expectObject(value, WHERE, `items[${index}]`, ' Each item needs a type or a role.');
  if (item.type != null && typeof item.type !== 'string') {
    throw invalid(WHERE, `items[${index}].type`, `must be a string, received ${describe(item.type)}.`);
  }
  if (isMessage(item) && (typeof item.role !== 'string' || !ROLES.includes(item.role))) {
    throw invalid(
      WHERE,
      `items[${index}].role`,
      `must be one of ${ROLES.join(', ')}; received ${describe(item.role)}.`,
    );
  }
  if (item.type == null && !('role' in item) && !('id' in item)) {
    throw invalid(WHERE, `items[${index}]`, 'has no type, role or id; a message needs a role, any other item a type.');
  }
  return item;
}

function systemPrompt(system: WireObject[]): Pick<OpenAIResponsesConversation, 'systemPrompt' | 'providerData'> {
  if (system.length === 0) return {};
  const text = system.map((item) => instructionText(item.content)).join('\n\n');
  const [first] = system;
  const plain =
    system.length === 1 &&
    first!.role === 'system' &&
    typeof first!.content === 'string' &&
    first!.content !== '' &&
    Object.keys(first!).length === 2;
  return { systemPrompt: text, ...(plain ? {} : withData('responses', { system })) };
}
