import type {
  AssistantMessage,
  ImageContent,
  Message,
  StopReason,
  TextContent,
  ThinkingContent,
  ToolCall,
  ToolResultMessage,
  UserMessage,
} from '../types.js';
import { fromLangChainUsage } from './from-langchain-usage.js';
import {
  invalid,
  isObject,
  type MessageData,
  messageTypeOf,
  otherFields,
  type WireObject,
  withData,
} from './internal/langchain-data.js';
import type { ConversionWarning, LangChainMessage, LangChainUsageMetadata } from './message-types.js';

const WHERE = 'fromLangChainMessages';

/**
 * What {@link fromLangChainMessages} returns.
 *
 * @example
 * ```ts
 * const { systemPrompt, system, messages, warnings }: FromLangChainMessagesResult = fromLangChainMessages(history);
 * ```
 */
export interface FromLangChainMessagesResult {
  /** The text of the leading system messages, joined by a blank line (absent when there are none). */
  systemPrompt?: string;
  /** The leading system messages themselves, to send unchanged ahead of the converted messages. */
  system: LangChainMessage[];
  /** The rest, as ctxkit messages. */
  messages: Message[];
  /** What could not be carried as it was. */
  warnings: ConversionWarning[];
}

/**
 * Converts LangChain messages (`BaseMessage[]` or message-likes) into ctxkit messages.
 *
 * - Leading `SystemMessage`s become `systemPrompt` (and stay in `system` as they were); a system or
 *   developer message later in the list becomes a user message that is written back with its type.
 * - `HumanMessage` → a user message; text blocks → text; `image_url` and v1 `image` blocks → images
 *   (a base64 `data:` URL becomes data and a MIME type); other blocks (audio, files…) → a short
 *   placeholder text that ctxkit counts, with the block carried verbatim.
 * - `AIMessage` → an assistant message: text, `thinking` / `reasoning` blocks as thinking (with the
 *   signature), `tool_calls` as tool calls; `usage_metadata` → `usage` (see
 *   {@link fromLangChainUsage}); `response_metadata.finish_reason` / `stop_reason` → `stopReason`.
 * - `ToolMessage` → a tool result named after its call (`status: 'error'` → `isError`).
 * - Whatever ctxkit does not model (`id`, `name`, `additional_kwargs`, `response_metadata`,
 *   `usage_metadata`, `invalid_tool_calls`, `artifact`, block fields, unknown message types) goes to
 *   `providerData.langchain`, so {@link toLangChainMessages} rebuilds each message field for field.
 *
 * @param messages - The conversation, as LangChain holds it (an agent's `state.messages`).
 * @returns The system prompt, the leading system messages, the messages and the warnings.
 * @throws `ContextError` with code `INPUT_INVALID` when the input is not a list of messages or a
 * `ToolMessage` has no `tool_call_id` (the index and field are named).
 *
 * @example
 * ```ts
 * const { systemPrompt, messages } = fromLangChainMessages(state.messages);
 * const { messages: prepared } = await manager.prepare(messages);
 * const reply = await model.invoke(toLangChainMessages({ systemPrompt, messages: prepared }).messages);
 * ```
 */
export function fromLangChainMessages(messages: readonly LangChainMessage[]): FromLangChainMessagesResult {
  if (!Array.isArray(messages)) invalid(WHERE, 'messages', 'must be an array of LangChain messages');
  const warnings: ConversionWarning[] = [];
  const system: LangChainMessage[] = [];
  const texts: string[] = [];
  let index = 0;
  for (; index < messages.length; index++) {
    const message = messages[index] as unknown;
    if (!isObject(message) || messageTypeOf(message) !== 'system') break;
    const text = plainText(message.content);
    if (text === undefined) break;
    system.push(message as unknown as LangChainMessage);
    texts.push(text);
  }
  const reader = new MessageReader(warnings);
  const output: Message[] = [];
  for (; index < messages.length; index++) output.push(reader.read(messages[index], index));
  return {
    ...(texts.length > 0 ? { systemPrompt: texts.join('\n\n') } : {}),
    system,
    messages: output,
    warnings,
  };
}

/** The text of string content or of text-only blocks, else undefined. */
function plainText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  let text = '';
  for (const block of content) {
    if (typeof block === 'string') text += block;
    else if (isObject(block) && block.type === 'text' && typeof block.text === 'string') text += block.text;
    else return undefined;
  }
  return text;
}

/**
 * Reads messages one by one, remembering each tool call's name for the results that answer it (a
 * `ToolMessage` need not repeat its tool's name). One reader per conversion. @internal
 */
export class MessageReader {
  private readonly toolNames = new Map<string, string>();

