import type { AssistantMessage, ImageContent, TextContent, UserMessage } from '../../types.js';
import type { ResponsesMessageData, ResponsesPartData } from '../responses-data.js';
import { imageFromUrl } from './image-url.js';
import { otherFields, placeholderPart, withData } from './provider-data.js';
import { parseArguments } from './tool-arguments.js';
import { describe, expectArray, expectObject, expectString, type WireObject } from './wire-object.js';

// The items of a Responses input list as ctxkit messages and parts, for fromOpenAIResponses (and
// the output items of fromOpenAIResponse): whatever ctxkit does not model goes to
// `providerData.openai.responses` on the message or part.

/** The function whose input this reads, named in its errors. */
const WHERE = 'fromOpenAIResponses';

/** Whether an item is a message (typed `message`, or untyped with a role). @internal */
export function isMessage(item: WireObject): item is WireObject & { role: string } {
  return item.type === 'message' || (item.type == null && 'role' in item);
}

/** Checks that system or developer content is a string or text parts. @internal */
export function instructionContent(content: unknown, path: string): void {
  if (typeof content === 'string') return;
  expectArray(content, WHERE, path).forEach((part, index) => {
    const object = expectObject(part, WHERE, `${path}[${index}]`);
    if (object.type === 'input_text') expectString(object.text, WHERE, `${path}[${index}].text`);
  });
}

/** A user message (or a system or developer message after the first item, sent back with its role). @internal */
export function userMessage(item: WireObject & { role: string }, path: string, warnings: string[]): UserMessage {
  const role = item.role === 'system' || item.role === 'developer' ? item.role : undefined;
  const data: ResponsesMessageData = { role, fields: otherFields(item, ['role', 'content']) };
  if (typeof item.content === 'string') return { role: 'user', content: item.content, ...withData('responses', data) };
  const parts = expectArray(item.content, WHERE, `${path}.content`).map((part, index) =>
    inputPart(part, `${path}.content[${index}]`, warnings),
  );
  return { role: 'user', content: parts, ...withData('responses', data) };
}

/** An input part: text, an image, or a file or other part carried as a placeholder. @internal */
export function inputPart(value: unknown, path: string, warnings: string[]): TextContent | ImageContent {
  const part = expectObject(value, WHERE, path);
  if (part.type === 'input_text') {
    const text = expectString(part.text, WHERE, `${path}.text`);
    return { type: 'text', text, ...withData('responses', { fields: otherFields(part, ['type', 'text']) }) };
  }
  if (part.type === 'input_image' && typeof part.image_url === 'string') {
    const { opaque, ...source } = imageFromUrl(part.image_url);
    const data: ResponsesPartData = { fields: otherFields(part, ['type', 'image_url']), opaque };
    return { type: 'image', ...source, ...withData('responses', data) };
  }
  warnings.push(`${path} (${describe(part.type)}) is carried verbatim; ctxkit counts it as a short placeholder.`);
  const label =
    part.type === 'input_file' && typeof part.filename === 'string' ? `file: ${part.filename}` : String(part.type);
  return placeholderPart('responses', label, part);
}

/** The parts an assistant-side item becomes (`path` names it in errors and warnings). @internal */
export function assistantParts(item: WireObject, path: string, warnings: string[]): AssistantMessage['content'] {
  if (isMessage(item)) return messageParts(item, path);
  switch (item.type) {
    case 'function_call': {
      const id = expectString(item.call_id, WHERE, `${path}.call_id`);
      const name = expectString(item.name, WHERE, `${path}.name`);
      const parsed = parseArguments(expectString(item.arguments, WHERE, `${path}.arguments`));
      if (parsed.invalid)
        warnings.push(`${path}.arguments is not a JSON object; it is sent back verbatim and ctxkit sees {}.`);
      const data: ResponsesPartData = {
        item: otherFields(item, ['call_id', 'name', 'arguments']),
        arguments: parsed.raw,
      };
      return [{ type: 'toolCall', id, name, arguments: parsed.arguments, ...withData('responses', data) }];
    }
    case 'reasoning': {
      const summary = Array.isArray(item.summary) ? item.summary : [];
      const content = Array.isArray(item.content) ? item.content : [];
      const texts = (summary.length > 0 ? summary : content).map((part) =>
        typeof part?.text === 'string' ? part.text : '',
      );
      const thinking = texts.join('\n\n');
      const encrypted = typeof item.encrypted_content === 'string' ? item.encrypted_content : undefined;
      const data: ResponsesPartData = { item: otherFields(item, encrypted === undefined ? [] : ['encrypted_content']) };
      return [
        {
          type: 'thinking',
          thinking,
          ...(encrypted === undefined ? {} : { signature: encrypted }),
          ...(encrypted !== undefined && thinking === '' ? { redacted: true } : {}),
          ...withData('responses', data),
        },
      ];
    }
    default:
      warnings.push(`${path} (${describe(item.type)}) is carried verbatim; ctxkit counts it as a short placeholder.`);
      return [placeholderPart('responses', typeof item.type === 'string' ? item.type : 'item', item)];
  }
}

function messageParts(item: WireObject, path: string): TextContent[] {
  const fields = otherFields(item, ['content']);
  if (typeof item.content === 'string') {
    return [{ type: 'text', text: item.content, ...withData('responses', { item: fields, string: true }) }];
  }
  const content = expectArray(item.content, WHERE, `${path}.content`);
  if (content.length === 0) return [placeholderPart('responses', 'empty message', item)];
  return content.map((value, index) => {
    const part = expectObject(value, WHERE, `${path}.content[${index}]`);
    const refusal = part.type === 'refusal';
    const text = expectString(
      refusal ? part.refusal : part.text,
      WHERE,
      `${path}.content[${index}].${refusal ? 'refusal' : 'text'}`,
    );
    const data: ResponsesPartData = {
      ...(index === 0 ? { item: fields ?? {} } : { continues: true }),
      fields: otherFields(part, [refusal ? 'refusal' : 'text']),
      ...(refusal ? { refusal: true } : {}),
    };
    return { type: 'text', text, ...withData('responses', data) };
  });
}
