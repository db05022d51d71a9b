import { isAgentVisible } from '../counting/is-agent-visible.js';
import { clipText } from '../internal/clip-text.js';
import type { AssistantMessage, ImageContent, Message, TextContent, ToolCall, UserMessage } from '../types.js';
import { assertMessages } from '../validation/assert-messages.js';
import { option, parseOptions } from '../validation/parse-options.js';

/**
 * Options of {@link serializeConversation}.
 *
 * @example
 * ```ts
 * const options: SerializeConversationOptions = { toolResultMaxChars: 1_800, maxChars: 12_000 };
 * ```
 */
export interface SerializeConversationOptions {
  /** Code points kept of each tool result's text, head and tail around a marker. @default no limit */
  toolResultMaxChars?: number;
  /** Code points kept of each tool call's arguments (as JSON), head and tail. @default `toolResultMaxChars` */
  toolCallMaxChars?: number;
  /** Code points kept of each thinking block, head and tail; `0` leaves thinking out. @default 2000 */
  thinkingMaxChars?: number;
  /** Characters (UTF-16 units) of the whole text at most; the newest content is kept. @default no limit */
  maxChars?: number;
}

/** The first line of the text when older content was cut to fit `maxChars`. */
const OMITTED_MARKER = '[… earlier conversation omitted]\n';

/** The label of a user-side message: what ctxkit injected is not mistaken for a user request. */
const USER_LABELS: Record<string, string> = {
  compaction_summary: 'Earlier summary',
  branch_summary: 'Branch summary',
  tool_summary: 'Tool summary',
  custom: 'Context',
};

function limit(value: number | undefined): number {
  return value === undefined || Number.isNaN(value) ? Number.POSITIVE_INFINITY : Math.max(0, Math.floor(value));
}

/**
 * The text of message content; images become `[image]`.
 *
 * @internal
 */
export function contentText(content: string | readonly (TextContent | ImageContent)[]): string {
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '[image]')).join('\n');
}

/**
 * JSON of a tool call's arguments that never throws (cycles, `BigInt`, odd values fall back to `String`).
 *
 * @internal
 */
export function argumentsText(call: ToolCall): string {
  try {
    return JSON.stringify(call.arguments) ?? '{}';
  } catch {
    return String(call.arguments);
  }
}

function serializeAssistant(message: AssistantMessage, options: Required<SerializeConversationOptions>): string[] {
  const thinking: string[] = [];
  const text: string[] = [];
  const calls: string[] = [];
  for (const part of message.content) {
    if (part.type === 'text') text.push(part.text);
    else if (part.type === 'toolCall')
      calls.push(`${part.name}(${clipText(argumentsText(part), options.toolCallMaxChars)})`);
    else if (part.type === 'thinking' && !part.redacted && options.thinkingMaxChars > 0 && part.thinking.trim())
      thinking.push(clipText(part.thinking, options.thinkingMaxChars));
  }
  const lines: string[] = [];
  if (thinking.length > 0) lines.push(`[Assistant thinking]: ${thinking.join('\n')}`);
  if (text.join('').trim()) lines.push(`[Assistant]: ${text.join('\n')}`);
  if (calls.length > 0) lines.push(`[Assistant tool calls]: ${calls.join('; ')}`);
  if (message.stopReason === 'error' || message.errorMessage)
    lines.push(`[Assistant error]: ${message.errorMessage ?? 'the response failed'}`);
  return lines;
}

function serializeUser(message: UserMessage): string {
  const label = USER_LABELS[message.meta?.kind ?? ''] ?? 'User';
  return `[${label}]: ${contentText(message.content)}`;
}

/** Keeps the newest `max` UTF-16 units behind a marker, never starting inside a surrogate pair. */
function keepNewest(text: string, max: number): string {
  if (text.length <= max) return text;
  const marker = max > OMITTED_MARKER.length * 2 ? OMITTED_MARKER : '';
  let start = text.length - (max - marker.length);
  const code = text.charCodeAt(start);
  if (code >= 0xdc00 && code <= 0xdfff) start++;
  return marker + text.slice(start);
}

/**
 * Flattens a conversation to plain text, so that a model asked to summarize it sees a transcript
 * rather than a conversation to continue. Only messages visible to the agent are included, one block
 * per message: `[User]: …`, `[Assistant thinking]: …`, `[Assistant]: …`,
 * `[Assistant tool calls]: name({…})`, `[Tool result name]: …` (with ` (error)` for failed tools);
 * images become `[image]`, redacted thinking is left out, and summaries ctxkit injected are labelled
 * as such (`[Earlier summary]`, `[Tool summary]`). Tool results and calls are cut head and tail to
 * their limits in code points; the whole text is then cut to `maxChars`, keeping the newest content.
 * Astral characters (emoji) are never split.
 *
 * @param messages - The messages; not mutated.
 * @param options - Per-tool-result, per-call, per-thinking and overall limits.
 * @returns The transcript, blocks separated by blank lines.
 *
 * @example
 * ```ts
 * serializeConversation([{ role: 'user', content: 'Fix the test' }]); // '[User]: Fix the test'
 * const input = serializeConversation(old, { toolResultMaxChars: 1_800, maxChars: 12_000 });
 * ```
 */
export function serializeConversation(
  messages: readonly Message[],
  options: SerializeConversationOptions = {},
): string {
  assertMessages(messages, 'serializeConversation');
  parseOptions('serializeConversation', option.bag(), options);
  return serializeMessages(messages, options);
}

/**
 * {@link serializeConversation} without checking its input, for callers that pass messages and
 * options checked already (the tool-result batch serializes each call and result on its own).
 *
 * @internal
 */
export function serializeMessages(messages: readonly Message[], options: SerializeConversationOptions = {}): string {
  const toolResultMaxChars = limit(options.toolResultMaxChars);
  const resolved: Required<SerializeConversationOptions> = {
    toolResultMaxChars,
    toolCallMaxChars: options.toolCallMaxChars === undefined ? toolResultMaxChars : limit(options.toolCallMaxChars),
    thinkingMaxChars: options.thinkingMaxChars === undefined ? 2000 : limit(options.thinkingMaxChars),
    maxChars: limit(options.maxChars),
  };
  const blocks: string[] = [];
  for (const message of messages) {
    if (!isAgentVisible(message)) continue;
    switch (message.role) {
      case 'user':
        blocks.push(serializeUser(message));
        break;
      case 'assistant':
        blocks.push(...serializeAssistant(message, resolved));
        break;
      case 'toolResult': {
        const status = message.isError ? ' (error)' : '';
        const text = clipText(contentText(message.content), resolved.toolResultMaxChars, 'head_tail');
        blocks.push(`[Tool result ${message.toolName}${status}]: ${text}`);
        break;
      }
    }
  }
  return keepNewest(blocks.join('\n\n'), resolved.maxChars);
}
