import type { WireObject } from '../../internal/wire-object.js';
import type { ImageContent, TextContent, ToolResultMessage } from '../../types.js';
import { isHttpUrl, parseDataUrl } from './data-content.js';
import { dataOf } from './provider-data.js';
import { DENIED_TEXT } from './read-tool-results.js';
import { carriedPart, type Warn, withOptions } from './write-parts.js';

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
export function writeToolResult(message: ToolResultMessage, warn: Warn): WireObject {
  return {
    type: 'tool-result',
    toolCallId: message.toolCallId,
    toolName: message.toolName,
    output: writeOutput(message, warn),
    ...withOptions(dataOf(message)['providerOptions']),
  };
}
