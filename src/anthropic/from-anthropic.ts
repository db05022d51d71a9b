import type {
  AssistantMessage,
  ImageContent,
  Message,
  ProviderData,
  TextContent,
  ToolResultMessage,
} from '../types.js';
import { unmodeledFields } from './internal/provider-data.js';
import { readAssistantBlock, readUserBlock } from './internal/read-blocks.js';
import { expectObject, expectString, invalid, type WireObject } from './internal/wire-object.js';
import type { AnthropicMessageInput, AnthropicTextBlockParam, ConversionWarning } from './types.js';

/**
 * The request side of a Messages API call: the `system` parameter and the `messages`.
 *
 * @example
 * ```ts
 * const input: FromAnthropicInput = { system: 'You are a coding agent.', messages: [{ role: 'user', content: 'hi' }] };
 * ```
 */
export interface FromAnthropicInput {
  /** The `system` parameter, a string or text blocks. */
  system?: string | readonly AnthropicTextBlockParam[] | undefined;
  /** The conversation, as the SDK's `MessageParam[]`. */
  messages: readonly AnthropicMessageInput[];
}

/**
 * What {@link fromAnthropic} returns.
 *
 * @example
 * ```ts
 * const { systemPrompt, messages, warnings } = fromAnthropic({ system, messages: params });
 * ```
 */
export interface FromAnthropicResult {
  /** The system prompt as text (text blocks joined by a blank line); pass it to the manager for counting. */
  systemPrompt?: string;
  /** ctxkit messages: one per turn, with each `tool_result` split out as its own `toolResult` message. */
  messages: Message[];
  /** What could not be carried exactly (a `tool_result` whose `tool_use` is not in the input). */
  warnings: ConversionWarning[];
  /** The system blocks, when `system` was an array (their `cache_control`); pass it back to `toAnthropic`. */
  providerData?: ProviderData;
}

const WHERE = 'fromAnthropic';

/** The message-level data `toAnthropic` reads back. */
interface MessageData {
  role?: 'system';
  content?: 'string' | 'absent' | 'empty';
  /** Unmodeled fields of the turn (on its first ctxkit message). */
  turn?: WireObject;
  /** Unmodeled fields of a `tool_result` block. */
  fields?: WireObject;
}

function messageProviderData(data: MessageData): { providerData?: ProviderData } {
  const entries = Object.entries(data).filter(([, value]) => value !== undefined);
  return entries.length === 0 ? {} : { providerData: { anthropic: Object.fromEntries(entries) } };
}

function readSystem(system: FromAnthropicInput['system']): Pick<FromAnthropicResult, 'systemPrompt' | 'providerData'> {
  if (system === undefined) return {};
  if (typeof system === 'string') return { systemPrompt: system };
  if (!Array.isArray(system)) invalid(WHERE, 'system', 'must be a string or an array of text blocks');
  const texts = system.map((value, index) => {
    const block = expectObject(value, WHERE, `system[${index}]`);
    if (block['type'] !== 'text') invalid(WHERE, `system[${index}].type`, "must be 'text'");
    return expectString(block, 'text', WHERE, `system[${index}]`);
  });
  return { systemPrompt: texts.join('\n\n'), providerData: { anthropic: { system } } };
}

function readToolResult(
  block: WireObject,
  path: string,
  toolNames: ReadonlyMap<string, string>,
  warn: (message: string) => void,
): ToolResultMessage {
  const toolCallId = expectString(block, 'tool_use_id', WHERE, path, true);
  const isError = block['is_error'];
  if (isError !== undefined && typeof isError !== 'boolean') invalid(WHERE, `${path}.is_error`, 'must be a boolean');
  const raw = block['content'];
  let content: (TextContent | ImageContent)[];
  let shape: MessageData['content'];
  if (raw === undefined) {
    content = [];
    shape = 'absent';
  } else if (typeof raw === 'string') {
    content = [{ type: 'text', text: raw }];
    shape = 'string';
  } else if (Array.isArray(raw)) {
    if (raw.length === 0) shape = 'empty';
    content = raw.map((value, index) => {
      const place = { where: WHERE, path: `${path}.content[${index}]` };
      const part = expectObject(value, WHERE, place.path);
      expectString(part, 'type', WHERE, place.path);
      return readUserBlock(part, place);
    });
  } else {
    invalid(WHERE, `${path}.content`, 'must be a string or an array of blocks');
  }
  const toolName = toolNames.get(toolCallId);
  if (toolName === undefined)
    warn(`the tool_result for ${toolCallId} answers no earlier tool_use; its tool name is empty`);
  return {
    role: 'toolResult',
    toolCallId,
    toolName: toolName ?? '',
    content,
    ...(isError === undefined ? {} : { isError }),
    ...messageProviderData({
      content: shape,
      fields: unmodeledFields(block, ['type', 'tool_use_id', 'content', 'is_error']),
    }),
  };
}