  constructor(private readonly warnings: ConversionWarning[]) {}

  /** One message as a ctxkit message; `index` is its place in the input, for errors and warnings. */
  read(value: unknown, index: number): Message {
    const path = `messages[${index}]`;
    if (!isObject(value)) invalid(WHERE, path, 'must be a LangChain message (an object)');
    const type = messageTypeOf(value);
    switch (type) {
      case 'human':
        return this.user(value, index, undefined);
      case 'system':
      case 'developer':
        return this.user(value, index, type);
      case 'ai':
        return this.assistant(value, index);
      case 'tool':
        return this.toolResult(value, index);
      default: {
        this.warnings.push({
          index,
          message: `${path} is a ${String(type ?? 'message without a type')}; ctxkit carries it verbatim as a short user placeholder.`,
        });
        const raw = otherFields(value, []) ?? {};
        return { role: 'user', content: `[${String(type ?? 'unknown')} message]`, ...withData({ raw }) };
      }
    }
  }

  private user(message: WireObject, index: number, type: string | undefined): UserMessage {
    const path = `messages[${index}]`;
    const data: MessageData = { type, fields: otherFields(message, ['type', 'role', 'content']) };
    if (typeof message.content === 'string') return { role: 'user', content: message.content, ...withData(data) };
    data.blocks = true;
    const content = this.blocks(message.content, `${path}.content`, index);
    return { role: 'user', content, ...withData(data) };
  }

  private blocks(content: unknown, path: string, index: number): (TextContent | ImageContent)[] {
    if (!Array.isArray(content)) invalid(WHERE, path, 'must be a string or an array of content blocks');
    return content.map((block, position) => {
      if (typeof block === 'string') return { type: 'text', text: block, ...withData({ string: true }) };
      if (!isObject(block)) invalid(WHERE, `${path}[${position}]`, 'must be a content block (an object)');
      return this.block(block, `${path}[${position}]`, index);
    });
  }

  private block(block: WireObject, path: string, index: number): TextContent | ImageContent {
    if (block.type === 'text') {
      if (typeof block.text !== 'string') invalid(WHERE, `${path}.text`, 'must be a string');
      const extra = otherFields(block, ['type', 'text']);
      return { type: 'text', text: block.text, ...withData({ raw: extra ? block : undefined }) };
    }
    const image = imageOf(block);
    if (image) return { type: 'image', ...image, ...withData({ raw: { ...block } }) };
    this.warnings.push({
      index,
      message: `${path} is a ${String(block.type)} block; ctxkit carries it verbatim and counts it as a short placeholder.`,
    });
    return placeholder(`${String(block.type)} block`, block);
  }

  private assistant(message: WireObject, index: number): AssistantMessage {
    const path = `messages[${index}]`;
    const data: MessageData = { fields: otherFields(message, ['type', 'role', 'content', 'tool_calls']) };
    const content: AssistantMessage['content'] = [];
    if (typeof message.content === 'string') {
      if (message.content.length > 0) content.push({ type: 'text', text: message.content });
    } else {
      data.blocks = true;
      if (!Array.isArray(message.content)) invalid(WHERE, `${path}.content`, 'must be a string or an array of blocks');
      message.content.forEach((block, position) => {
        content.push(this.assistantBlock(block, `${path}.content[${position}]`, index));
      });
    }
    const calls = message.tool_calls;
    if (calls !== undefined && !Array.isArray(calls)) invalid(WHERE, `${path}.tool_calls`, 'must be an array');
    (calls ?? []).forEach((call: unknown, position: number) => {
      content.push(this.toolCall(call, `${path}.tool_calls[${position}]`, index, position));
    });
    const result: AssistantMessage = { role: 'assistant', content, ...withData(data) };
    const usage = message.usage_metadata;
    if (isObject(usage)) {
      try {
        result.usage = fromLangChainUsage(usage as unknown as LangChainUsageMetadata);
      } catch {
        this.warnings.push({ index, message: `${path}.usage_metadata is not a usage report; ctxkit ignores it.` });
      }
    }
    result.stopReason = stopReasonOf(message.response_metadata, content);
    const metadata = isObject(message.response_metadata) ? message.response_metadata : {};
    const model = metadata.model_name ?? metadata.model;
    if (typeof model === 'string') result.model = model;
    if (typeof metadata.model_provider === 'string') result.provider = metadata.model_provider;
    return result;
  }

