import { expectObject, expectStringField, invalid, type WireObject } from '../../internal/wire-object.js';
import type {
  AssistantMessage,
  ImageContent,
  Message,
  TextContent,
  ThinkingContent,
  ToolCall,
  ToolResultMessage,
  UserMessage,
} from '../../types.js';
import type { AISDKMessageInput, ConversionWarning } from '../message-types.js';
import { encodeData, untagFileData } from './data-content.js';
import { withData } from './provider-data.js';

// AI SDK messages (ModelMessage, or the provider-level prompt) to ctxkit messages. Every field ctxkit
// does not model goes to `providerData['ai-sdk']` so the writer rebuilds the message exactly.

/** What the reader returns. @internal */
interface ReadResult {
  /** The leading system messages, as they came. */
  system: WireObject[];
  messages: Message[];
  warnings: ConversionWarning[];
}

/** Adds message-level data to a converted message. */
function withMessageData<T extends Message>(message: T, data: WireObject): T {
  const extra = withData(data).providerData?.['ai-sdk'] as WireObject | undefined;
  if (extra === undefined) return message;
  const existing = (message.providerData?.['ai-sdk'] as WireObject | undefined) ?? {};
  return { ...message, providerData: { ...message.providerData, 'ai-sdk': { ...existing, ...extra } } };
}

function readTool(message: WireObject, index: number, where: string, separate: boolean): Message[] {
  const content = message['content'];
  if (!Array.isArray(content)) invalid(where, `messages[${index}].content`, 'must be an array of tool results');
  const out: Message[] = content.map((value, position): Message => {
    const place = { where, path: `messages[${index}].content[${position}]` };
    const part = expectObject(value, where, place.path);
    if (expectStringField(part, 'type', where, place.path) === 'tool-result') return readToolResult(part, place);
    const carried: UserMessage = { role: 'user', content: [passthrough(part, place)] };
    return withMessageData(carried, { role: 'tool' });
  });
  if (out.length === 0) {
    return [
      withMessageData({ role: 'user', content: [] } as UserMessage, {
        role: 'tool',
        messageOptions: providerOptionsOf(message),
      }),
    ];
  }
  out[0] = withMessageData(out[0]!, {
    toolMessage: separate ? 'new' : undefined,
    messageOptions: providerOptionsOf(message),
  });
  return out;
}

/**
 * Reads AI SDK messages (`ModelMessage[]` or the provider-level prompt). Leading system messages are
 * returned apart (unless `leadingSystem` is false, for a continuation); later ones become user
 * messages that the writer turns back into system messages.
 *
 * @internal
 */
export function readMessages(input: readonly AISDKMessageInput[], where: string, leadingSystem = true): ReadResult {
  if (!Array.isArray(input)) invalid(where, 'messages', 'must be an array of messages');
  const system: WireObject[] = [];
  const messages: Message[] = [];
  let leading = leadingSystem;
  let previousRole: unknown;
  input.forEach((value, index) => {
    const message = expectObject(value, where, `messages[${index}]`);
    const role = message['role'];
    const content = message['content'];
    const path = `messages[${index}]`;
    if (role === 'system') {
      if (typeof content !== 'string') invalid(where, `${path}.content`, 'must be a string');
      if (leading) system.push(message);
      else
        messages.push(
          withMessageData({ role: 'user', content }, { role: 'system', providerOptions: providerOptionsOf(message) }),
        );
    } else if (role === 'tool') {
      messages.push(...readTool(message, index, where, previousRole === 'tool'));
    } else if (role === 'user' || role === 'assistant') {
      if (typeof content !== 'string' && !Array.isArray(content)) {
        invalid(where, `${path}.content`, 'must be a string or an array of parts');
      }
      messages.push(role === 'user' ? readUser(message, index, where) : readAssistant(message, index, where));
    } else {
      invalid(where, `${path}.role`, "must be 'system', 'user', 'assistant' or 'tool'");
    }
    if (role !== 'system') leading = false;
    previousRole = role;
  });
  return { system, messages, warnings: [] };
}

function readUser(message: WireObject, index: number, where: string): UserMessage {
  const content = message['content'] as string | unknown[];
  const user: UserMessage =
    typeof content === 'string'
      ? { role: 'user', content }
      : {
          role: 'user',
          content: content.map((part, position) =>
            readUserPart(part, { where, path: `messages[${index}].content[${position}]` }),
          ),
        };
  return withMessageData(user, { providerOptions: providerOptionsOf(message) });
}

