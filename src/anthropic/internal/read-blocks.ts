import type { ImageContent, TextContent, ThinkingContent, ToolCall } from '../../types.js';
import { passthroughPart } from './passthrough.js';
import { unmodeledFields, withProviderData } from './provider-data.js';
import { expectObject, expectString, invalid, type WireObject } from './wire-object.js';

// Wire blocks to ctxkit parts (the `from` direction). Every field ctxkit does not model stays in the
// part's `providerData.anthropic`, so `toAnthropic` rebuilds the block exactly.

/** Where a block is, for error messages. @internal */
export interface BlockPlace {
  where: string;
  path: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A text block. @internal */
export function readText(block: WireObject, place: BlockPlace): TextContent {
  const text = expectString(block, 'text', place.where, place.path);
  return { type: 'text', text, ...withProviderData(unmodeledFields(block, ['type', 'text'])) };
}

/** Whether `source` has exactly the keys and types ctxkit models (base64 or URL). */
function modeledSource(source: unknown): source is WireObject {
  if (!isPlainObject(source)) return false;
  const keys = Object.keys(source).sort().join(',');
  if (source['type'] === 'base64') {
    return (
      keys === 'data,media_type,type' && typeof source['data'] === 'string' && typeof source['media_type'] === 'string'
    );
  }
  return source['type'] === 'url' && keys === 'type,url' && typeof source['url'] === 'string';
}

/**
 * An image block. Base64 and URL sources are modeled (`data` holds the base64 or the URL); any other
 * source (a file id) stays in `providerData` and the part counts as an image.
 *
 * @internal
 */
export function readImage(block: WireObject, place: BlockPlace): ImageContent {
  const source = block['source'];
  if (!isPlainObject(source)) invalid(place.where, `${place.path}.source`, 'must be an object');
  if (modeledSource(source)) {
    const image: ImageContent =
      source['type'] === 'base64'
        ? { type: 'image', data: source['data'] as string, mimeType: source['media_type'] as string }
        : { type: 'image', data: source['url'] as string, mimeType: 'image/*' };
    return { ...image, ...withProviderData(unmodeledFields(block, ['type', 'source'])) };
  }
  const id = typeof source['file_id'] === 'string' ? source['file_id'] : '';
  return { type: 'image', data: id, mimeType: 'image/*', ...withProviderData(unmodeledFields(block, ['type'])) };
}

/** A thinking or redacted-thinking block. @internal */
export function readThinking(block: WireObject, place: BlockPlace): ThinkingContent {
  if (block['type'] === 'redacted_thinking') {
    const data = expectString(block, 'data', place.where, place.path);
    return {
      type: 'thinking',
      thinking: '',
      signature: data,
      redacted: true,
      ...withProviderData(unmodeledFields(block, ['type', 'data'])),
    };
  }
  const thinking = expectString(block, 'thinking', place.where, place.path);
  const signature = expectString(block, 'signature', place.where, place.path);
  return {
    type: 'thinking',
    thinking,
    signature,
    ...withProviderData(unmodeledFields(block, ['type', 'thinking', 'signature'])),
  };
}

/** A `tool_use` block. An input that is not an object is kept as it was in `providerData`. @internal */
export function readToolUse(block: WireObject, place: BlockPlace): ToolCall {
  const id = expectString(block, 'id', place.where, place.path, true);
  const name = expectString(block, 'name', place.where, place.path);
  const input = block['input'];
  const modeled = isPlainObject(input) ? ['type', 'id', 'name', 'input'] : ['type', 'id', 'name'];
  return {
    type: 'toolCall',
    id,
    name,
    arguments: isPlainObject(input) ? input : {},
    ...withProviderData(unmodeledFields(block, modeled)),
  };
}

/** The parts of an assistant turn. @internal */
export function readAssistantBlock(value: unknown, place: BlockPlace): TextContent | ThinkingContent | ToolCall {
  const block = expectObject(value, place.where, place.path);
  const type = expectString(block, 'type', place.where, place.path);
  switch (type) {
    case 'text':
      return readText(block, place);
    case 'thinking':
    case 'redacted_thinking':
      return readThinking(block, place);
    case 'tool_use':
      return readToolUse(block, place);
    default:
      return passthroughPart(block);
  }
}

/** A block of user content or of a tool result's content (not a `tool_result` itself). @internal */
export function readUserBlock(block: WireObject, place: BlockPlace): TextContent | ImageContent {
  switch (block['type']) {
    case 'text':
      return readText(block, place);
    case 'image':
      return readImage(block, place);
    default:
      return passthroughPart(block);
  }
}
