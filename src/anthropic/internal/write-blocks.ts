import type { ImageContent, Message, ProviderData, TextContent, ThinkingContent, ToolCall } from '../../types.js';
import { hadPassthrough, passthroughBlock } from './passthrough.js';
import { anthropicData } from './provider-data.js';
import type { WireObject } from './wire-object.js';

// ctxkit parts and tool results as Anthropic blocks (the `to` direction), restoring what the reader
// kept in `providerData.anthropic`; what the API would reject is dropped with a warning.

/** Records a warning about the message being written. @internal */
export type Warn = (message: string) => void;

const MEDIA_TYPES = new Set<string>(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

function extras(part: { providerData?: ProviderData }, without?: string): WireObject {
  const data = anthropicData(part);
  if (data === undefined) return {};
  if (without === undefined || !(without in data)) return data;
  const { [without]: _, ...rest } = data;
  return rest;
}

function writeText(part: TextContent, warn: Warn): WireObject | undefined {
  const carried = passthroughBlock(part);
  if (carried !== undefined) return carried;
  if (part.text.trim().length === 0) {
    warn('dropped an empty or blank text block (the API rejects them)');
    return undefined;
  }
  if (hadPassthrough(part)) {
    warn('a carried block was changed after conversion (its text was edited), so it is sent as text');
    return { type: 'text', text: part.text };
  }
  return { ...extras(part), type: 'text', text: part.text };
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

function writeImage(part: ImageContent, warn: Warn): WireObject {
  let source: WireObject;
  const dataUrl = DATA_URL.exec(part.data);
  if (/^https?:\/\//i.test(part.data)) source = { type: 'url', url: part.data };
  else if (dataUrl) source = { type: 'base64', media_type: dataUrl[1], data: dataUrl[2] };
  else source = { type: 'base64', media_type: part.mimeType, data: part.data };
  const block = { type: 'image', source, ...extras(part) };
  const sent = block.source as WireObject;
  if (sent['type'] === 'base64' && !MEDIA_TYPES.has(String(sent['media_type']))) {
    warn(`an image of type ${String(sent['media_type'])} is not one the API accepts (jpeg, png, gif, webp)`);
  }
  return block;
}

function writeThinking(part: ThinkingContent, warn: Warn): WireObject | undefined {
  if (part.signature === undefined) {
    warn(
      'dropped thinking without a signature (from another provider): Anthropic accepts only its own signed thinking',
    );
    return undefined;
  }
  if (part.redacted) return { type: 'redacted_thinking', data: part.signature, ...extras(part) };
  return { type: 'thinking', thinking: part.thinking, signature: part.signature, ...extras(part) };
}

function writeToolCall(part: ToolCall): WireObject {
  return { type: 'tool_use', id: part.id, name: part.name, input: part.arguments, ...extras(part) };
}

/** A part of an assistant message as its block; nothing (with a warning) for what the API rejects. @internal */
export function writeAssistantPart(part: TextContent | ThinkingContent | ToolCall, warn: Warn): WireObject | undefined {
  switch (part.type) {
    case 'text':
      return writeText(part, warn);
    case 'thinking':
      return writeThinking(part, warn);
    case 'toolCall':
      return writeToolCall(part);
  }
}

/** The parts of a user message (or a tool result's content) as blocks, without those the API rejects. @internal */
export function writeUserParts(parts: readonly (TextContent | ImageContent)[], warn: Warn): WireObject[] {
  const blocks: WireObject[] = [];
  for (const part of parts) {
    const block = part.type === 'text' ? writeText(part, warn) : writeImage(part, warn);
    if (block !== undefined) blocks.push(block);
  }
  return blocks;
}

/** A tool result as a `tool_result` block. @internal */
export function writeToolResult(message: Extract<Message, { role: 'toolResult' }>, warn: Warn): WireObject {
  const data = anthropicData(message);
  const [first, ...others] = message.content;
  let content: WireObject = {};
  if (data?.['content'] === 'string' && first?.type === 'text' && others.length === 0 && !first.providerData) {
    content = { content: first.text };
  } else {
    const blocks = writeUserParts(message.content, warn);
    if (blocks.length > 0 || data?.['content'] === 'empty') content = { content: blocks };
  }
  const fields = data?.['fields'];
  return {
    type: 'tool_result',
    tool_use_id: message.toolCallId,
    ...content,
    ...(message.isError === undefined ? {} : { is_error: message.isError }),
    ...(typeof fields === 'object' && fields !== null ? (fields as WireObject) : {}),
  };
}
