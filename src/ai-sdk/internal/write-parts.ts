import type { WireObject } from '../../internal/wire-object.js';
import type { ImageContent, TextContent, ThinkingContent, ToolCall } from '../../types.js';
import { decodeData, isHttpUrl, parseDataUrl, tagFileData } from './data-content.js';
import { dataOf } from './provider-data.js';
import { describePart } from './read-parts.js';

// ctxkit content as the parts of AI SDK user and assistant messages, restoring what the reader
// carried in `providerData['ai-sdk']`.

/** Which AI SDK format to write. @internal */
export type Format = 'model' | 'prompt';

/** Records a warning about the message being written. @internal */
export type Warn = (message: string) => void;

/** `{ providerOptions }` when there are any. @internal */
export function withOptions(value: unknown): { providerOptions?: unknown } {
  return value === undefined ? {} : { providerOptions: value };
}

/** The part a text part carried, if it is still the untouched placeholder. @internal */
export function carriedPart(part: TextContent): WireObject | undefined {
  const data = dataOf(part);
  const carried = data['part'];
  if (typeof carried !== 'object' || carried === null || describePart(carried as WireObject) !== part.text)
    return undefined;
  const restored = { ...(carried as WireObject) };
  const kind = data['data'];
  if (kind === undefined) return restored;
  const value = restored['data'];
  if (typeof value === 'string') restored['data'] = decodeData(value, kind);
  else if (typeof value === 'object' && value !== null) {
    // Tagged file data (`ai` 7): the bytes or URL inside the tag.
    const tagged = value as WireObject;
    const tag = tagged['type'] === 'url' ? 'url' : 'data';
    restored['data'] = { ...tagged, [tag]: decodeData(String(tagged[tag]), kind) };
  }
  return restored;
}

/** A text part, or the part it carried; nothing (with a warning) for blank text. @internal */
export function writeText(part: TextContent, warn: Warn): WireObject | undefined {
  const carried = carriedPart(part);
  if (carried !== undefined) return carried;
  if (part.text.trim().length === 0) {
    warn('dropped an empty or blank text part (providers reject them)');
    return undefined;
  }
  if (dataOf(part)['part'] !== undefined) warn('a carried part was changed after conversion, so it is sent as text');
  return { type: 'text', text: part.text, ...withOptions(dataOf(part)['providerOptions']) };
}

/** An image part (`'model'`), or a file part (`'prompt'`, or an image that came as a file). @internal */
export function writeImage(part: ImageContent, format: Format): WireObject {
  const data = dataOf(part);
  const options = withOptions(data['providerOptions']);
  const dataUrl = data['data'] === undefined ? parseDataUrl(part.data) : undefined;
  if (format === 'prompt' || data['part'] === 'file') {
    let content: unknown = decodeData(part.data, data['data']);
    let mediaType = part.mimeType;
    if (format === 'prompt' && typeof content === 'string') {
      if (dataUrl) {
        content = dataUrl.base64;
        mediaType = dataUrl.mediaType;
      } else if (isHttpUrl(content)) content = new URL(content);
    }
    return {
      type: 'file',
      data: tagFileData(content, data['tag']),
      mediaType,
      ...(data['filename'] === undefined ? {} : { filename: data['filename'] }),
      ...options,
    };
  }
  return {
    type: 'image',
    image: decodeData(part.data, data['data']),
    ...(data['mediaType'] === 'absent' ? {} : { mediaType: part.mimeType }),
    ...options,
  };
}

/** A reasoning part's Anthropic signature or redacted data, where `@ai-sdk/anthropic` reads them. */
function anthropicSignature(options: unknown): { signature?: unknown; redactedData?: unknown } | undefined {
  if (typeof options !== 'object' || options === null) return undefined;
  const anthropic = (options as Record<string, unknown>)['anthropic'];
  return typeof anthropic === 'object' && anthropic !== null ? anthropic : undefined;
}

/**
 * Thinking as a reasoning part. A ctxkit signature (thinking read from Anthropic's own format) goes
 * where `@ai-sdk/anthropic` reads it, unless the part's provider options already carry one.
 *
 * @internal
 */
export function writeThinking(part: ThinkingContent): WireObject {
  const options = dataOf(part)['providerOptions'];
  const anthropic = anthropicSignature(options);
  if (part.signature === undefined || anthropic?.signature !== undefined || anthropic?.redactedData !== undefined) {
    return { type: 'reasoning', text: part.thinking, ...withOptions(options) };
  }
  const signed = part.redacted ? { redactedData: part.signature } : { signature: part.signature };
  const providerOptions = {
    ...(options as Record<string, unknown> | undefined),
    anthropic: { ...anthropic, ...signed },
  };
  return { type: 'reasoning', text: part.thinking, providerOptions };
}

/**
 * Whether a written reasoning part carries a signature a provider sends back (Anthropic's signature
 * or redacted data). `@ai-sdk/anthropic` drops unsigned reasoning, and an assistant turn of nothing
 * else would go out empty.
 *
 * @internal
 */
export function isSignedReasoning(part: WireObject): boolean {
  const anthropic = anthropicSignature(part['providerOptions']);
  return typeof anthropic?.signature === 'string' || typeof anthropic?.redactedData === 'string';
}

/** A tool call, with its input as it came when it was not an object. @internal */
export function writeToolCall(part: ToolCall): WireObject {
  const data = dataOf(part);
  const input = data['input'] as { value?: unknown } | undefined;
  return {
    type: 'tool-call',
    toolCallId: part.id,
    toolName: part.name,
    input: input !== undefined && 'value' in input ? input.value : part.arguments,
    ...(data['providerExecuted'] === undefined ? {} : { providerExecuted: data['providerExecuted'] }),
    ...withOptions(data['providerOptions']),
  };
}
