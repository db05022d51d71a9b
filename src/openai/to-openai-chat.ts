import { expectObject } from '../internal/wire-object.js';
import type {
  AssistantMessage,
  ImageContent,
  TextContent,
  ToolCall,
  ToolResultMessage,
  UserMessage,
} from '../types.js';
import { assertMessages } from '../validation/assert-messages.js';
import type {
  ChatConversationData,
  ChatMessageData,
  ChatPartData,
  ConversionWarning,
  OpenAIChatAssistantMessage,
  OpenAIChatConversation,
  OpenAIChatMessage,
  OpenAIChatRefusalPart,
  OpenAIChatTextPart,
  OpenAIChatToolCall,
  OpenAIChatUserPart,
} from './chat-types.js';
import { breakpointOf, CHAT_ITEMS, isStableMessage, placeCacheBreakpoints } from './internal/cache-breakpoints.js';
import { imageUrl } from './internal/image-url.js';
import { instructionText } from './internal/instruction-text.js';
import { readData } from './internal/provider-data.js';
import { printArguments } from './internal/tool-arguments.js';

const WHERE = 'toOpenAIChat';

/**
 * Options of {@link toOpenAIChat}.
 *
 * @example
 * ```ts
 * toOpenAIChat({ systemPrompt, messages }, { systemRole: 'developer' });
 * ```
 */
export interface ToOpenAIChatOptions {
  /**
   * The role of the message that carries a new or changed `systemPrompt` (the verbatim leading
   * messages are reused while the prompt is unchanged).
   * @default 'system'
   */
  systemRole?: 'system' | 'developer';
  /**
   * Place explicit prompt-cache breakpoints (`prompt_cache_breakpoint`, taken by GPT-5.6 and later
   * models), at most 4 per request (marks the messages already carry count): on the newest
   * message (what the next request reads back), on the system prompt, on the newest of ctxkit's
   * archived results, summaries and digests (a batch archived later re-writes the cache only from
   * there), and on the message before the newest. A mark goes on the last content part of a system,
   * developer, user or tool message (a string content becomes one text part); an assistant message
   * takes none, so the nearest message before it is marked instead. `true` leaves each mark's TTL to
   * the request's `prompt_cache_options.ttl` (30 minutes by default); `{ ttl: '12h' }` asks for longer.
   * Under the default `prompt_cache_options.mode: 'implicit'` OpenAI adds its own breakpoint and
   * writes the latest three marks; with `mode: 'explicit'` it writes all four. Price such a model
   * with `OPENAI_EXPLICIT_CACHE`.
   * @default false
   */
  cacheBreakpoints?: boolean | { ttl?: '30m' | '12h' } | undefined;
}

/**
 * What {@link toOpenAIChat} returns.
 *
 * @example
 * ```ts
 * const { messages, warnings }: ToOpenAIChatResult = toOpenAIChat({ messages: prepared });
 * ```
 */
export interface ToOpenAIChatResult {
  /** The request's `messages`, ready for `client.chat.completions.create`. */
  messages: OpenAIChatMessage[];
  /**
   * One warning per thing Chat Completions cannot carry (thinking, images in tool results): the
   * index of the ctxkit message and a sentence; empty when none.
   */
  warnings: ConversionWarning[];
}

/**
 * Converts ctxkit messages and a system prompt into a Chat Completions message list (assignable to the
 * `openai` SDK's `ChatCompletionMessageParam[]`), the inverse of {@link fromOpenAIChat}:
 * `toOpenAIChat(fromOpenAIChat(x))` deep-equals `x`.
 *
 * Tool calls get JSON-string arguments (the wire's own text while the arguments are unchanged), tool
 * results become `tool` messages, base64 images become `data:` URLs. What Chat Completions cannot carry
 * is left out with a warning: thinking (the API returns none to send back) and images in tool results
 * (sent as a short text). Send the output of `prepareModelMessages` (or the manager's `prepare`) so
 * every tool call is answered by exactly one result right after it.
 *
 * @param conversation - The system prompt and the messages to send.
 * @param options - The role for a new system prompt, and the prompt-cache breakpoints to place.
 * @returns The wire messages and the warnings.
 * @throws `ContextError` with code `INPUT_INVALID` when a message does not fit ctxkit's message
 * model (the index and field are named), or `cacheBreakpoints` is not `true`, `false` or `{ ttl }`.
 *
 * @example
 * ```ts
 * const { messages } = toOpenAIChat({ systemPrompt: 'Be terse.', messages: prepared });
 * const completion = await client.chat.completions.create({ model: 'gpt-4o', messages });
 * ```
 */
