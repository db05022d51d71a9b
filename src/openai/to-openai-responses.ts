import { expectObject, type WireObject } from '../internal/wire-object.js';
import type { AssistantMessage, ImageContent, TextContent, ToolResultMessage, UserMessage } from '../types.js';
import { assertMessages } from '../validation/assert-messages.js';
import type { ConversionWarning } from './chat-types.js';
import { breakpointOf, isStableMessage, placeCacheBreakpoints, RESPONSES_ITEMS } from './internal/cache-breakpoints.js';
import { imageUrl } from './internal/image-url.js';
import { instructionText } from './internal/instruction-text.js';
import { readData } from './internal/provider-data.js';
import { printArguments } from './internal/tool-arguments.js';
import type {
  OpenAIResponsesConversation,
  OpenAIResponsesInputPart,
  OpenAIResponsesItem,
  ResponsesConversationData,
  ResponsesMessageData,
  ResponsesPartData,
} from './responses-types.js';

const WHERE = 'toOpenAIResponses';

/**
 * Options of {@link toOpenAIResponses}.
 *
 * @example
 * ```ts
 * toOpenAIResponses({ systemPrompt, messages }, { systemRole: 'developer' });
 * ```
 */
export interface ToOpenAIResponsesOptions {
  /**
   * The role of the message that carries a new or changed `systemPrompt` (the verbatim leading
   * messages are reused while the prompt is unchanged).
   * @default 'system'
   */
  systemRole?: 'system' | 'developer';
  /**
   * Place explicit prompt-cache breakpoints (`prompt_cache_breakpoint`, taken by GPT-5.6 and later
   * models), at most 4 per request (marks the items already carry count), where
   * `toOpenAIChat`'s `cacheBreakpoints` places them: the newest item, the system prompt, the newest
   * of ctxkit's archived results, summaries and digests, and the item before the newest. A mark goes
   * on the last part of an input message (user, system, developer) or of a function call's output
   * (a string becomes one `input_text` part); the model's own items (messages, reasoning, function
   * calls) take none, so the nearest input before them is marked instead. `true` leaves each mark's
   * TTL to the request's `prompt_cache_options.ttl` (30 minutes by default); `{ ttl: '12h' }` asks
   * for longer. Price such a model with `OPENAI_EXPLICIT_CACHE`.
   * @default false
   */
  cacheBreakpoints?: boolean | { ttl?: '30m' | '12h' } | undefined;
}

/**
 * What {@link toOpenAIResponses} returns.
 *
 * @example
 * ```ts
 * const { items, warnings }: ToOpenAIResponsesResult = toOpenAIResponses({ messages: prepared });
 * ```
 */
export interface ToOpenAIResponsesResult {
  /**
   * The request's `input`, ready for `client.responses.create`. Items ctxkit does not model come back
   * verbatim as they went in, typed as the items it does.
   */
  items: OpenAIResponsesItem[];
  /**
   * One warning per thing the Responses API cannot take back (thinking from another provider): the
   * index of the ctxkit message and a sentence; empty when none.
   */
  warnings: ConversionWarning[];
}

/**
 * Converts ctxkit messages and a system prompt into a Responses API input (assignable to the `openai`
 * SDK's `ResponseInputItem[]`), the inverse of {@link fromOpenAIResponses}:
 * `toOpenAIResponses(fromOpenAIResponses(x))` deep-equals `x`.
 *
 * Each assistant part becomes its item again (reasoning with its `encrypted_content`, output
 * messages with their ids and annotations, function calls with JSON-string arguments); text ctxkit
 * wrote (a summary, a host's message) goes as an easy-form message. Thinking that did not come from
 * the Responses API is left out with a warning, as the API takes back only its own reasoning items.
 * Send the output of `prepareModelMessages` (or the manager's `prepare`) so every function call is
 * answered by exactly one output.
 *
 * @param conversation - The system prompt and the messages to send.
 * @param options - The role for a new system prompt, and the prompt-cache breakpoints to place.
 * @returns The input items and the warnings.
 * @throws `ContextError` with code `INPUT_INVALID` when a message does not fit ctxkit's message
 * model (the index and field are named), or `cacheBreakpoints` is not `true`, `false` or `{ ttl }`.
 *
 * @example
 * ```ts
 * const { items } = toOpenAIResponses({ messages: prepared });
 * const response = await client.responses.create({ model: 'gpt-5', input: items, store: false, include: ['reasoning.encrypted_content'] });
 * ```
 */