/** One user (or system) turn: its tool results split out, the other blocks kept in order between them. */
function readUserTurn(
  message: WireObject,
  index: number,
  toolNames: ReadonlyMap<string, string>,
  warn: (message: string) => void,
): Message[] {
  const role = message['role'] === 'system' ? 'system' : undefined;
  const content = message['content'];
  if (typeof content === 'string') return [{ role: 'user', content, ...messageProviderData({ role }) }];
  const out: Message[] = [];
  let parts: (TextContent | ImageContent)[] | undefined;
  const flush = () => {
    if (parts !== undefined) out.push({ role: 'user', content: parts, ...messageProviderData({ role }) });
    parts = undefined;
  };
  (content as unknown[]).forEach((value, position) => {
    const path = `messages[${index}].content[${position}]`;
    const block = expectObject(value, WHERE, path);
    const type = expectString(block, 'type', WHERE, path);
    if (type === 'tool_result') {
      flush();
      out.push(readToolResult(block, path, toolNames, warn));
    } else {
      parts ??= [];
      parts.push(readUserBlock(block, { where: WHERE, path }));
    }
  });
  if (parts !== undefined || out.length === 0) {
    parts ??= [];
    flush();
  }
  return out;
}

function readAssistantTurn(message: WireObject, index: number, toolNames: Map<string, string>): AssistantMessage {
  const content = message['content'];
  const parts =
    typeof content === 'string'
      ? [{ type: 'text' as const, text: content }]
      : (content as unknown[]).map((value, position) =>
          readAssistantBlock(value, { where: WHERE, path: `messages[${index}].content[${position}]` }),
        );
  for (const part of parts) if (part.type === 'toolCall') toolNames.set(part.id, part.name);
  return {
    role: 'assistant',
    content: parts,
    ...messageProviderData({ content: typeof content === 'string' ? 'string' : undefined }),
  };
}

/** Puts the turn's unmodeled fields on its first ctxkit message. */
function withTurnFields(message: Message, turn: WireObject | undefined): Message {
  if (turn === undefined) return message;
  const data = { ...(message.providerData?.['anthropic'] as WireObject | undefined), turn };
  return { ...message, providerData: { ...message.providerData, anthropic: data } } as Message;
}

/**
 * Converts a Messages API request (`system` and `messages`) to ctxkit messages.
 *
 * - A user turn becomes a `user` message, with each `tool_result` block split out as a `toolResult`
 *   message (its tool name taken from the `tool_use` it answers); `toAnthropic` merges them back into
 *   one user turn, results first, as the API requires.
 * - `thinking` keeps its `signature`; `redacted_thinking` becomes a thinking part with `redacted: true`
 *   and its data as the signature.
 * - Images with base64 or URL sources become image parts (`data` holds the base64 or the URL).
 * - Every field ctxkit does not model (`cache_control`, `citations`, `caller`, …) goes to
 *   `providerData.anthropic` of its part or message. Blocks ctxkit does not model (documents,
 *   search results, server-tool blocks, future blocks) become a text part describing them (a
 *   plain-text document keeps its text) that carries the block itself, so
 *   `toAnthropic(fromAnthropic(x))` deep-equals `x` for every valid request.
 *
 * @param input - The `system` parameter and the `messages` array, as sent to `client.messages.create`.
 * @returns The system prompt, the messages, warnings, and the system blocks when `system` was an array.
 * @throws `ContextError` `INPUT_INVALID` naming the index and field of a malformed message or block.
 *
 * @example
 * ```ts
 * const { systemPrompt, messages } = fromAnthropic({ system: params.system, messages: params.messages });
 * ```
 */
export function fromAnthropic(input: FromAnthropicInput): FromAnthropicResult {
  if (typeof input !== 'object' || input === null) invalid(WHERE, 'input', 'must be an object with `messages`');
  if (!Array.isArray(input.messages)) invalid(WHERE, 'messages', 'must be an array of MessageParam');
  const warnings: ConversionWarning[] = [];
  const toolNames = new Map<string, string>();
  const messages: Message[] = [];
  input.messages.forEach((value, index) => {
    const message = expectObject(value, WHERE, `messages[${index}]`);
    const role = message['role'];
    if (role !== 'user' && role !== 'assistant' && role !== 'system') {
      invalid(WHERE, `messages[${index}].role`, "must be 'user', 'assistant' or 'system'");
    }
    const content = message['content'];
    if (typeof content !== 'string' && !Array.isArray(content)) {
      invalid(WHERE, `messages[${index}].content`, 'must be a string or an array of content blocks');
    }
    const turn =
      role === 'assistant'
        ? [readAssistantTurn(message, index, toolNames)]
        : readUserTurn(message, index, toolNames, (text) => warnings.push({ index, message: text }));
    const fields = unmodeledFields(message, ['role', 'content']);
    turn[0] = withTurnFields(turn[0]!, fields);
    messages.push(...turn);
  });
  return { ...readSystem(input.system), messages, warnings };
}
