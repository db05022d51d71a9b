import type { AssistantMessage, ImageContent, TextContent, ToolCall, UserMessage } from '../../types.js';
import type { ChatMessageData, ChatPartData } from '../chat-data.js';
import { imageFromUrl } from './image-url.js';
import { otherFields, placeholderPart, withData } from './provider-data.js';
import { parseArguments } from './tool-arguments.js';
import {
  describe,
  expectArray,
  expectObject,
  expectString,
  invalid,
  isObject,
  type WireObject,
} from './wire-object.js';

// The messages of a Chat Completions list as ctxkit messages, for fromOpenAIChat: whatever ctxkit
// does not model goes to `providerData.openai.chat` on the message or part.

/** The function whose input this reads, named in its errors. */
const WHERE = 'fromOpenAIChat';

/** Checks that system or developer content is a string or text parts. @internal */
export function instructionParts(content: unknown, path: string): void {
  if (typeof content === 'string') return;
  expectArray(content, WHERE, path).forEach((part, index) => {
    const object = expectObject(part, WHERE, `${path}[${index}]`);
    expectString(object.text, WHERE, `${path}[${index}].text`);
  });
}

/** A system or developer message after the first user message, as a user message sent back with its role. @internal */
export function instructionMessage(message: WireObject & { role: string }, path: string): UserMessage {
  instructionParts(message.content, `${path}.content`);
  const data: ChatMessageData = {
    role: message.role as 'system' | 'developer',
    fields: otherFields(message, ['role', 'content']),
  };
  const content =
    typeof message.content === 'string' ? message.content : textParts(message.content, `${path}.content`).parts;
  return { role: 'user', content, ...withData('chat', data) };
}

/** A user message: text, images, and audio or files carried as placeholders. @internal */
export function userMessage(message: WireObject, path: string, warnings: string[]): UserMessage {
  const data: ChatMessageData = { fields: otherFields(message, ['role', 'content']) };
  if (typeof message.content === 'string') return { role: 'user', content: message.content, ...withData('chat', data) };
  const parts = expectArray(message.content, WHERE, `${path}.content`).map((part, index) =>
    userPart(expectObject(part, WHERE, `${path}.content[${index}]`), `${path}.content[${index}]`, warnings),
  );
  return { role: 'user', content: parts, ...withData('chat', data) };
}

function userPart(part: WireObject, path: string, warnings: string[]): TextContent | ImageContent {
  switch (part.type) {
    case 'text':
      return textPart(part, path);
    case 'image_url': {
      const image = expectObject(part.image_url, WHERE, `${path}.image_url`);
      const { opaque, ...source } = imageFromUrl(expectString(image.url, WHERE, `${path}.image_url.url`));
      const data: ChatPartData = {
        fields: otherFields(part, ['type', 'image_url']),
        image: otherFields(image, ['url']),
        opaque,
      };
      return { type: 'image', ...source, ...withData('chat', data) };
    }
    case 'input_audio':
      warnings.push(`${path} is audio; ctxkit carries it verbatim and counts it as a short placeholder.`);
      return placeholderPart('chat', 'audio input', part);
    case 'file': {
      const file = typeof part.file === 'object' && part.file !== null ? (part.file as WireObject) : {};
      warnings.push(`${path} is a file; ctxkit carries it verbatim and counts it as a short placeholder.`);
      return placeholderPart('chat', typeof file.filename === 'string' ? `file: ${file.filename}` : 'file', part);
    }
    default:
      warnings.push(`${path} has type ${describe(part.type)}, which ctxkit does not model; it is carried verbatim.`);
      return placeholderPart('chat', `${String(part.type)} part`, part);
  }
}

function textPart(part: WireObject, path: string): TextContent {
  const text = expectString(part.text, WHERE, `${path}.text`);
  return { type: 'text', text, ...withData('chat', { fields: otherFields(part, ['type', 'text']) }) };
}

