import {
  describe,
  expectArray,
  expectObject,
  expectString,
  invalid,
  isObject,
  type WireObject,
} from '../internal/wire-object.js';
import type { AssistantMessage, ImageContent, Message, StopReason, TextContent, UserMessage } from '../types.js';
import type { ConversionWarning } from './chat-types.js';
import {
  type FromOpenAIResponseOptions,
  type OpenAIResponseResult,
  type ReadOpenAIResponseOptions,
  responseResult,
} from './from-openai-chat.js';
import { fromOpenAIUsage } from './from-openai-usage.js';
import { imageFromUrl } from './internal/image-url.js';
import { instructionText } from './internal/instruction-text.js';
import { otherFields, placeholderPart, withData } from './internal/provider-data.js';
import { parseArguments } from './internal/tool-arguments.js';
import type {
  OpenAIResponse,
  OpenAIResponsesConversation,
  OpenAIResponsesItemInput,
  ResponsesMessageData,
  ResponsesPartData,
} from './responses-types.js';

const WHERE = 'fromOpenAIResponses';
const ROLES = ['user', 'assistant', 'system', 'developer'];

/**
 * What {@link fromOpenAIResponses} returns: the conversation, and a sentence for each thing ctxkit
 * could not see as the wire said it (the round trip stays exact regardless).
 */
export interface FromOpenAIResponsesResult extends OpenAIResponsesConversation {
  /**
   * One warning per lossy spot: the index of the item in the input, and a sentence naming the
   * field; empty when none.
   */
  warnings: ConversionWarning[];
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
  const warnings: ConversionWarning[] = [];
  // The sentences about the item being read, filed under its index once it is read.
  const notes: string[] = [];
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
      messages.push(userMessage(item, path, notes));
    } else if (item.type === 'function_call_output') {
      group = undefined;
      const toolCallId = expectString(item.call_id, WHERE, `${path}.call_id`);
      const toolName = toolNames.get(toolCallId);
      if (toolName === undefined) notes.push(`${path} answers call '${toolCallId}', which no earlier item made.`);
      const spelledAsParts = typeof item.output !== 'string';
      const content =
        typeof item.output === 'string'
          ? [{ type: 'text' as const, text: item.output }]
          : expectArray(item.output, WHERE, `${path}.output`).map((part, partIndex) =>
              inputPart(part, `${path}.output[${partIndex}]`, notes),
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
      for (const part of assistantParts(item, path, notes)) {
        if (part.type === 'toolCall') toolNames.set(part.id, part.name);
        group.content.push(part);
      }
    }
    for (const note of notes.splice(0)) warnings.push({ index, message: note });
  }
  return { ...systemPrompt(system), messages, warnings };
}