export function toOpenAIChat(
  conversation: OpenAIChatConversation,
  options: ToOpenAIChatOptions = {},
): ToOpenAIChatResult {
  expectObject(conversation, WHERE, 'conversation', ' Pass { systemPrompt?, messages }.');
  assertMessages(conversation.messages, WHERE);
  const warnings: ConversionWarning[] = [];
  // The sentences about the message being written, filed under its index once it is written.
  const notes: string[] = [];
  const mark = breakpointOf(WHERE, options.cacheBreakpoints);
  const output: OpenAIChatMessage[] = system(conversation, options);
  const systemEnd = output.length - 1;
  const last = conversation.messages.length - 1;
  let stable: number | undefined;
  conversation.messages.forEach((message, index) => {
    const path = `messages[${index}]`;
    switch (message.role) {
      case 'user':
        output.push(userMessage(message, path, notes));
        break;
      case 'assistant': {
        const wire = assistantMessage(message, path, notes);
        if (wire) output.push(wire);
        break;
      }
      case 'toolResult':
        output.push(toolMessage(message, path, notes));
        break;
    }
    for (const note of notes.splice(0)) warnings.push({ index, message: note });
    if (index < last - 1 && isStableMessage(message) && output.length > 0) stable = output.length - 1;
  });
  if (mark) placeCacheBreakpoints(output, { system: systemEnd >= 0 ? systemEnd : undefined, stable }, mark, CHAT_ITEMS);
  return { messages: output, warnings };
}

function system(conversation: OpenAIChatConversation, options: ToOpenAIChatOptions): OpenAIChatMessage[] {
  const { systemPrompt } = conversation;
  if (systemPrompt === undefined) return [];
  const kept = readData<ChatConversationData>(conversation.providerData, 'chat')?.system;
  if (Array.isArray(kept) && kept.map((message) => instructionText(message.content)).join('\n\n') === systemPrompt) {
    return [...kept];
  }
  // An empty system message is rejected, and says nothing.
  return systemPrompt === '' ? [] : [{ role: options.systemRole ?? 'system', content: systemPrompt }];
}

// ctxkit messages as Chat Completions messages, for toOpenAIChat: what `providerData.openai.chat`
// carried is restored, and what the API would reject is dropped or rewritten with a warning.

function partData(part: { providerData?: Record<string, unknown> }): ChatPartData {
  return readData<ChatPartData>(part.providerData, 'chat') ?? {};
}

function textPart(part: TextContent): OpenAIChatTextPart {
  return { ...partData(part).fields, type: 'text', text: part.text };
}

function userPart(part: TextContent | ImageContent): OpenAIChatUserPart {
  const data = partData(part);
  if (data.raw) return data.raw as unknown as OpenAIChatUserPart;
  if (part.type === 'text') return textPart(part);
  return { ...data.fields, type: 'image_url', image_url: { ...data.image, url: imageUrl(part, data.opaque) } };
}

/** Text-only parts for a message that cannot carry images. */
function textOnly(
  parts: readonly (TextContent | ImageContent)[],
  path: string,
  warnings: string[],
): OpenAIChatTextPart[] {
  return parts.map((part, index) => {
    const raw = partData(part).raw;
    if (raw) return raw as unknown as OpenAIChatTextPart;
    if (part.type === 'text') return textPart(part);
    warnings.push(
      `${path}.content[${index}] is an image, which this message cannot carry in Chat Completions; a short text is sent instead.`,
    );
    return { type: 'text', text: `[image: ${part.mimeType}]` };
  });
}

