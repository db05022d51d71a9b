import { createSummaryMessage } from '../messages/create-summary-message.js';
import type {
  AssistantMessage,
  ImageContent,
  Message,
  MessageMeta,
  StopReason,
  TextContent,
  ToolCall,
  ToolResultMessage,
  Usage,
  UserMessage,
} from '../types.js';
import { assertObjectArgument, assertOptionalObjectArgument, invalidArgument } from '../validation/assert-argument.js';

/**
 * A user message with plain-text content.
 *
 * @param text - The message text.
 * @param meta - Optional routing metadata (visibility flags, kind, id).
 * @returns A new {@link UserMessage}.
 *
 * @example
 * ```ts
 * const hidden = userMessage('note to self', { agentVisible: false });
 * ```
 */
export function userMessage(text: string, meta?: MessageMeta): UserMessage {
  return { role: 'user', content: text, ...(meta === undefined ? {} : { meta }) };
}

/**
 * Options of {@link assistantMessage}.
 *
 * @example
 * ```ts
 * const options: AssistantMessageOptions = { stopReason: 'aborted', usage: { input: 900, output: 40 } };
 * ```
 */
export interface AssistantMessageOptions {
  /** Why the model stopped. @default 'stop' */
  stopReason?: StopReason;
  /** Provider-reported usage. */
  usage?: Usage;
  /** Reasoning to put before the text. */
  thinking?: string;
  /** Routing metadata. */
  meta?: MessageMeta;
}

/**
 * An assistant reply with one text part.
 *
 * @param text - The reply text.
 * @param options - Stop reason, usage, thinking and metadata.
 * @returns A new {@link AssistantMessage}.
 *
 * @example
 * ```ts
 * const reply = assistantMessage('Done.', { usage: { input: 1200, output: 8 } });
 * ```
 */
export function assistantMessage(text: string, options: AssistantMessageOptions = {}): AssistantMessage {
  assertOptionalObjectArgument(options, 'assistantMessage', 'options');
  return {
    role: 'assistant',
    content: [
      ...(options.thinking === undefined ? [] : [{ type: 'thinking' as const, thinking: options.thinking }]),
      { type: 'text', text },
    ],
    stopReason: options.stopReason ?? 'stop',
    ...(options.usage === undefined ? {} : { usage: options.usage }),
    ...(options.meta === undefined ? {} : { meta: options.meta }),
  };
}

/**
 * One tool call as {@link toolCallMessage} takes it.
 *
 * @example
 * ```ts
 * const call: ToolCallSpec = { id: 'c1', name: 'bash', arguments: { command: 'ls' } };
 * ```
 */
export interface ToolCallSpec {
  /** The call id, unique in the conversation. */
  id: string;
  /** The tool's name. */
  name: string;
  /** The call's arguments. @default {} */
  arguments?: Record<string, unknown>;
}

/**
 * An assistant message that calls one or more tools (parallel calls when more than one), with
 * `stopReason: 'toolUse'`.
 *
 * @param calls - The calls, in order.
 * @param text - Optional text before the calls.
 * @returns A new {@link AssistantMessage}.
 *
 * @example
 * ```ts
 * const turn = toolCallMessage([{ id: 'c1', name: 'read', arguments: { path: 'a.ts' } }], 'Reading it.');
 * ```
 */
export function toolCallMessage(calls: readonly ToolCallSpec[], text?: string): AssistantMessage {
  if (!Array.isArray(calls))
    throw invalidArgument('toolCallMessage', 'calls', 'an array of { id, name, arguments }', calls);
  for (const [index, call] of calls.entries()) assertObjectArgument(call, 'toolCallMessage', `calls[${index}]`);
  const parts: ToolCall[] = calls.map((call) => ({
    type: 'toolCall',
    id: call.id,
    name: call.name,
    arguments: call.arguments ?? {},
  }));
  return {
    role: 'assistant',
    content: [...(text === undefined ? [] : [{ type: 'text' as const, text }]), ...parts],
    stopReason: 'toolUse',
  };
}