  private assistantBlock(block: unknown, path: string, index: number): TextContent | ThinkingContent {
    if (typeof block === 'string') return { type: 'text', text: block, ...withData({ string: true }) };
    if (!isObject(block)) invalid(WHERE, path, 'must be a content block (an object)');
    switch (block.type) {
      case 'text': {
        if (typeof block.text !== 'string') invalid(WHERE, `${path}.text`, 'must be a string');
        const extra = otherFields(block, ['type', 'text']);
        return { type: 'text', text: block.text, ...withData({ raw: extra ? block : undefined }) };
      }
      case 'thinking':
        if (typeof block.thinking === 'string') {
          const signature = typeof block.signature === 'string' ? { signature: block.signature } : {};
          return { type: 'thinking', thinking: block.thinking, ...signature, ...withData({ raw: { ...block } }) };
        }
        break;
      case 'reasoning':
        if (typeof block.reasoning === 'string') {
          return { type: 'thinking', thinking: block.reasoning, ...withData({ raw: { ...block } }) };
        }
        break;
    }
    // tool_use blocks repeat tool_calls; other provider blocks are carried whole.
    if (block.type !== 'tool_use') {
      this.warnings.push({
        index,
        message: `${path} is a ${String(block.type)} block; ctxkit carries it verbatim and counts it as a short placeholder.`,
      });
    }
    return placeholder(`${String(block.type)} block`, block);
  }

  private toolCall(value: unknown, path: string, index: number, position: number): ToolCall {
    if (!isObject(value)) invalid(WHERE, path, 'must be a tool call (an object)');
    if (typeof value.name !== 'string') invalid(WHERE, `${path}.name`, 'must be a string');
    const args = value.args ?? {};
    if (!isObject(args)) invalid(WHERE, `${path}.args`, 'must be an object');
    let id = value.id;
    let idAbsent: true | undefined;
    if (typeof id !== 'string' || id.length === 0) {
      id = `lc_call_${index}_${position}`;
      idAbsent = true;
      this.warnings.push({
        index,
        message: `${path} has no id; ctxkit named it ${id} and writes it back without one.`,
      });
    }
    this.toolNames.set(id as string, value.name);
    return {
      type: 'toolCall',
      id: id as string,
      name: value.name,
      arguments: args,
      ...withData({ fields: otherFields(value, ['id', 'name', 'args']), idAbsent }),
    };
  }

  private toolResult(message: WireObject, index: number): ToolResultMessage {
    const path = `messages[${index}]`;
    const id = message.tool_call_id;
    if (typeof id !== 'string' || id.length === 0) invalid(WHERE, `${path}.tool_call_id`, 'must be a non-empty string');
    const data: MessageData = { fields: otherFields(message, ['type', 'role', 'content', 'tool_call_id']) };
    let content: (TextContent | ImageContent)[];
    if (typeof message.content === 'string') content = [{ type: 'text', text: message.content }];
    else {
      data.blocks = true;
      content = this.blocks(message.content, `${path}.content`, index);
    }
    const name = typeof message.name === 'string' ? message.name : (this.toolNames.get(id) ?? '');
    return {
      role: 'toolResult',
      toolCallId: id,
      toolName: name,
      content,
      ...(message.status === 'error' ? { isError: true } : {}),
      ...withData(data),
    };
  }
}

/** A text part standing in for a block ctxkit does not model, which it carries verbatim. */
function placeholder(label: string, block: WireObject): TextContent {
  return { type: 'text', text: `[${label}]`, ...withData({ raw: { ...block }, placeholder: true }) };
}

const DATA_URL = /^data:([^;,:]+);base64,([^:]*)$/;

/** An image block's data (base64 or URL) and MIME type, or undefined for any other block. */
function imageOf(block: WireObject): Pick<ImageContent, 'data' | 'mimeType'> | undefined {
  let url: unknown;
  if (block.type === 'image_url') url = isObject(block.image_url) ? block.image_url.url : block.image_url;
  else if (block.type === 'image') {
    const mime = block.mimeType ?? block.mime_type;
    if (typeof block.data === 'string' && (block.source_type ?? 'base64') === 'base64') {
      return { data: block.data, mimeType: typeof mime === 'string' ? mime : 'image/*' };
    }
    url = block.url;
  } else return undefined;
  if (typeof url !== 'string') return undefined;
  const match = DATA_URL.exec(url);
  return match ? { data: match[2]!, mimeType: match[1]! } : { data: url, mimeType: 'image/*' };
}

/** The stop reason a message's metadata reports, tool calls first. */
function stopReasonOf(metadata: unknown, content: AssistantMessage['content']): StopReason {
  if (content.some((part) => part.type === 'toolCall')) return 'toolUse';
  const reason = isObject(metadata) ? (metadata.finish_reason ?? metadata.stop_reason) : undefined;
  return reason === 'length' || reason === 'max_tokens' ? 'length' : 'stop';
}