function isPlainText(parts: readonly (TextContent | ImageContent)[]): parts is [TextContent] {
  return parts.length === 1 && parts[0]!.type === 'text' && parts[0]!.providerData === undefined;
}

/** A user message (or a system, developer or function message sent back with its own role). @internal */
function userMessage(message: UserMessage, path: string, warnings: string[]): OpenAIChatMessage {
  const data = readData<ChatMessageData>(message.providerData, 'chat') ?? {};
  const { content } = message;
  if (data.role === 'function') {
    const text =
      typeof content === 'string' ? content : content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    return {
      ...data.fields,
      role: 'function',
      name: String(data.fields?.name ?? ''),
      content: data.content === 'null' && text === '' ? null : text,
    };
  }
  if (data.role === 'system' || data.role === 'developer') {
    return {
      ...data.fields,
      role: data.role,
      content: typeof content === 'string' ? content : textOnly(content, path, warnings),
    };
  }
  return { ...data.fields, role: 'user', content: typeof content === 'string' ? content : content.map(userPart) };
}

/**
 * An assistant message as the wire message, or `undefined` when only thinking was in it (Chat
 * Completions rejects an empty one).
 *
 * @internal
 */
function assistantMessage(
  message: AssistantMessage,
  path: string,
  warnings: string[],
): OpenAIChatAssistantMessage | undefined {
  const data = readData<ChatMessageData>(message.providerData, 'chat') ?? {};
  const texts: TextContent[] = [];
  const calls: OpenAIChatToolCall[] = [];
  let refusal: string | undefined;
  message.content.forEach((part, index) => {
    switch (part.type) {
      case 'text':
        if (partData(part).refusal === 'field') refusal = part.text;
        else texts.push(part);
        return;
      case 'thinking':
        warnings.push(
          `${path}.content[${index}] is thinking, which Chat Completions does not take back; it is left out.`,
        );
        return;
      case 'toolCall':
        calls.push(toolCall(part));
        return;
    }
  });
  const wire: OpenAIChatAssistantMessage = { ...data.fields, role: 'assistant' };
  if (data.content === 'parts') wire.content = texts.map(assistantPart);
  else if (texts.length === 0) {
    if (data.content !== 'absent') wire.content = null;
  } else wire.content = isPlainText(texts) ? texts[0].text : texts.map(assistantPart);
  if (refusal !== undefined) wire.refusal = refusal;
  if (calls.length > 0) wire.tool_calls = calls;
  const onlyThinking = message.content.length > 0 && message.content.every((part) => part.type === 'thinking');
  if (onlyThinking && data.fields === undefined) {
    warnings.push(`${path} had only thinking, so nothing of it is sent.`);
    return undefined;
  }
  return wire;
}

function assistantPart(part: TextContent): OpenAIChatTextPart | OpenAIChatRefusalPart {
  const data = partData(part);
  if (data.raw) return data.raw as unknown as OpenAIChatTextPart;
  if (data.refusal === 'part') return { ...data.fields, type: 'refusal', refusal: part.text };
  return textPart(part);
}

function toolCall(call: ToolCall): OpenAIChatToolCall {
  const data = partData(call);
  if (data.custom) {
    const input = call.arguments.input;
    return {
      ...data.fields,
      id: call.id,
      type: 'custom',
      custom: {
        ...data.function,
        name: call.name,
        input: typeof input === 'string' ? input : JSON.stringify(call.arguments),
      },
    };
  }
  return {
    ...data.fields,
    id: call.id,
    type: 'function',
    function: { ...data.function, name: call.name, arguments: printArguments(call, data.arguments) },
  };
}

/** A tool result as a `tool` message. @internal */
function toolMessage(message: ToolResultMessage, path: string, warnings: string[]): OpenAIChatMessage {
  const data = readData<ChatMessageData>(message.providerData, 'chat') ?? {};
  const content =
    data.content !== 'parts' && isPlainText(message.content)
      ? message.content[0].text
      : textOnly(message.content, path, warnings);
  return { ...data.fields, role: 'tool', tool_call_id: message.toolCallId, content };
}
