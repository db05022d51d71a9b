import { expectObject, expectStringField, invalid, type WireObject } from '../../internal/wire-object.js';
import type { ImageContent, TextContent, ThinkingContent, ToolCall } from '../../types.js';
import { encodeData, untagFileData } from './data-content.js';
import { withData } from './provider-data.js';

// The parts of AI SDK user and assistant messages as ctxkit content. Every field ctxkit does not
// model goes to `providerData['ai-sdk']` so the writer rebuilds the part exactly.

/** Where a part sits, for the error naming it: the function called and the path in its input. @internal */
export interface Place {
  where: string;
  path: string;
}

/** A wire object's `providerOptions`. @internal */
export function providerOptionsOf(object: WireObject): unknown {
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
export function passthrough(part: WireObject, place: Place): TextContent {
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
export function readText(part: WireObject, place: Place): TextContent {
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
export function readUserPart(value: unknown, place: Place): TextContent | ImageContent {
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
export function readAssistantPart(value: unknown, place: Place): TextContent | ThinkingContent | ToolCall {
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
