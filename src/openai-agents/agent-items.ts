import { ContextError } from '../errors.js';
import { sameStructure } from '../internal/same-structure.js';
import type {
  AssistantMessage,
  ImageContent,
  Message,
  ProviderData,
  TextContent,
  ToolResultMessage,
  UserMessage,
} from '../types.js';
import { assertMessages } from '../validation/assert-messages.js';
import type { AgentItem, ConversionWarning } from './item-types.js';

// The Agents SDK's items as ctxkit messages and back. Each message or part keeps the item it came
// from under `providerData['openai-agents']`; the way back sends that item itself whenever ctxkit
// left what it modelled of it alone, and writes a new item only for what ctxkit changed or made.

const KEY = 'openai-agents';

/** `providerData['openai-agents']` of a message or part. */
interface ItemData {
  /** The item the message or part came from. */
  item: AgentItem;
  /** The part's place in an assistant message item's content (the first part sends the item). */
  part?: number;
}

/**
 * What {@link fromAgentItems} returns.
 *
 * @example
 * ```ts
 * const { messages, warnings }: FromAgentItemsResult = fromAgentItems(items);
 * ```
 */
export interface FromAgentItemsResult {
  messages: Message[];
  warnings: ConversionWarning[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(where: string, path: string, problem: string): never {
  throw new ContextError({ message: `${where}: ${path} ${problem}.`, code: 'INPUT_INVALID' });
}

function withItem(item: AgentItem, part?: number): { providerData: ProviderData } {
  return { providerData: { [KEY]: part === undefined ? { item } : { item, part } } };
}

function readItem(providerData: ProviderData | undefined): ItemData | undefined {
  const data = providerData?.[KEY];
  return isObject(data) && isObject(data.item) ? (data as unknown as ItemData) : undefined;
}

const DATA_URL = /^data:([^;,:]+);base64,([^:]*)$/;

function image(url: string): Pick<ImageContent, 'data' | 'mimeType'> {
  const match = DATA_URL.exec(url);
  return match ? { data: match[2]!, mimeType: match[1]! } : { data: url, mimeType: 'image/*' };
}

/** User or tool-output content as ctxkit parts. */
function inputParts(content: readonly unknown[], path: string, where: string): (TextContent | ImageContent)[] {
  return content.map((part, index) => {
    if (!isObject(part)) invalid(where, `${path}[${index}]`, 'must be an object');
    if ((part.type === 'input_text' || part.type === 'text') && typeof part.text === 'string') {
      return { type: 'text', text: part.text };
    }
    if ((part.type === 'input_image' || part.type === 'image') && typeof part.image === 'string') {
      return { type: 'image', ...image(part.image) };
    }
    return { type: 'text', text: `[${String(part.type)}]` };
  });
}

/**
 * Converts Agents SDK items (`AgentInputItem[]`: a session's history, a model call's input) into
 * ctxkit messages. User and system messages become user messages, function call results tool
 * results; the assistant items between them (messages, function calls, reasoning, hosted tool calls)
 * become one assistant message, so each tool call is followed by its result as ctxkit requires.
 * Every message and part keeps its item, so {@link toAgentItems} gives back the same items.
 *
 * @param items - The items.
 * @returns The messages and warnings (one per item ctxkit carries without seeing inside).
 * @throws `ContextError` with code `INPUT_INVALID` when `items` is not an array of items, naming the index.
 *
 * @example
 * ```ts
 * const { messages } = fromAgentItems(await session.getItems());
 * const { messages: prepared } = await manager.prepare(messages);
 * const input = toAgentItems(prepared);
 * ```
 */
export function fromAgentItems(items: readonly AgentItem[]): FromAgentItemsResult {
  const where = 'fromAgentItems';
  if (!Array.isArray(items)) invalid(where, 'items', 'must be an array of Agents SDK items');
  const messages: Message[] = [];
  const warnings: ConversionWarning[] = [];
  let assistant: AssistantMessage | undefined;
  const flush = () => {
    if (assistant) messages.push(assistant);
    assistant = undefined;
  };
  const group = (): AssistantMessage => {
    assistant ??= { role: 'assistant', content: [], stopReason: 'stop' };
    return assistant;
  };
  items.forEach((value, index) => {
    const path = `items[${index}]`;
    if (!isObject(value)) invalid(where, path, 'must be an object');
    const item = value as AgentItem;
    if (item.role === 'user' || item.role === 'system') {
      flush();
      const content =
        typeof item.content === 'string'
          ? item.content
          : Array.isArray(item.content)
            ? inputParts(item.content, `${path}.content`, where)
            : invalid(where, `${path}.content`, 'must be a string or an array');
      messages.push({ role: 'user', content, ...withItem(item) } as UserMessage);
      return;
    }
    if (item.role === 'assistant') {
      const message = group();
      const content = Array.isArray(item.content) ? item.content : [];
      if (content.length === 0)
        message.content.push({ type: 'text', text: '[assistant message]', ...withItem(item, 0) });
      content.forEach((part, position) => {
        const text = isObject(part) ? (part.type === 'output_text' ? part.text : part.refusal) : undefined;
        message.content.push({
          type: 'text',
          text: typeof text === 'string' ? text : `[${String(isObject(part) ? part.type : 'part')}]`,
          ...withItem(item, position),
        });
      });
      return;
    }
    switch (item.type) {
      case 'function_call': {
        if (typeof item.callId !== 'string' || typeof item.name !== 'string') {
          invalid(where, path, 'must have a string callId and name');
        }
        let args: Record<string, unknown> = {};
        try {
          const parsed = JSON.parse(String(item.arguments ?? '{}')) as unknown;
          if (isObject(parsed)) args = parsed;
        } catch {
          warnings.push({
            index,
            message: `${path}.arguments is not JSON; ctxkit sees {} and sends the item as it was.`,
          });
        }
        const message = group();
        message.content.push({
          type: 'toolCall',
          id: item.callId,
          name: item.name,
          arguments: args,
          ...withItem(item),
        });
        message.stopReason = 'toolUse';
        return;
      }
      case 'reasoning': {
        const text = Array.isArray(item.content)
          ? item.content.map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : '')).join('\n')
          : '';
        group().content.push({
          type: 'thinking',
          thinking: text,
          ...(text.length === 0 ? { redacted: true } : {}),
          ...withItem(item),
        });
        return;
      }
      case 'function_call_result': {
        if (typeof item.callId !== 'string') invalid(where, `${path}.callId`, 'must be a string');
        flush();
        const output = item.output;
        const content: (TextContent | ImageContent)[] =
          typeof output === 'string'
            ? [{ type: 'text', text: output }]
            : Array.isArray(output)
              ? inputParts(output, `${path}.output`, where)
              : inputParts([output], `${path}.output`, where);
        const result: ToolResultMessage = {
          role: 'toolResult',
          toolCallId: item.callId,
          toolName: typeof item.name === 'string' ? item.name : '',
          content,
          ...withItem(item),
        };
        messages.push(result);
        return;
      }
      default:
        warnings.push({ index, message: `${path} is a ${String(item.type)} item; ctxkit carries it verbatim.` });
        group().content.push({ type: 'text', text: `[${String(item.type)}]`, ...withItem(item) });
    }
  });
  flush();
  return { messages, warnings };
}