/** Text-only content (`string | text part[]`) as ctxkit text parts. @internal */
export function textParts(content: unknown, path: string): { parts: TextContent[]; spelledAsParts: boolean } {
  if (typeof content === 'string') return { parts: [{ type: 'text', text: content }], spelledAsParts: false };
  const parts = expectArray(content, WHERE, path).map((part, index) => {
    const object = expectObject(part, WHERE, `${path}[${index}]`);
    return object.type === 'text'
      ? textPart(object, `${path}[${index}]`)
      : placeholderPart('chat', `${String(object.type)} part`, object);
  });
  return { parts, spelledAsParts: true };
}

/** An assistant message: text, refusals, and tool calls with parsed arguments. @internal */
export function assistantMessage(message: WireObject, path: string, warnings: string[]): AssistantMessage {
  const content: AssistantMessage['content'] = [];
  const data: ChatMessageData = {
    fields: otherFields(message, [
      'role',
      'content',
      'tool_calls',
      ...(typeof message.refusal === 'string' ? ['refusal'] : []),
    ]),
  };
  if (message.content === undefined) data.content = 'absent';
  else if (typeof message.content === 'string') content.push({ type: 'text', text: message.content });
  else if (message.content !== null) {
    // (null is how an assistant message without text is sent anyway, so it needs no note)
    data.content = 'parts';
    expectArray(message.content, WHERE, `${path}.content`).forEach((value, index) => {
      const partPath = `${path}.content[${index}]`;
      const part = expectObject(value, WHERE, partPath);
      if (part.type === 'refusal') {
        const text = expectString(part.refusal, WHERE, `${partPath}.refusal`);
        content.push({
          type: 'text',
          text,
          ...withData('chat', { refusal: 'part', fields: otherFields(part, ['type', 'refusal']) }),
        });
      } else if (part.type === 'text') content.push(textPart(part, partPath));
      else content.push(placeholderPart('chat', `${String(part.type)} part`, part));
    });
  }
  if (typeof message.refusal === 'string') {
    content.push({ type: 'text', text: message.refusal, ...withData('chat', { refusal: 'field' }) });
  }
  if (message.tool_calls !== undefined) {
    const calls = expectArray(message.tool_calls, WHERE, `${path}.tool_calls`);
    if (calls.length === 0) data.fields = { ...data.fields, tool_calls: [] };
    for (const [index, call] of calls.entries()) content.push(toolCall(call, `${path}.tool_calls[${index}]`, warnings));
  }
  if (isObject(data.fields) && 'function_call' in data.fields && data.fields.function_call != null) {
    warnings.push(
      `${path}.function_call is a legacy function call; it is carried verbatim and not paired with a result.`,
    );
  }
  return { role: 'assistant', content, ...withData('chat', data) };
}

function toolCall(value: unknown, path: string, warnings: string[]): ToolCall {
  const call = expectObject(value, WHERE, path);
  const id = expectString(call.id, WHERE, `${path}.id`);
  const fields = otherFields(call, ['id', 'type', 'function', 'custom']);
  if (call.type === 'custom') {
    const custom = expectObject(call.custom, WHERE, `${path}.custom`);
    const name = expectString(custom.name, WHERE, `${path}.custom.name`);
    const input = expectString(custom.input, WHERE, `${path}.custom.input`);
    const data: ChatPartData = { custom: true, fields, function: otherFields(custom, ['name', 'input']) };
    return { type: 'toolCall', id, name, arguments: { input }, ...withData('chat', data) };
  }
  if (call.type !== 'function') {
    throw invalid(WHERE, `${path}.type`, `must be 'function' or 'custom', received ${describe(call.type)}.`);
  }
  const fn = expectObject(call.function, WHERE, `${path}.function`);
  const name = expectString(fn.name, WHERE, `${path}.function.name`);
  const parsed = parseArguments(expectString(fn.arguments, WHERE, `${path}.function.arguments`));
  if (parsed.invalid) {
    warnings.push(`${path}.function.arguments is not a JSON object; it is sent back verbatim and ctxkit sees {}.`);
  }
  const data: ChatPartData = { fields, function: otherFields(fn, ['name', 'arguments']), arguments: parsed.raw };
  return { type: 'toolCall', id, name, arguments: parsed.arguments, ...withData('chat', data) };
}
