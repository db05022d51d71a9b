import { ContextError } from '../../errors.js';
import type { WireObject } from '../../internal/wire-object.js';
import { messageSchema } from '../../schemas/index.js';
import type { Message } from '../../types.js';
import { firstIssue } from '../../validation/zod-issues.js';
import type { ConversionWarning } from '../message-types.js';
import { dataOf } from './provider-data.js';
import {
  carriedPart,
  type Format,
  isSignedReasoning,
  type Warn,
  withOptions,
  writeImage,
  writeText,
  writeThinking,
  writeToolCall,
} from './write-parts.js';
import { writeToolResult } from './write-tool-results.js';

// ctxkit messages to AI SDK messages (the `to` direction), in either format: `'model'` writes
// `ModelMessage`s, `'prompt'` the provider-level prompt (arrays only, media as file parts).

const checked = new WeakSet<object>();

function assertMessage(message: unknown, index: number, where: string): asserts message is Message {
  if (typeof message === 'object' && message !== null && checked.has(message)) return;
  const parsed = messageSchema.safeParse(message);
  if (!parsed.success) {
    const { field, detail } = firstIssue(parsed.error, '');
    throw new ContextError({
      message: `${where}: messages[${index}]${field ? `.${field}` : ''} ${detail}.`,
      code: 'INPUT_INVALID',
      cause: parsed.error,
    });
  }
  checked.add(message as object);
}

function messageOptions(message: Message): { providerOptions?: unknown } {
  return withOptions(dataOf(message)['providerOptions']);
}

function writeUser(message: Extract<Message, { role: 'user' }>, format: Format, warn: Warn): WireObject | undefined {
  const data = dataOf(message);
  const role = data['role'] === 'system' ? 'system' : 'user';
  if (typeof message.content === 'string') {
    if (role === 'system') return { role, content: message.content, ...messageOptions(message) };
    if (message.content.trim().length === 0) {
      warn('dropped a user message with empty or blank content (providers reject it)');
      return undefined;
    }
    const content = format === 'prompt' ? [{ type: 'text', text: message.content }] : message.content;
    return { role, content, ...messageOptions(message) };
  }
  const content = message.content.flatMap(
    (part) => (part.type === 'text' ? writeText(part, warn) : writeImage(part, format)) ?? [],
  );
  if (content.length === 0) {
    warn('dropped a user message with no content providers accept');
    return undefined;
  }
  return { role, content, ...messageOptions(message) };
}

function writeAssistant(
  message: Extract<Message, { role: 'assistant' }>,
  format: Format,
  warn: Warn,
): WireObject | undefined {
  const content: WireObject[] = [];
  for (const part of message.content) {
    const written =
      part.type === 'text'
        ? writeText(part, warn)
        : part.type === 'thinking'
          ? writeThinking(part)
          : writeToolCall(part);
    if (written !== undefined) content.push(written);
  }
  if (content.length === 0) {
    warn('dropped an assistant message with no content (providers reject an empty assistant turn)');
    return undefined;
  }
  if (content.every((part) => part['type'] === 'reasoning' && !isSignedReasoning(part))) {
    warn(
      'dropped an assistant message of unsigned thinking only: providers drop unsigned reasoning, and an empty assistant turn is rejected',
    );
    return undefined;
  }
  const only = content[0]!;
  const asString =
    format === 'model' &&
    dataOf(message)['content'] === 'string' &&
    content.length === 1 &&
    only['type'] === 'text' &&
    Object.keys(only).length === 2;
  return { role: 'assistant', content: asString ? only['text'] : content, ...messageOptions(message) };
}

/**
 * Writes ctxkit messages as AI SDK messages. Consecutive tool results (and carried tool-message
 * parts) share one `tool` message unless the reader marked where a new one started.
 *
 * @internal
 */
export function writeMessages(
  input: readonly Message[],
  format: Format,
  where: string,
): { messages: WireObject[]; warnings: ConversionWarning[] } {
  if (!Array.isArray(input)) {
    throw new ContextError({
      message: `${where}: messages must be an array of ctxkit messages.`,
      code: 'INPUT_INVALID',
    });
  }
  const warnings: ConversionWarning[] = [];
  const messages: WireObject[] = [];
  let tool: WireObject | undefined;
  input.forEach((message, index) => {
    assertMessage(message, index, where);
    const warn: Warn = (text) => warnings.push({ index, message: text });
    const data = dataOf(message);
    const toolSide = message.role === 'toolResult' || data['role'] === 'tool';
    if (!toolSide) {
      tool = undefined;
      const written =
        message.role === 'assistant'
          ? writeAssistant(message, format, warn)
          : writeUser(message as Extract<Message, { role: 'user' }>, format, warn);
      if (written !== undefined) messages.push(written);
      return;
    }
    if (tool === undefined || data['toolMessage'] === 'new') {
      tool = { role: 'tool', content: [], ...withOptions(data['messageOptions']) };
      messages.push(tool);
    }
    const parts = tool['content'] as WireObject[];
    if (message.role === 'toolResult') parts.push(writeToolResult(message, warn));
    else if (Array.isArray(message.content)) {
      for (const part of message.content) {
        const carried = part.type === 'text' ? carriedPart(part) : undefined;
        if (carried !== undefined) parts.push(carried);
        else warn('dropped a changed part of a tool message');
      }
    }
  });
  return { messages, warnings };
}
