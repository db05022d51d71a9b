import type {
  AssistantMessage,
  ImageContent,
  Message,
  TextContent,
  ThinkingContent,
  ToolCall,
  ToolResultMessage,
  UserMessage,
} from '../types.js';
import { encodeData, expectObject, expectString, invalid, type WireObject, withData } from './data.js';
import type { AISDKMessageInput, ConversionWarning } from './types.js';

// AI SDK messages (ModelMessage, or the provider-level prompt) to ctxkit messages. Every field ctxkit
// does not model goes to `providerData['ai-sdk']` so the writer rebuilds the message exactly.

/** The text a denied tool execution reads as when it gave no reason. @internal */
export const DENIED_TEXT = 'Tool execution denied.';

/** What the reader returns. @internal */
export interface ReadResult {
  /** The leading system messages, as they came. */
  system: WireObject[];
  messages: Message[];
  warnings: ConversionWarning[];
}

interface Place {
  where: string;
  path: string;
}

function options(object: WireObject): unknown {
  return object['providerOptions'];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text standing in for a part ctxkit does not model (what counts and summaries see). */
export function describePart(part: WireObject): string {
  const type = String(part['type']);
  const name = part['toolName'] ?? part['filename'] ?? part['mediaType'];
  return typeof name === 'string' ? `[${type}: ${name}]` : `[${type}]`;
}

/** A part carried as it came (binary data as base64). */
function passthrough(part: WireObject, place: Place): TextContent {
  let carried = part;
  let kind: string | undefined;
  if ('data' in part && typeof part['data'] !== 'string') {
    const encoded = encodeData(part['data'], place.where, `${place.path}.data`);
    carried = { ...part, data: encoded.data };
    kind = encoded.kind;
  }
  return { type: 'text', text: describePart(part), ...withData({ part: carried, data: kind }) };
}

function readText(part: WireObject, place: Place): TextContent {
  const text = expectString(part, 'text', place.where, place.path);
  return { type: 'text', text, ...withData({ providerOptions: options(part) }) };
}

function readImage(part: WireObject, place: Place): ImageContent {
  const image = encodeData(part['image'], place.where, `${place.path}.image`);
  const mediaType = part['mediaType'];
  if (mediaType !== undefined && typeof mediaType !== 'string')
    invalid(place.where, `${place.path}.mediaType`, 'must be a string');
  return {
    type: 'image',
    data: image.data,
    mimeType: mediaType ?? 'image/*',
    ...withData({
      data: image.kind,
      mediaType: mediaType === undefined ? 'absent' : undefined,
      providerOptions: options(part),
    }),
  };
}

/** A file part: an image file becomes an image part, any other file is carried as it came. */
function readFile(part: WireObject, place: Place): ImageContent | TextContent {
  const mediaType = expectString(part, 'mediaType', place.where, place.path);
  if (!mediaType.startsWith('image/')) return passthrough(part, place);
  const file = encodeData(part['data'], place.where, `${place.path}.data`);
  const known = ['type', 'data', 'mediaType', 'filename', 'providerOptions'];
  if (Object.keys(part).some((key) => !known.includes(key))) return passthrough(part, place);
  return {
    type: 'image',
    data: file.data,
    mimeType: mediaType,
    ...withData({ part: 'file', data: file.kind, filename: part['filename'], providerOptions: options(part) }),
  };
}

function readUserPart(value: unknown, place: Place): TextContent | ImageContent {
  const part = expectObject(value, place.where, place.path);
  switch (expectString(part, 'type', place.where, place.path)) {
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
  const id = expectString(part, 'toolCallId', place.where, place.path, true);
  const name = expectString(part, 'toolName', place.where, place.path);
  const input = part['input'];
  return {
    type: 'toolCall',
    id,
    name,
    arguments: isPlainObject(input) ? input : {},
    ...withData({
      input: isPlainObject(input) ? undefined : { value: input },
      providerExecuted: part['providerExecuted'],
      providerOptions: options(part),
    }),
  };
}

function readAssistantPart(value: unknown, place: Place): TextContent | ThinkingContent | ToolCall {
  const part = expectObject(value, place.where, place.path);
  switch (expectString(part, 'type', place.where, place.path)) {
    case 'text':
      return readText(part, place);
    case 'reasoning':
      return {
        type: 'thinking',
        thinking: expectString(part, 'text', place.where, place.path),
        ...withData({ providerOptions: options(part) }),
      };
    case 'tool-call':
      return readToolCall(part, place);
    default:
      return passthrough(part, place);
  }
}

/** A tool's output as ctxkit content, with what the writer needs to rebuild it. */
function readOutput(
  output: WireObject,
  place: Place,
): { content: (TextContent | ImageContent)[]; isError?: true; output: WireObject } {
  const type = expectString(output, 'type', place.where, place.path);
  const outputOptions = { providerOptions: options(output) };
  switch (type) {
    case 'text':
    case 'error-text':
      return {
        content: [{ type: 'text', text: expectString(output, 'value', place.where, place.path) }],
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
  const type = expectString(item, 'type', place.where, place.path);
  const mediaType = item['mediaType'];
  const keys = Object.keys(item).sort().join(',');
  if (type === 'text') return readText(item, place);
  if ((type === 'image-data' || type === 'media') && typeof mediaType === 'string' && mediaType.startsWith('image/')) {
    if (keys === 'data,mediaType,type' || keys === 'data,mediaType,providerOptions,type') {
      return {
        type: 'image',
        data: expectString(item, 'data', place.where, place.path),
        mimeType: mediaType,
        ...withData({ item: type, providerOptions: options(item) }),
      };
    }
  }
  if (type === 'image-url' && (keys === 'type,url' || keys === 'providerOptions,type,url')) {
    return {
      type: 'image',
      data: expectString(item, 'url', place.where, place.path),
      mimeType: 'image/*',
      ...withData({ item: type, providerOptions: options(item) }),
    };
  }
  return passthrough(item, place);
}

function readToolResult(part: WireObject, place: Place): ToolResultMessage {
  const toolCallId = expectString(part, 'toolCallId', place.where, place.path, true);
  const toolName = expectString(part, 'toolName', place.where, place.path);
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
      providerOptions: options(part),
    }),
  };
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
    if (expectString(part, 'type', where, place.path) === 'tool-result') return readToolResult(part, place);
    const carried: UserMessage = { role: 'user', content: [passthrough(part, place)] };
    return withMessageData(carried, { role: 'tool' });
  });
  if (out.length === 0) {
    return [
      withMessageData({ role: 'user', content: [] } as UserMessage, { role: 'tool', messageOptions: options(message) }),
    ];
  }
  out[0] = withMessageData(out[0]!, { toolMessage: separate ? 'new' : undefined, messageOptions: options(message) });
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
          withMessageData({ role: 'user', content }, { role: 'system', providerOptions: options(message) }),
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
  return withMessageData(user, { providerOptions: options(message) });
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
    providerOptions: options(message),
  });
}
