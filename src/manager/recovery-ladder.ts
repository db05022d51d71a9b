// The overflow-recovery ladder after its summarize rung: the pure rungs that shrink the kept tail
// itself (old thinking dropped, the newest tool results cut to 8 KiB, to 2 KiB, then to a one-line
// stub), each applied on top of the one before, and the request size they are judged by.
import type { ToolOutputLimits } from '../config/index.js';
import { isAgentVisible } from '../counting/is-agent-visible.js';
import { codePointLength } from '../internal/clip-text.js';
import { prepareModelMessages } from '../pipeline/prepare-model-messages.js';
import { truncateToolContent } from '../pipeline/truncate-tool-content.js';
import type { AssistantMessage, Message, ToolResultMessage } from '../types.js';
import type { CompactionRung } from './events.js';

/** The rungs after `summarize`, in the order they are climbed. @internal */
export const CUTTING_RUNGS = ['drop-thinking', 'cut-results-8k', 'cut-results-2k', 'stub-results'] as const;

/** Tool output limits of the two cutting rungs. */
const CUT_LIMITS: Record<'cut-results-8k' | 'cut-results-2k', Partial<ToolOutputLimits>> = {
  'cut-results-8k': { maxLines: 200, maxBytes: 8 * 1024, maxChars: 8 * 1024 },
  'cut-results-2k': { maxLines: 50, maxBytes: 2 * 1024, maxChars: 2 * 1024 },
};

/**
 * What the model is sent for `messages`, in tokens: the projection `prepareModelMessages` makes of
 * them (hidden messages out, pairing repaired), counted message by message, plus `extras` (the
 * system prompt and the tool definitions).
 *
 * @internal
 */
export function requestTokens(
  messages: readonly Message[],
  count: (message: Message) => number,
  extras: number,
): number {
  let tokens = extras;
  for (const message of prepareModelMessages(messages)) tokens += count(message);
  return tokens;
}

/**
 * Applies one cutting rung to `messages` (the state the previous rung left). `original` is the
 * state before the first cutting rung, where a stub reads the size of the output it replaces and
 * where it was saved. Returns the same array when the rung changes nothing.
 *
 * @internal
 */
export function applyRung(
  rung: Exclude<CompactionRung, 'summarize'>,
  messages: readonly Message[],
  original: readonly Message[],
): readonly Message[] {
  switch (rung) {
    case 'drop-thinking':
      return dropOldThinking(messages);
    case 'cut-results-8k':
    case 'cut-results-2k':
      return mapResults(messages, (result) => cutResult(result, CUT_LIMITS[rung]));
    case 'stub-results': {
      const originals = new Map<string, ToolResultMessage>();
      for (const message of original) if (message.role === 'toolResult') originals.set(message.toolCallId, message);
      return mapResults(messages, (result) => stubResult(result, originals.get(result.toolCallId) ?? result));
    }
  }
}

/**
 * Drops the thinking of every assistant message but the newest (a provider may need the newest
 * turn's signed thinking to continue its tool calls). A message left with nothing is dropped: it
 * had no tool calls, so no result loses its call.
 */
function dropOldThinking(messages: readonly Message[]): readonly Message[] {
  let newest = messages.length - 1;
  while (newest >= 0 && messages[newest]!.role !== 'assistant') newest--;
  let changed = false;
  const output: Message[] = [];
  messages.forEach((message, index) => {
    if (message.role !== 'assistant' || index === newest || !message.content.some((part) => part.type === 'thinking')) {
      output.push(message);
      return;
    }
    changed = true;
    const content = message.content.filter((part) => part.type !== 'thinking');
    if (content.length > 0) output.push({ ...message, content } satisfies AssistantMessage);
  });
  return changed ? output : messages;
}

/** The results the model sees, mapped; the same array when none changed. */
function mapResults(
  messages: readonly Message[],
  map: (result: ToolResultMessage) => ToolResultMessage,
): readonly Message[] {
  let changed = false;
  const output = messages.map((message) => {
    if (message.role !== 'toolResult' || !isAgentVisible(message)) return message;
    const mapped = map(message);
    if (mapped !== message) changed = true;
    return mapped;
  });
  return changed ? output : messages;
}

function cutResult(result: ToolResultMessage, limits: Partial<ToolOutputLimits>): ToolResultMessage {
  let changed = false;
  const content = result.content.map((part) => {
    if (part.type !== 'text') return part;
    const cut = truncateToolContent(part.text, limits);
    if (!cut.truncated) return part;
    changed = true;
    return { ...part, text: cut.text };
  });
  return changed ? { ...result, content } : result;
}

/** Where ctxkit's truncation notice says the full output was saved. */
const SAVED_AT = /saved to (.+?)(?= \(SHA-256|\]|\.(?:\s|$))/;

/** The one line that stands for an output the request had no room for, and how to get it again. @internal */
function stubText(original: ToolResultMessage): string {
  const texts = original.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
  const text = texts.join('\n');
  const images = original.content.length - texts.length;
  const lines = text === '' ? 0 : text.split('\n').length;
  const size = `${lines} line${lines === 1 ? '' : 's'}, ${codePointLength(text)} characters${images > 0 ? `, ${images} image${images === 1 ? '' : 's'}` : ''}`;
  const saved = SAVED_AT.exec(text)?.[1];
  const again = saved
    ? `the full output is saved at ${saved}; read it from there`
    : `call ${original.toolName} again with the same arguments`;
  return `[Output of ${original.toolName} (${size}) removed to fit the context window; to see it, ${again}.]`;
}

/** A result as its stub; a result already as short as its stub (and without images) stays. */
function stubResult(result: ToolResultMessage, original: ToolResultMessage): ToolResultMessage {
  const text = stubText(original);
  let length = 0;
  for (const part of result.content) length += part.type === 'text' ? part.text.length : Number.POSITIVE_INFINITY;
  if (length <= text.length) return result;
  return { ...result, content: [{ type: 'text', text }] };
}
