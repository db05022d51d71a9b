import type { AssistantMessage, ImageContent, Message, TextContent, ToolResultMessage, UserMessage } from '../types.js';
import { invalid, type MessageData, type PartData, readData } from './internal/langchain-data.js';
import type { LangChainContentBlock, LangChainMessageFields, LangChainToolCall } from './message-types.js';

const WHERE = 'toLangChainMessages';

/**
 * Options of {@link toLangChainMessages}.
 *
 * @example
 * ```ts
 * const options: ToLangChainMessagesOptions = { systemPrompt: 'Be terse.', messages };
 * ```
 */
export interface ToLangChainMessagesOptions {
  /** Written as a leading system message when given. */
  systemPrompt?: string;
  /** ctxkit messages (a manager's prepared projection, or a history). */
  messages: readonly Message[];
}

/**
 * What {@link toLangChainMessages} returns.
 *
 * @example
 * ```ts
 * const { messages }: ToLangChainMessagesResult = toLangChainMessages({ messages: prepared });
 * ```
 */
export interface ToLangChainMessagesResult {
  /** Message-likes every LangChain API that takes `BaseMessageLike` accepts. */
  messages: LangChainMessageFields[];
}

/**
 * Converts ctxkit messages into LangChain message-likes (`{ type: 'human' | 'ai' | 'tool' | 'system', … }`),
 * which `model.invoke`, `agent.invoke({ messages })` and every API taking `BaseMessageLike` turn into
 * `HumanMessage`, `AIMessage`, `ToolMessage` and `SystemMessage`.
 *
 * A message read by {@link fromLangChainMessages} is rebuilt from what it carried (its fields, its
 * blocks, its tool calls' fields), so constructing `toLangChainMessages(fromLangChainMessages(x))`
 * gives messages equal to `x` field for field; a message ctxkit wrote (a summary, an archived tool
 * result) is written plainly. Images without a carried block become `image_url` blocks (base64 as a
 * `data:` URL). ctxkit's own marks on summaries (`meta`) do not survive the conversion.
 *
 * @param options - The system prompt and the messages.
 * @returns The message-likes.
 * @throws `ContextError` with code `INPUT_INVALID` when `messages` is not an array of ctxkit messages.
 *
 * @example
 * ```ts
 * const { messages: prepared } = await manager.prepare(history);
 * const reply = await model.invoke(toLangChainMessages({ systemPrompt, messages: prepared }).messages);
 * ```
 */
export function toLangChainMessages(options: ToLangChainMessagesOptions): ToLangChainMessagesResult {
  const messages = options?.messages;
  if (!Array.isArray(messages)) invalid(WHERE, 'messages', 'must be an array of ctxkit messages');
  const output: LangChainMessageFields[] = [];
  if (options.systemPrompt) output.push({ type: 'system', content: options.systemPrompt });
  messages.forEach((message: Message, index: number) => {
    output.push(writeMessage(message, index));
  });
  return { messages: output };
}

/** One ctxkit message as a LangChain message-like. @internal */
export function writeMessage(message: Message, index: number): LangChainMessageFields {
  switch (message?.role) {
    case 'user':
      return writeUser(message);
    case 'assistant':
      return writeAssistant(message);
    case 'toolResult':
      return writeToolResult(message);
    default:
      return invalid(WHERE, `messages[${index}].role`, "must be 'user', 'assistant' or 'toolResult'");
  }
}

function writeUser(message: UserMessage): LangChainMessageFields {
  const data = readData<MessageData>(message.providerData);
  if (data?.raw) return { ...data.raw } as LangChainMessageFields;
  const type = (data?.type ?? 'human') as LangChainMessageFields['type'];
  const content =
    typeof message.content === 'string'
      ? message.content
      : spell(
          message.content.map((part) => writePart(part)),
          data?.blocks === true,
        );
  return { ...data?.fields, type, content };
}

function writeAssistant(message: AssistantMessage): LangChainMessageFields {
  const data = readData<MessageData>(message.providerData);
  const blocks: (LangChainContentBlock | string)[] = [];
  const toolCalls: LangChainToolCall[] = [];
  for (const part of message.content) {
    if (part.type === 'toolCall') {
      const call = readData<PartData>(part.providerData);
      toolCalls.push({
        ...call?.fields,
        ...(call?.idAbsent ? {} : { id: part.id }),
        name: part.name,
        args: part.arguments,
      } as LangChainToolCall);
    } else if (part.type === 'thinking') {
      const raw = readData<PartData>(part.providerData)?.raw;
      blocks.push(
        raw && (raw.thinking === part.thinking || raw.reasoning === part.thinking)
          ? ({ ...raw } as LangChainContentBlock)
          : { type: 'thinking', thinking: part.thinking, ...(part.signature ? { signature: part.signature } : {}) },
      );
    } else blocks.push(writePart(part));
  }
  return { ...data?.fields, type: 'ai', content: spell(blocks, data?.blocks === true), tool_calls: toolCalls };
}

function writeToolResult(message: ToolResultMessage): LangChainMessageFields {
  const data = readData<MessageData>(message.providerData);
  const content = spell(
    message.content.map((part) => writePart(part)),
    data?.blocks === true,
  );
  const fields = data?.fields ?? { name: message.toolName };
  const status = message.isError ? { status: 'error' as const } : {};
  return { ...fields, ...status, type: 'tool', tool_call_id: message.toolCallId, content };
}

/** One part as a block (or the bare string it was). */
function writePart(part: TextContent | ImageContent): LangChainContentBlock | string {
  const data = readData<PartData>(part.providerData);
  if (part.type === 'text') {
    if (data?.string) return part.text;
    if (data?.placeholder && data.raw) return { ...data.raw } as LangChainContentBlock;
    if (data?.raw) return { ...data.raw, type: 'text', text: part.text };
    return { type: 'text', text: part.text };
  }
  if (data?.raw) return { ...data.raw } as LangChainContentBlock;
  const url = part.data.includes(':') ? part.data : `data:${part.mimeType};base64,${part.data}`;
  return { type: 'image_url', image_url: { url } };
}

/**
 * Content as the message spelled it: blocks when it came as blocks (or holds more than text), else
 * the text as one string.
 */
function spell(blocks: (LangChainContentBlock | string)[], asBlocks: boolean): string | LangChainContentBlock[] {
  const plain = blocks.every(
    (block) => typeof block === 'string' || (block.type === 'text' && Object.keys(block).length === 2),
  );
  // (a bare string block is what the message held; LangChain's content arrays allow it)
  if (asBlocks || !plain) return blocks as LangChainContentBlock[];
  return blocks.map((block) => (typeof block === 'string' ? block : (block.text as string))).join('\n');
}
