import { expectObject, expectStringField, invalid, type WireObject } from '../../internal/wire-object.js';
import type { ImageContent, TextContent, ToolResultMessage } from '../../types.js';
import { withData } from './provider-data.js';
import { type Place, passthrough, providerOptionsOf, readText } from './read-parts.js';

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
export function readToolResult(part: WireObject, place: Place): ToolResultMessage {
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