export function toOpenAIResponses(
  conversation: OpenAIResponsesConversation,
  options: ToOpenAIResponsesOptions = {},
): ToOpenAIResponsesResult {
  expectObject(conversation, WHERE, 'conversation', ' Pass { systemPrompt?, messages }.');
  assertMessages(conversation.messages, WHERE);
  const warnings: ConversionWarning[] = [];
  // The sentences about the message being written, filed under its index once it is written.
  const notes: string[] = [];
  const mark = breakpointOf(WHERE, options.cacheBreakpoints);
  const items: OpenAIResponsesItem[] = system(conversation, options);
  const systemEnd = items.length - 1;
  const last = conversation.messages.length - 1;
  let stable: number | undefined;
  conversation.messages.forEach((message, index) => {
    switch (message.role) {
      case 'user':
        items.push(userItem(message));
        break;
      case 'assistant':
        items.push(...assistantItems(message, `messages[${index}]`, notes));
        break;
      case 'toolResult':
        items.push(outputItem(message));
        break;
    }
    for (const note of notes.splice(0)) warnings.push({ index, message: note });
    if (index < last - 1 && isStableMessage(message) && items.length > 0) stable = items.length - 1;
  });
  if (mark)
    placeCacheBreakpoints(items, { system: systemEnd >= 0 ? systemEnd : undefined, stable }, mark, RESPONSES_ITEMS);
  return { items, warnings };
}

function system(conversation: OpenAIResponsesConversation, options: ToOpenAIResponsesOptions): OpenAIResponsesItem[] {
  const { systemPrompt } = conversation;
  if (systemPrompt === undefined) return [];
  const kept = readData<ResponsesConversationData>(conversation.providerData, 'responses')?.system;
  if (Array.isArray(kept) && kept.map((item) => instructionText(item.content)).join('\n\n') === systemPrompt) {
    return [...kept] as unknown as OpenAIResponsesItem[];
  }
  // An empty system message is rejected, and says nothing.
  return systemPrompt === '' ? [] : [{ role: options.systemRole ?? 'system', content: systemPrompt }];
}

function partData(part: { providerData?: Record<string, unknown> }): ResponsesPartData {
  return readData<ResponsesPartData>(part.providerData, 'responses') ?? {};
}

function inputPart(part: TextContent | ImageContent): OpenAIResponsesInputPart {
  const data = partData(part);
  if (data.raw) return data.raw as unknown as OpenAIResponsesInputPart;
  if (part.type === 'text') return { ...data.fields, type: 'input_text', text: part.text };
  return { detail: 'auto', ...data.fields, type: 'input_image', image_url: imageUrl(part, data.opaque) };
}

function userItem(message: UserMessage): OpenAIResponsesItem {
  const data = readData<ResponsesMessageData>(message.providerData, 'responses') ?? {};
  const role = data.role ?? 'user';
  const content = typeof message.content === 'string' ? message.content : message.content.map(inputPart);
  return { ...data.fields, role, content };
}

function assistantItems(message: AssistantMessage, path: string, warnings: string[]): OpenAIResponsesItem[] {
  const items: WireObject[] = [];
  let open: WireObject[] | undefined; // the content list of the output message being rebuilt
  message.content.forEach((part, index) => {
    const data = partData(part);
    if (part.type !== 'text' || !data.continues) open = undefined;
    switch (part.type) {
      case 'thinking':
        if (data.item) {
          items.push({ ...data.item, ...(part.signature === undefined ? {} : { encrypted_content: part.signature }) });
        } else {
          warnings.push(
            `${path}.content[${index}] is thinking from another API; the Responses API takes back only its own reasoning items, so it is left out.`,
          );
        }
        return;
      case 'toolCall':
        items.push({
          type: 'function_call',
          ...data.item,
          call_id: part.id,
          name: part.name,
          arguments: printArguments(part, data.arguments),
        });
        return;
      case 'text': {
        if (data.raw) {
          items.push(data.raw);
          return;
        }
        if (data.string) {
          items.push({ ...data.item, content: part.text });
          return;
        }
        const wire = data.refusal
          ? { type: 'refusal', ...data.fields, refusal: part.text }
          : data.fields
            ? { ...data.fields, text: part.text }
            : { type: 'output_text', text: part.text, annotations: [] };
        if (open && data.continues) open.push(wire);
        else if (data.item) {
          open = [wire];
          items.push({ ...data.item, content: open });
        } else items.push({ role: 'assistant', content: part.text });
        return;
      }
    }
  });
  // A reasoning item must be followed by the item it produced; one left last (the output was cut
  // while reasoning, or what followed was empty and not sent) would be rejected.
  while (items.length > 0 && items[items.length - 1]!.type === 'reasoning') {
    items.pop();
    warnings.push(
      `${path} ends with reasoning that produced nothing; the Responses API refuses it alone, so it is left out.`,
    );
  }
  return items as unknown as OpenAIResponsesItem[];
}

function outputItem(message: ToolResultMessage): OpenAIResponsesItem {
  const data = readData<ResponsesMessageData>(message.providerData, 'responses') ?? {};
  const [first] = message.content;
  const plain =
    data.content !== 'parts' &&
    message.content.length === 1 &&
    first!.type === 'text' &&
    first!.providerData === undefined;
  const output = plain ? (first as TextContent).text : message.content.map(inputPart);
  return { type: 'function_call_output', ...data.fields, call_id: message.toolCallId, output } as OpenAIResponsesItem;
}