/** Whether a message still says what its item says (ctxkit did not truncate, archive or rewrite it). */
function sameAsItem(message: Message, item: AgentItem): boolean {
  const [read] = fromAgentItems([item]).messages;
  return (
    read !== undefined && read.role === message.role && sameStructure(read.content, message.content, 'providerData')
  );
}

/** ctxkit parts as an input item's content. */
function writeParts(parts: readonly (TextContent | ImageContent)[]): unknown[] {
  return parts.map((part) =>
    part.type === 'text'
      ? { type: 'input_text', text: part.text }
      : {
          type: 'input_image',
          image: part.data.includes(':') ? part.data : `data:${part.mimeType};base64,${part.data}`,
        },
  );
}

/**
 * Converts ctxkit messages into Agents SDK items: a message read by {@link fromAgentItems} that
 * ctxkit left alone becomes its own items again; what ctxkit changed (a truncated or archived tool
 * result, a renamed call id) or wrote (a compaction summary) becomes a new item of the same kind.
 *
 * `Item` is the SDK's item type the host hands the items to (`toAgentItems<AgentInputItem>(…)` for
 * `run(agent, input)`), as with `createAgentsSession<Item>`: ctxkit declares the items structurally,
 * so it cannot name the SDK's type itself; the items it writes are that type's `message`,
 * `function_call` and `function_call_result` items, and the SDK's own items otherwise.
 *
 * @typeParam Item - The SDK's item type the items are handed to; `AgentItem` when not given.
 * @param messages - ctxkit messages (a manager's prepared projection, or a history).
 * @returns The items.
 * @throws `ContextError` with code `INPUT_INVALID` when a message has no role ctxkit knows.
 *
 * @example
 * ```ts
 * import type { AgentInputItem } from '@openai/agents';
 *
 * const { messages } = await manager.prepare(fromAgentItems(items).messages);
 * const input = toAgentItems<AgentInputItem>(messages);
 * await run(agent, input);
 * ```
 */
