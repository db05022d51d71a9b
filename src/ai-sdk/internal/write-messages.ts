import { ContextError } from '../../errors.js';
import type { WireObject } from '../../internal/wire-object.js';
import type { ImageContent, Message, TextContent, ThinkingContent, ToolCall, ToolResultMessage } from '../../types.js';
import { assertMessage as assertWellFormed } from '../../validation/assert-messages.js';
import type { ConversionWarning } from '../message-types.js';
import { decodeData, isHttpUrl, parseDataUrl, tagFileData } from './data-content.js';
import { dataOf } from './provider-data.js';
import { DENIED_TEXT, describePart } from './read-messages.js';

// ctxkit messages to AI SDK messages (the `to` direction), in either format: `'model'` writes
// `ModelMessage`s, `'prompt'` the provider-level prompt (arrays only, media as file parts).

const checked = new WeakSet<object>();

function assertMessage(message: unknown, index: number, where: string): asserts message is Message {
  if (typeof message === 'object' && message !== null && checked.has(message)) return;
  assertWellFormed(message, where, index);
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

// ctxkit content as the parts of AI SDK user and assistant messages, restoring what the reader
// carried in `providerData['ai-sdk']`.

/** Which AI SDK format to write. @internal */
type Format = 'model' | 'prompt';

/** Records a warning about the message being written. @internal */
type Warn = (message: string) => void;

/** `{ providerOptions }` when there are any. @internal */
function withOptions(value: unknown): { providerOptions?: unknown } {
  return value === undefined ? {} : { providerOptions: value };
}

/** The part a text part carried, if it is still the untouched placeholder. @internal */
function carriedPart(part: TextContent): WireObject | undefined {
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
function writeText(part: TextContent, warn: Warn): WireObject | undefined {
  const carried = carriedPart(part);
  if (carried !== undefined) return carried;
  if (part.text.trim().length === 0) {
    warn('dropped an empty or blank text part (providers reject them)');
    return undefined;
  }
  if (dataOf(part)['part'] !== undefined) warn('a carried part was changed after conversion, so it is sent as text');
  return { type: 'text', text: part.text, ...withOptions(dataOf(part)['providerOptions']) };
}

/**
 * A ctxkit image as a `file` part with its image/* media type, which both majors send as an image
 * (`ai` 7 deprecates the `image` part of a user message). Only an image read from the host's own
 * `image` part goes back as one, so `toModelMessages(fromModelMessages(x))` gives `x` again.
 *
 * @internal
 */
function writeImage(part: ImageContent, format: Format): WireObject {
  const data = dataOf(part);
  const options = withOptions(data['providerOptions']);
  const dataUrl = data['data'] === undefined ? parseDataUrl(part.data) : undefined;
  if (format === 'prompt' || data['part'] !== 'image') {
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
function writeThinking(part: ThinkingContent): WireObject {
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
function isSignedReasoning(part: WireObject): boolean {
  const anthropic = anthropicSignature(part['providerOptions']);
  return typeof anthropic?.signature === 'string' || typeof anthropic?.redactedData === 'string';
}

/** A tool call, with its input as it came when it was not an object. @internal */
function writeToolCall(part: ToolCall): WireObject {
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

// A ctxkit tool result as a `tool-result` part: its content in the tagged output it came in, when
// that output still says the same.

function writeContentItem(part: TextContent | ImageContent, warn: Warn): WireObject | undefined {
  if (part.type === 'text') {
    const carried = carriedPart(part);
    if (carried !== undefined) return carried;
    return { type: 'text', text: part.text, ...withOptions(dataOf(part)['providerOptions']) };
  }
  const data = dataOf(part);
  const options = withOptions(data['providerOptions']);
  const item = data['item'];
  if (item === 'image-url' || (item === undefined && isHttpUrl(part.data)))
    return { type: 'image-url', url: part.data, ...options };
  const parsed = parseDataUrl(part.data);
  if (parsed) return { type: 'image-data', data: parsed.base64, mediaType: parsed.mediaType, ...options };
  if (!part.mimeType.startsWith('image/') || part.mimeType === 'image/*') {
    warn(`an image of type ${part.mimeType} was sent as image data; its media type may be rejected`);
  }
  // An image that came as a `media` item (deprecated in `ai` 6, gone in 7) leaves as `image-data`,
  // which both majors accept.
  return { type: 'image-data', data: part.data, mediaType: part.mimeType, ...options };
}

function writeOutput(message: ToolResultMessage, warn: Warn): WireObject {
  const data = dataOf(message);
  const output = (data['output'] ?? {}) as WireObject;
  const options = withOptions(output['providerOptions']);
  const type = output['type'];
  const hasImage = message.content.some((part) => part.type === 'image');
  const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  if (type === 'carried' && message.content.length === 1 && message.content[0]!.type === 'text') {
    const carried = carriedPart(message.content[0] as TextContent);
    if (carried !== undefined) return carried;
  }
  if (type === 'content' || hasImage) {
    const value = message.content.flatMap((part) => writeContentItem(part, warn) ?? []);
    return { type: 'content', value, ...options };
  }
  if (type === 'json' || type === 'error-json') {
    try {
      return { type, value: JSON.parse(text), ...options };
    } catch {
      warn('a JSON tool output was changed (truncated or summarized), so it is sent as text');
    }
  }
  if (type === 'execution-denied' && (output['reason'] !== 'absent' || text === DENIED_TEXT)) {
    return { type, ...(output['reason'] === 'absent' ? {} : { reason: text }), ...options };
  }
  return { type: message.isError ? 'error-text' : 'text', value: text, ...options };
}

/** A tool result as a `tool-result` part. @internal */
function writeToolResult(message: ToolResultMessage, warn: Warn): WireObject {
  return {
    type: 'tool-result',
    toolCallId: message.toolCallId,
    toolName: message.toolName,
    output: writeOutput(message, warn),
    ...withOptions(dataOf(message)['providerOptions']),
  };
}