function expectItem(value: unknown, index: number): WireObject {
  const item = expectObject(value, WHERE, `items[${index}]`, ' Each item needs a type or a role.');
  if (item.type != null && typeof item.type !== 'string') {
    invalid(WHERE, `items[${index}].type`, `must be a string, received ${describe(item.type)}.`);
  }
  if (isMessage(item) && (typeof item.role !== 'string' || !ROLES.includes(item.role))) {
    invalid(WHERE, `items[${index}].role`, `must be one of ${ROLES.join(', ')}; received ${describe(item.role)}.`);
  }
  if (item.type == null && !('role' in item) && !('id' in item)) {
    invalid(WHERE, `items[${index}]`, 'has no type, role or id; a message needs a role, any other item a type.');
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

/**
 * Reads a Responses API response (the `openai` SDK's `Response`) as the assistant message to append
 * to the history. The message carries the response's `usage`, `stopReason`, `provider` and
 * `model`, so it is what the manager's callback returns: the manager counts the context from that
 * usage once the message is in the history it is given, with no `recordUsage` call.
 *
 * Every output item becomes a part of the one assistant message, as {@link fromOpenAIResponses} makes
 * them: `reasoning` → thinking (with `encrypted_content` as its signature, for `store: false`),
 * `message` → text, `function_call` → a tool call, other items carried verbatim (with a warning
 * whose `index` is the output item's). Usage follows {@link fromOpenAIUsage}: `input` is
 * `input_tokens - cached_tokens`, `cacheRead` is `cached_tokens`.
 * Stop reason: `completed` → `toolUse` when there is a function call, else `stop`; `incomplete`
 * because of `max_output_tokens` (or `max_messages`) → `length`, because of the content filter →
 * `error`, because it was `steered` (openai 7) → as if completed; `failed` →
 * `error` (with the error's message); `cancelled` → `aborted`.
 *
 * @param response - The response.
 * @param options - The provider name to record, and where warnings go.
 * @returns The assistant message, with its usage, stop reason, provider and model.
 * @throws `ContextError` with code `INPUT_INVALID` when `output` is not a list of items.
 *
 * @example
 * ```ts
 * const { result, history: kept } = await manager.runWithOverflowRecovery(history, async (messages) => {
 *   const input = toOpenAIResponses({ messages }).items;
 *   return readOpenAIResponse(await client.responses.create({ model, instructions, input, store: false }));
 * });
 * history = [...kept, result];
 * ```
 */
export function readOpenAIResponse(
  response: OpenAIResponse,
  options: ReadOpenAIResponseOptions = {},
): AssistantMessage {
  return readResponse(response, options, 'readOpenAIResponse');
}

/**
 * Converts a Responses API response into the assistant message and its metadata.
 *
 * @deprecated Use {@link readOpenAIResponse} (the name no longer differs from the request-side
 * {@link fromOpenAIResponses} by one letter), which returns the message itself (with its usage,
 * stop reason, provider and model on it) and reports warnings as `{ index, message }` objects
 * through `onWarning`. `fromOpenAIResponse(response).message` deep-equals `readOpenAIResponse(response)`.
 *
 * @param response - The response.
 * @param options - The provider name to record.
 * @returns The message, usage, stop reason, provider, model and warnings (as sentences).
 * @throws `ContextError` with code `INPUT_INVALID` when `output` is not a list of items.
 *
 * @example
 * ```ts
 * history.push(fromOpenAIResponse(response).message);
 * ```
 */
export function fromOpenAIResponse(
  response: OpenAIResponse,
  options: FromOpenAIResponseOptions = {},
): OpenAIResponseResult {
  return responseResult((read) => readResponse(response, read, 'fromOpenAIResponse'), options);
}

function readResponse(response: OpenAIResponse, options: ReadOpenAIResponseOptions, where: string): AssistantMessage {
  const wire = expectObject(response, where, 'response');
  const output = expectArray(wire.output, where, 'response.output');
  const warnings: ConversionWarning[] = [];
  const content = output.flatMap((item, index) => {
    const notes: string[] = [];
    const parts = assistantParts(
      expectObject(item, where, `response.output[${index}]`),
      `response.output[${index}]`,
      notes,
    );
    for (const note of notes) warnings.push({ index, message: note });
    return parts;
  });
  const message: AssistantMessage = { role: 'assistant', content };
  const usage = isObject(wire.usage) ? fromOpenAIUsage(wire.usage as never) : undefined;
  const hasToolCall = message.content.some((part) => part.type === 'toolCall');
  const { stopReason, errorMessage } = stopReasonOf(wire, hasToolCall);
  Object.assign(message, {
    ...(usage ? { usage } : {}),
    stopReason,
    ...(errorMessage ? { errorMessage } : {}),
    provider: options.provider ?? 'openai',
    model: typeof wire.model === 'string' ? wire.model : '',
  });
  for (const warning of warnings) options.onWarning?.(warning);
  return message;
}

function stopReasonOf(response: WireObject, hasToolCall: boolean): { stopReason: StopReason; errorMessage?: string } {
  switch (response.status) {
    case 'incomplete': {
      const reason = isObject(response.incomplete_details) ? response.incomplete_details.reason : undefined;
      if (reason === 'content_filter') {
        return { stopReason: 'error', errorMessage: 'The response was stopped by the content filter.' };
      }
      // openai 7: a `response.steer` stopped it at a safe output boundary, so what it wrote is whole
      // and goes back to the model like a finished turn (an `aborted` one never would).
      if (reason === 'steered') return { stopReason: hasToolCall ? 'toolUse' : 'stop' };
      // `max_output_tokens`, and openai 7's `max_messages`: a limit cut it short.
      return { stopReason: 'length' };
    }
    case 'failed': {
      const message =
        isObject(response.error) && typeof response.error.message === 'string' ? response.error.message : undefined;
      return { stopReason: 'error', errorMessage: message ?? 'The response failed.' };
    }
    case 'cancelled':
      return { stopReason: 'aborted' };
    default:
      return { stopReason: hasToolCall ? 'toolUse' : 'stop' };
  }
}

// The items of a Responses input list as ctxkit messages and parts, for fromOpenAIResponses (and
// the output items of fromOpenAIResponse): whatever ctxkit does not model goes to
// `providerData.openai.responses` on the message or part.

/** The function whose input this reads, named in its errors. */

/** Whether an item is a message (typed `message`, or untyped with a role). @internal */
function isMessage(item: WireObject): item is WireObject & { role: string } {
  return item.type === 'message' || (item.type == null && 'role' in item);
}

/** Checks that system or developer content is a string or text parts. @internal */
function instructionContent(content: unknown, path: string): void {
  if (typeof content === 'string') return;
  expectArray(content, WHERE, path).forEach((part, index) => {
    const object = expectObject(part, WHERE, `${path}[${index}]`);
    if (object.type === 'input_text') expectString(object.text, WHERE, `${path}[${index}].text`);
  });
}

/** A user message (or a system or developer message after the first item, sent back with its role). @internal */
function userMessage(item: WireObject & { role: string }, path: string, warnings: string[]): UserMessage {
  const role = item.role === 'system' || item.role === 'developer' ? item.role : undefined;
  const data: ResponsesMessageData = { role, fields: otherFields(item, ['role', 'content']) };
  if (typeof item.content === 'string') return { role: 'user', content: item.content, ...withData('responses', data) };
  const parts = expectArray(item.content, WHERE, `${path}.content`).map((part, index) =>
    inputPart(part, `${path}.content[${index}]`, warnings),
  );
  return { role: 'user', content: parts, ...withData('responses', data) };
}

/** An input part: text, an image, or a file or other part carried as a placeholder. @internal */
function inputPart(value: unknown, path: string, warnings: string[]): TextContent | ImageContent {
  const part = expectObject(value, WHERE, path);
  if (part.type === 'input_text') {
    const text = expectString(part.text, WHERE, `${path}.text`);
    return { type: 'text', text, ...withData('responses', { fields: otherFields(part, ['type', 'text']) }) };
  }
  if (part.type === 'input_image' && typeof part.image_url === 'string') {
    const { opaque, ...source } = imageFromUrl(part.image_url);
    const data: ResponsesPartData = { fields: otherFields(part, ['type', 'image_url']), opaque };
    return { type: 'image', ...source, ...withData('responses', data) };
  }
  warnings.push(`${path} (${describe(part.type)}) is carried verbatim; ctxkit counts it as a short placeholder.`);
  const label =
    part.type === 'input_file' && typeof part.filename === 'string' ? `file: ${part.filename}` : String(part.type);
  return placeholderPart('responses', label, part);
}

/** The parts an assistant-side item becomes (`path` names it in errors and warnings). @internal */
function assistantParts(item: WireObject, path: string, warnings: string[]): AssistantMessage['content'] {
  if (isMessage(item)) return messageParts(item, path);
  switch (item.type) {
    case 'function_call': {
      const id = expectString(item.call_id, WHERE, `${path}.call_id`);
      const name = expectString(item.name, WHERE, `${path}.name`);
      const parsed = parseArguments(expectString(item.arguments, WHERE, `${path}.arguments`));
      if (parsed.invalid)
        warnings.push(`${path}.arguments is not a JSON object; it is sent back verbatim and ctxkit sees {}.`);
      const data: ResponsesPartData = {
        item: otherFields(item, ['call_id', 'name', 'arguments']),
        arguments: parsed.raw,
      };
      return [{ type: 'toolCall', id, name, arguments: parsed.arguments, ...withData('responses', data) }];
    }
    case 'reasoning': {
      const summary = Array.isArray(item.summary) ? item.summary : [];
      const content = Array.isArray(item.content) ? item.content : [];
      const texts = (summary.length > 0 ? summary : content).map((part) =>
        typeof part?.text === 'string' ? part.text : '',
      );
      const thinking = texts.join('\n\n');
      const encrypted = typeof item.encrypted_content === 'string' ? item.encrypted_content : undefined;
      const data: ResponsesPartData = { item: otherFields(item, encrypted === undefined ? [] : ['encrypted_content']) };
      return [
        {
          type: 'thinking',
          thinking,
          ...(encrypted === undefined ? {} : { signature: encrypted }),
          ...(encrypted !== undefined && thinking === '' ? { redacted: true } : {}),
          ...withData('responses', data),
        },
      ];
    }
    default:
      warnings.push(`${path} (${describe(item.type)}) is carried verbatim; ctxkit counts it as a short placeholder.`);
      return [placeholderPart('responses', typeof item.type === 'string' ? item.type : 'item', item)];
  }
}

function messageParts(item: WireObject, path: string): TextContent[] {
  const fields = otherFields(item, ['content']);
  if (typeof item.content === 'string') {
    return [{ type: 'text', text: item.content, ...withData('responses', { item: fields, string: true }) }];
  }
  const content = expectArray(item.content, WHERE, `${path}.content`);
  if (content.length === 0) return [placeholderPart('responses', 'empty message', item)];
  return content.map((value, index) => {
    const part = expectObject(value, WHERE, `${path}.content[${index}]`);
    const refusal = part.type === 'refusal';
    const text = expectString(
      refusal ? part.refusal : part.text,
      WHERE,
      `${path}.content[${index}].${refusal ? 'refusal' : 'text'}`,
    );
    const data: ResponsesPartData = {
      ...(index === 0 ? { item: fields ?? {} } : { continues: true }),
      fields: otherFields(part, [refusal ? 'refusal' : 'text']),
      ...(refusal ? { refusal: true } : {}),
    };
    return { type: 'text', text, ...withData('responses', data) };
  });
}