export function toAgentItems<Item extends object = AgentItem>(messages: readonly Message[]): Item[] {
  return writeAgentItems(messages) as Item[];
}

/** {@link toAgentItems} for ctxkit's own structural items. */
function writeAgentItems(messages: readonly Message[]): AgentItem[] {
  assertMessages(messages, 'toAgentItems');
  const items: AgentItem[] = [];
  messages.forEach((message, index) => {
    const data = readItem(message.providerData);
    switch (message?.role) {
      case 'user': {
        if (data && sameAsItem(message, data.item)) {
          items.push(data.item);
          break;
        }
        const text =
          typeof message.content === 'string'
            ? message.content
            : message.content.every((part) => part.type === 'text')
              ? message.content.map((part) => (part as TextContent).text).join('\n')
              : undefined;
        if (data?.item.role === 'system') items.push({ ...data.item, content: text ?? '' });
        else
          items.push({ role: 'user', content: text ?? writeParts(message.content as (TextContent | ImageContent)[]) });
        break;
      }
      case 'toolResult': {
        if (data && sameAsItem(message, data.item)) {
          items.push(data.item);
          break;
        }
        const text = message.content.every((part) => part.type === 'text')
          ? message.content.map((part) => (part as TextContent).text).join('\n')
          : undefined;
        items.push({
          type: 'function_call_result',
          name: message.toolName,
          status: 'completed',
          ...data?.item,
          callId: message.toolCallId,
          output: text ?? writeParts(message.content),
        });
        break;
      }
      case 'assistant':
        for (const part of message.content) {
          const partData = readItem(part.providerData);
          if (partData) {
            if ((partData.part ?? 0) > 0) continue;
            if (part.type === 'toolCall' && partData.item.callId !== part.id)
              items.push({ ...partData.item, callId: part.id });
            else items.push(partData.item);
          } else if (part.type === 'text') {
            items.push({
              role: 'assistant',
              type: 'message',
              status: 'completed',
              content: [{ type: 'output_text', text: part.text }],
            });
          } else if (part.type === 'toolCall') {
            items.push({
              type: 'function_call',
              callId: part.id,
              name: part.name,
              arguments: JSON.stringify(part.arguments),
              status: 'completed',
            });
          } else {
            items.push({ type: 'reasoning', content: [{ type: 'input_text', text: part.thinking }] });
          }
        }
        break;
      default:
        invalid('toAgentItems', `messages[${index}].role`, "must be 'user', 'assistant' or 'toolResult'");
    }
  });
  return items;
}