/**
 * Options of {@link toolResultMessage}.
 *
 * @example
 * ```ts
 * const options: ToolResultMessageOptions = { toolName: 'bash', isError: true };
 * ```
 */
export interface ToolResultMessageOptions {
  /** The tool's name. @default 'tool' */
  toolName?: string;
  /** Whether the tool failed. */
  isError?: boolean;
  /** Routing metadata, e.g. `{ agentVisible: false, kind: 'tool_result_archived' }`. */
  meta?: MessageMeta;
}

/**
 * The text output of one tool call.
 *
 * @param id - The id of the call it answers.
 * @param text - The output.
 * @param options - Tool name, error flag and metadata.
 * @returns A new {@link ToolResultMessage}.
 *
 * @example
 * ```ts
 * const failed = toolResultMessage('c1', 'exit code 1', { toolName: 'bash', isError: true });
 * ```
 */
export function toolResultMessage(id: string, text: string, options: ToolResultMessageOptions = {}): ToolResultMessage {
  assertOptionalObjectArgument(options, 'toolResultMessage', 'options');
  return {
    role: 'toolResult',
    toolCallId: id,
    toolName: options.toolName ?? 'tool',
    content: [{ type: 'text', text }],
    ...(options.isError === undefined ? {} : { isError: options.isError }),
    ...(options.meta === undefined ? {} : { meta: options.meta }),
  };
}

/**
 * Options of {@link imageMessage}.
 *
 * @example
 * ```ts
 * const options: ImageMessageOptions = { mimeType: 'image/jpeg', text: 'What is this?' };
 * ```
 */
export interface ImageMessageOptions {
  /** The image's type. @default 'image/png' */
  mimeType?: string;
  /** Text to send with the image. */
  text?: string;
  /** Routing metadata. */
  meta?: MessageMeta;
}

/**
 * A user message carrying one image (and optional text before it).
 *
 * @param data - Base64 data or a URL.
 * @param options - MIME type, text and metadata.
 * @returns A new {@link UserMessage} with array content.
 *
 * @example
 * ```ts
 * const screenshot = imageMessage('iVBORw0KGgo=', { text: 'The page looks broken' });
 * ```
 */
export function imageMessage(data: string, options: ImageMessageOptions = {}): UserMessage {
  assertOptionalObjectArgument(options, 'imageMessage', 'options');
  const image: ImageContent = { type: 'image', data, mimeType: options.mimeType ?? 'image/png' };
  const text: TextContent[] = options.text === undefined ? [] : [{ type: 'text', text: options.text }];
  return { role: 'user', content: [...text, image], ...(options.meta === undefined ? {} : { meta: options.meta }) };
}

/**
 * A compaction summary message, exactly as `compact` writes it (`[Previous conversation summary]`,
 * kind `compaction_summary`).
 *
 * @param text - The checkpoint text.
 * @returns A new {@link UserMessage}.
 *
 * @example
 * ```ts
 * const history = [summaryMessage('## Goal\nFix the parser'), userMessage('next step?')];
 * ```
 */
export function summaryMessage(text: string): UserMessage {
  return createSummaryMessage(text);
}

/**
 * Builds a conversation from messages and nested lists of messages (a tool turn is conveniently a
 * list: the call followed by its results). `undefined` and `false` entries are skipped, so
 * conditional turns read naturally.
 *
 * @param parts - Messages, lists of messages, or `undefined`/`false` to skip.
 * @returns A new flat array of the messages, in order.
 *
 * @example
 * ```ts
 * const messages = conversation(
 *   userMessage('list the files'),
 *   [toolCallMessage([{ id: 'c1', name: 'ls' }]), toolResultMessage('c1', 'a.ts\nb.ts')],
 *   withReply && assistantMessage('Two files.'),
 * );
 * ```
 */
export function conversation(...parts: ReadonlyArray<Message | readonly Message[] | undefined | false>): Message[] {
  const messages: Message[] = [];
  for (const part of parts) {
    if (part === undefined || part === false) continue;
    if (Array.isArray(part)) messages.push(...(part as readonly Message[]));
    else messages.push(part as Message);
  }
  return messages;
}