function readAssistant(message: WireObject, index: number, where: string): AssistantMessage {
  const content = message['content'] as string | unknown[];
  const assistant: AssistantMessage =
    typeof content === 'string'
      ? { role: 'assistant', content: [{ type: 'text', text: content }] }
      : {
          role: 'assistant',
          content: content.map((part, position) =>
            readAssistantPart(part, { where, path: `messages[${index}].content[${position}]` }),
          ),
        };
  return withMessageData(assistant, {
    content: typeof content === 'string' ? 'string' : undefined,
    providerOptions: providerOptionsOf(message),
  });
}

// The parts of AI SDK user and assistant messages as ctxkit content. Every field ctxkit does not
// model goes to `providerData['ai-sdk']` so the writer rebuilds the part exactly.

/** Where a part sits, for the error naming it: the function called and the path in its input. @internal */
interface Place {
  where: string;
  path: string;
}

/** A wire object's `providerOptions`. @internal */
function providerOptionsOf(object: WireObject): unknown {
  return object['providerOptions'];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text standing in for a part ctxkit does not model (what counts and summaries see). @internal */
export function describePart(part: WireObject): string {
  const type = String(part['type']);
  const name = part['toolName'] ?? part['filename'] ?? part['mediaType'];
  return typeof name === 'string' ? `[${type}: ${name}]` : `[${type}]`;
}

/**
 * A part carried as it came: binary data as base64 (inside its tag, for `ai` 7's tagged file
 * data), other data as it is. @internal
 */
function passthrough(part: WireObject, place: Place): TextContent {
  let carried = part;
  let kind: string | undefined;
  const untagged = 'data' in part ? untagFileData(part['data']) : undefined;
  if (untagged !== undefined && typeof untagged.value !== 'string') {
    const encoded = encodeData(untagged.value, place.where, `${place.path}.data`);
    const data =
      untagged.tag === undefined ? encoded.data : { ...(part['data'] as WireObject), [untagged.tag]: encoded.data };
    carried = { ...part, data };
    kind = encoded.kind;
  }
  return { type: 'text', text: describePart(part), ...withData({ part: carried, data: kind }) };
}

/** A text part, with its provider options. @internal */
function readText(part: WireObject, place: Place): TextContent {
  const text = expectStringField(part, 'text', place.where, place.path);
  return { type: 'text', text, ...withData({ providerOptions: providerOptionsOf(part) }) };
}

function readImage(part: WireObject, place: Place): ImageContent | TextContent {
  // `ai` 7 also takes a provider reference (an object of ids) here: carried as it came.
  if (isPlainObject(part['image'])) return passthrough(part, place);
  const image = encodeData(part['image'], place.where, `${place.path}.image`);
  const mediaType = part['mediaType'];
  if (mediaType !== undefined && typeof mediaType !== 'string')
    invalid(place.where, `${place.path}.mediaType`, 'must be a string');
  return {
    type: 'image',
    data: image.data,
    mimeType: mediaType ?? 'image/*',
    ...withData({
      part: 'image',
      data: image.kind,
      mediaType: mediaType === undefined ? 'absent' : undefined,
      providerOptions: providerOptionsOf(part),
    }),
  };
}

/** A file part: an image file becomes an image part, any other file is carried as it came. */
function readFile(part: WireObject, place: Place): ImageContent | TextContent {
  const mediaType = expectStringField(part, 'mediaType', place.where, place.path);
  const untagged = untagFileData(part['data']);
  if (!mediaType.startsWith('image/') || untagged === undefined) return passthrough(part, place);
  const file = encodeData(untagged.value, place.where, `${place.path}.data`);
  const known = ['type', 'data', 'mediaType', 'filename', 'providerOptions'];
  if (Object.keys(part).some((key) => !known.includes(key))) return passthrough(part, place);
  return {
    type: 'image',
    data: file.data,
    mimeType: mediaType,
    ...withData({
      part: 'file',
      data: file.kind,
      tag: untagged.tag,
      filename: part['filename'],
      providerOptions: providerOptionsOf(part),
    }),
  };
}

/** A part of a user message: text, an image, an image file, or any other part carried as it came. @internal */
function readUserPart(value: unknown, place: Place): TextContent | ImageContent {
  const part = expectObject(value, place.where, place.path);
  switch (expectStringField(part, 'type', place.where, place.path)) {
    case 'text':
      return readText(part, place);
    case 'image':
      return readImage(part, place);
    case 'file':
      return readFile(part, place);
    default:
      return passthrough(part, place);
  }
}

function readToolCall(part: WireObject, place: Place): ToolCall {
  const id = expectStringField(part, 'toolCallId', place.where, place.path, true);
  const name = expectStringField(part, 'toolName', place.where, place.path);
  const input = part['input'];
  return {
    type: 'toolCall',
    id,
    name,
    arguments: isPlainObject(input) ? input : {},
    ...withData({
      input: isPlainObject(input) ? undefined : { value: input },
      providerExecuted: part['providerExecuted'],
      providerOptions: providerOptionsOf(part),
    }),
  };
}

/** A part of an assistant message: text, reasoning, a tool call, or any other part carried as it came. @internal */
function readAssistantPart(value: unknown, place: Place): TextContent | ThinkingContent | ToolCall {
  const part = expectObject(value, place.where, place.path);
  switch (expectStringField(part, 'type', place.where, place.path)) {
    case 'text':
      return readText(part, place);
    case 'reasoning':
      return {
        type: 'thinking',
        thinking: expectStringField(part, 'text', place.where, place.path),
        ...withData({ providerOptions: providerOptionsOf(part) }),
      };
    case 'tool-call':
      return readToolCall(part, place);
    default:
      return passthrough(part, place);
  }
}

// A `tool-result` part as a ctxkit tool result: its tagged output as content, with what the writer
// needs to rebuild the output.

/** The text a denied tool execution reads as when it gave no reason. @internal */
export const DENIED_TEXT = 'Tool execution denied.';

/** A tool's output as ctxkit content, with what the writer needs to rebuild it. */
function readOutput(
  output: WireObject,
  place: Place,
): { content: (TextContent | ImageContent)[]; isError?: true; output: WireObject } {
  const type = expectStringField(output, 'type', place.where, place.path);
  const outputOptions = { providerOptions: providerOptionsOf(output) };
  switch (type) {
    case 'text':
    case 'error-text':
      return {
        content: [{ type: 'text', text: expectStringField(output, 'value', place.where, place.path) }],
        ...(type === 'error-text' ? { isError: true as const } : {}),
        output: outputOptions,
      };
    case 'json':
    case 'error-json':
      return {
        content: [{ type: 'text', text: JSON.stringify(output['value']) ?? 'null' }],
        ...(type === 'error-json' ? { isError: true as const } : {}),
        output: { type, ...outputOptions },
      };
    case 'execution-denied': {
      const reason = output['reason'];
      return {
        content: [{ type: 'text', text: typeof reason === 'string' ? reason : DENIED_TEXT }],
        output: { type, reason: typeof reason === 'string' ? undefined : 'absent', ...outputOptions },
      };
    }
    case 'content': {
      const items = output['value'];
      if (!Array.isArray(items)) invalid(place.where, `${place.path}.value`, 'must be an array');
      return {
        content: items.map((item, index) =>
          readContentItem(item, { where: place.where, path: `${place.path}.value[${index}]` }),
        ),
        output: { type, ...outputOptions },
      };
    }
    default:
      return { content: [passthrough(output, place)], output: { type: 'carried' } };
  }
}

function readContentItem(value: unknown, place: Place): TextContent | ImageContent {
  const item = expectObject(value, place.where, place.path);
  const type = expectStringField(item, 'type', place.where, place.path);
  const mediaType = item['mediaType'];
  const keys = Object.keys(item).sort().join(',');
  if (type === 'text') return readText(item, place);
  if ((type === 'image-data' || type === 'media') && typeof mediaType === 'string' && mediaType.startsWith('image/')) {
    if (keys === 'data,mediaType,type' || keys === 'data,mediaType,providerOptions,type') {
      return {
        type: 'image',
        data: expectStringField(item, 'data', place.where, place.path),
        mimeType: mediaType,
        ...withData({ item: type, providerOptions: providerOptionsOf(item) }),
      };
    }
  }
  if (type === 'image-url' && (keys === 'type,url' || keys === 'providerOptions,type,url')) {
    return {
      type: 'image',
      data: expectStringField(item, 'url', place.where, place.path),
      mimeType: 'image/*',
      ...withData({ item: type, providerOptions: providerOptionsOf(item) }),
    };
  }
  return passthrough(item, place);
}

/** A `tool-result` part as a ctxkit tool result. @internal */
function readToolResult(part: WireObject, place: Place): ToolResultMessage {
  const toolCallId = expectStringField(part, 'toolCallId', place.where, place.path, true);
  const toolName = expectStringField(part, 'toolName', place.where, place.path);
  const output = expectObject(part['output'], place.where, `${place.path}.output`);
  const read = readOutput(output, { where: place.where, path: `${place.path}.output` });
  const outputData = Object.values(read.output).some((value) => value !== undefined) ? read.output : undefined;
  return {
    role: 'toolResult',
    toolCallId,
    toolName,
    content: read.content,
    ...(read.isError ? { isError: true } : {}),
    ...withData({
      output: outputData && withData(outputData).providerData?.['ai-sdk'],
      providerOptions: providerOptionsOf(part),
    }),
  };
}
