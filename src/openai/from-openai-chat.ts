import {
  describe,
  expectArray,
  expectObject,
  expectString,
  invalid,
  isObject,
  type WireObject,
} from '../internal/wire-object.js';
import type {
  AssistantMessage,
  ImageContent,
  Message,
  StopReason,
  TextContent,
  ToolCall,
  Usage,
  UserMessage,
} from '../types.js';
import type {
  ChatMessageData,
  ChatPartData,
  ConversionWarning,
  OpenAIChatCompletion,
  OpenAIChatConversation,
  OpenAIChatMessageInput,
} from './chat-types.js';
import { fromOpenAIUsage } from './from-openai-usage.js';
import { imageFromUrl } from './internal/image-url.js';
import { instructionText } from './internal/instruction-text.js';
import { otherFields, placeholderPart, withData } from './internal/provider-data.js';
import { parseArguments } from './internal/tool-arguments.js';

const WHERE = 'fromOpenAIChat';
const ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'];

/**
 * What {@link fromOpenAIChat} returns: the conversation, and a sentence for each thing ctxkit could
 * not see as the wire said it (the round trip stays exact regardless).
 */
export interface FromOpenAIChatResult extends OpenAIChatConversation {
  /**
   * One warning per lossy spot: the index of the message in the input, and a sentence naming the
   * field; empty when none.
   */
  warnings: ConversionWarning[];
}

/**
 * Converts a Chat Completions message list (an `openai` SDK `ChatCompletionMessageParam[]`) into
 * ctxkit messages and the system prompt.
 *
 * - Leading `system` and `developer` messages become `systemPrompt` (their text joined by a blank
 *   line); one later in the list becomes a user message that is sent back with its own role.
 * - Assistant `tool_calls` become tool calls with parsed arguments; arguments that are not a JSON
 *   object are kept verbatim for the way back (ctxkit sees `{}`) and warned about. `tool` messages
 *   become tool results named after their call.
 * - Base64 `data:` image URLs become image data with its MIME type; other URLs stay URLs.
 * - Whatever ctxkit does not model (names, refusals, audio, files, `detail`, the exact spelling of
 *   content and arguments, unknown future fields) goes to `providerData.openai.chat` on the message
 *   or part, so {@link toOpenAIChat} rebuilds the input exactly: `toOpenAIChat(fromOpenAIChat(x))`
 *   deep-equals `x`.
 *
 * @param messages - The request's messages, as `openai` 6 or 7 types them.
 * @returns The system prompt, the messages and the warnings.
 * @throws `ContextError` with code `INPUT_INVALID` when the input is not a list of Chat
 * Completions messages (the index and field are named).
 *
 * @example
 * ```ts
 * const { systemPrompt, messages } = fromOpenAIChat(history);
 * const { messages: prepared } = await manager.prepare(messages);
 * const request = toOpenAIChat({ systemPrompt, messages: prepared });
 * await client.chat.completions.create({ model, messages: request.messages });
 * ```
 */
export function fromOpenAIChat(messages: readonly OpenAIChatMessageInput[]): FromOpenAIChatResult {
  const list = expectArray(messages, WHERE, 'messages');
  const warnings: ConversionWarning[] = [];
  // The sentences about the message being read, filed under its index once it is read.
  const notes: string[] = [];
  const output: Message[] = [];
  const toolNames = new Map<string, string>();
  let index = 0;
  const system: WireObject[] = [];
  for (; index < list.length; index++) {
    const message = expectMessage(list[index], index);
    if (message.role !== 'system' && message.role !== 'developer') break;
    system.push(message);
  }
  for (; index < list.length; index++) {
    const message = expectMessage(list[index], index);
    const path = `messages[${index}]`;
    switch (message.role) {
      case 'system':
      case 'developer':
        output.push(instructionMessage(message, path));
        break;
      case 'user':
        output.push(userMessage(message, path, notes));
        break;
      case 'assistant': {
        const assistant = assistantMessage(message, path, notes);
        for (const part of assistant.content) if (part.type === 'toolCall') toolNames.set(part.id, part.name);
        output.push(assistant);
        break;
      }
      case 'tool': {
        const toolCallId = expectString(message.tool_call_id, WHERE, `${path}.tool_call_id`);
        const toolName = toolNames.get(toolCallId);
        if (toolName === undefined)
          notes.push(`${path} answers tool call '${toolCallId}', which no earlier message made.`);
        const { parts, spelledAsParts } = textParts(message.content, `${path}.content`);
        const data: ChatMessageData = {
          fields: otherFields(message, ['role', 'content', 'tool_call_id']),
          content: spelledAsParts ? 'parts' : undefined,
        };
        output.push({
          role: 'toolResult',
          toolCallId,
          toolName: toolName ?? 'unknown',
          content: parts,
          ...withData('chat', data),
        });
        break;
      }
      case 'function': {
        notes.push(`${path} is a legacy function message; it is kept as a user message and not paired with a call.`);
        const content = message.content;
        if (content !== null && typeof content !== 'string') {
          invalid(WHERE, `${path}.content`, `must be a string or null, received ${describe(content)}.`);
        }
        const data: ChatMessageData = {
          role: 'function',
          fields: otherFields(message, ['role', 'content']),
          content: content === null ? 'null' : undefined,
        };
        output.push({ role: 'user', content: content ?? '', ...withData('chat', data) });
        break;
      }
    }
    for (const note of notes.splice(0)) warnings.push({ index, message: note });
  }
  return { ...systemPrompt(system), messages: output, warnings };
}

function expectMessage(value: unknown, index: number): WireObject & { role: string } {
  const message = expectObject(value, WHERE, `messages[${index}]`, ' Each message needs a role and content.');
  if (typeof message.role !== 'string' || !ROLES.includes(message.role)) {
    invalid(
      WHERE,
      `messages[${index}].role`,
      `must be one of ${ROLES.join(', ')}; received ${describe(message.role)}.`,
    );
  }
  return message as WireObject & { role: string };
}

function systemPrompt(system: WireObject[]): Pick<OpenAIChatConversation, 'systemPrompt' | 'providerData'> {
  if (system.length === 0) return {};
  for (const [index, message] of system.entries()) instructionParts(message.content, `messages[${index}].content`);
  const text = system.map((message) => instructionText(message.content)).join('\n\n');
  const [first] = system;
  const plain =
    system.length === 1 &&
    first!.role === 'system' &&
    typeof first!.content === 'string' &&
    first!.content !== '' &&
    Object.keys(first!).length === 2;
  return { systemPrompt: text, ...(plain ? {} : withData('chat', { system })) };
}

/**
 * Options of {@link readOpenAIChatCompletion} and {@link readOpenAIResponse}.
 *
 * @example
 * ```ts
 * readOpenAIChatCompletion(completion, { provider: 'openrouter', onWarning: ({ message }) => console.warn(message) });
 * ```
 */
export interface ReadOpenAIResponseOptions {
  /**
   * The provider name recorded on the message (for an OpenAI-compatible server).
   * @default 'openai'
   */
  provider?: string;
  /**
   * Receives each thing ctxkit could not see as the wire said it (an audio reply referred to by its
   * id, arguments that are not a JSON object, an output item ctxkit does not model), with `index`
   * the choice's message (0) or the output item. The message is exact without it: nothing is lost.
   * @default undefined (the warnings are not reported)
   */
  onWarning?: (warning: ConversionWarning) => void;
}

/**
 * Options of {@link fromOpenAIChatCompletion} and {@link fromOpenAIResponse}.
 *
 * @deprecated Use {@link ReadOpenAIResponseOptions} with {@link readOpenAIChatCompletion} or
 * {@link readOpenAIResponse}.
 *
 * @example
 * ```ts
 * fromOpenAIChatCompletion(completion, { provider: 'openrouter' });
 * ```
 */
export interface FromOpenAIResponseOptions {
  /**
   * The provider name recorded on the message (for an OpenAI-compatible server).
   * @default 'openai'
   */
  provider?: string;
}

/**
 * The assistant turn of one OpenAI response in ctxkit's terms, as the deprecated
 * {@link fromOpenAIChatCompletion} and {@link fromOpenAIResponse} return it.
 *
 * @deprecated {@link readOpenAIChatCompletion} and {@link readOpenAIResponse} return the message
 * itself, which carries the usage, stop reason, provider and model.
 *
 * @example
 * ```ts
 * const { message, usage, stopReason }: OpenAIResponseResult = fromOpenAIChatCompletion(completion);
 * ```
 */
export interface OpenAIResponseResult {
  /** The assistant message, with `usage`, `stopReason`, `provider` and `model` set: append it to the history. */
  message: AssistantMessage;
  /** The usage mapped by {@link fromOpenAIUsage}; `undefined` when the response has none. */
  usage: Usage | undefined;
  stopReason: StopReason;
  provider: string;
  model: string;
  /** One sentence per lossy spot; empty when none. */
  warnings: string[];
}

/** The deprecated result object: the message `read` gives, with its warnings collected as sentences. @internal */
export function responseResult(
  read: (options: ReadOpenAIResponseOptions) => AssistantMessage,
  options: FromOpenAIResponseOptions,
): OpenAIResponseResult {
  const warnings: string[] = [];
  const message = read({ ...options, onWarning: (warning) => warnings.push(warning.message) });
  const { usage, stopReason = 'stop', provider = 'openai', model = '' } = message;
  return { message, usage, stopReason, provider, model, warnings };
}

/**
 * Maps a Chat Completions finish reason to ctxkit's stop reason: `stop` → `stop`, `length` → `length`,
 * `tool_calls` and `function_call` → `toolUse`, `content_filter` → `error` (the output was cut by
 * the provider's filter, so the turn is not sent back), anything else → `stop`.
 */
function stopReasonOf(reason: unknown): { stopReason: StopReason; errorMessage?: string } {
  switch (reason) {
    case 'length':
      return { stopReason: 'length' };
    case 'tool_calls':
    case 'function_call':
      return { stopReason: 'toolUse' };
    case 'content_filter':
      return { stopReason: 'error', errorMessage: 'The response was stopped by the content filter.' };
    default:
      return { stopReason: 'stop' };
  }
}

/**
 * Reads a Chat Completions response (the `openai` SDK's `ChatCompletion`) as the assistant message
 * to append to the history. The message carries the response's `usage`, `stopReason`, `provider`
 * and `model`, so it is what the manager's callback returns: the manager counts the context from
 * that usage once the message is in the history it is given, with no `recordUsage` call.
 *
 * The message is the one {@link fromOpenAIChat} makes of the choice's message as a request would
 * carry it: `annotations` are kept in `providerData` but not sent back, the audio is referred to by
 * its id, and a `refusal: null` is dropped. Usage follows {@link fromOpenAIUsage}: `input` is
 * `prompt_tokens - cached_tokens`, `cacheRead` is `cached_tokens`. Finish reasons: `length` →
 * `length`, `tool_calls` → `toolUse`, `content_filter` → `error` (never sent back), else `stop`.
 *
 * @param completion - The response; its first choice is used.
 * @param options - The provider name to record, and where warnings go.
 * @returns The assistant message, with its usage, stop reason, provider and model.
 * @throws `ContextError` with code `INPUT_INVALID` when the response has no choice or its message
 * is malformed (the field is named).
 *
 * @example
 * ```ts
 * const { result, history: kept } = await manager.runWithOverflowRecovery(history, async (messages) => {
 *   const { messages: wire } = toOpenAIChat({ systemPrompt, messages });
 *   return readOpenAIChatCompletion(await client.chat.completions.create({ model, tools, messages: wire }));
 * });
 * history = [...kept, result];
 * ```
 */
export function readOpenAIChatCompletion(
  completion: OpenAIChatCompletion,
  options: ReadOpenAIResponseOptions = {},
): AssistantMessage {
  return readCompletion(completion, options, 'readOpenAIChatCompletion');
}

/**
 * Converts a Chat Completions response into the assistant message and its metadata.
 *
 * @deprecated Use {@link readOpenAIChatCompletion}, which returns the message itself (with its
 * usage, stop reason, provider and model on it) and reports warnings as `{ index, message }`
 * objects through `onWarning`. `fromOpenAIChatCompletion(completion).message` deep-equals
 * `readOpenAIChatCompletion(completion)`.
 *
 * @param completion - The response; its first choice is used.
 * @param options - The provider name to record.
 * @returns The message, usage, stop reason, provider, model and warnings (as sentences).
 * @throws `ContextError` with code `INPUT_INVALID` when the response has no choice or its message
 * is malformed (the field is named).
 *
 * @example
 * ```ts
 * const { message } = fromOpenAIChatCompletion(completion);
 * history.push(message);
 * ```
 */
export function fromOpenAIChatCompletion(
  completion: OpenAIChatCompletion,
  options: FromOpenAIResponseOptions = {},
): OpenAIResponseResult {
  return responseResult((read) => readCompletion(completion, read, 'fromOpenAIChatCompletion'), options);
}

function readCompletion(
  completion: OpenAIChatCompletion,
  options: ReadOpenAIResponseOptions,
  where: string,
): AssistantMessage {
  const response = expectObject(completion, where, 'completion');
  const choices = expectArray(response.choices, where, 'completion.choices');
  if (choices.length === 0) invalid(where, 'completion.choices', 'is empty; there is no message to convert.');
  const choice = expectObject(choices[0], where, 'completion.choices[0]');
  const { annotations, audio, refusal, ...wire } = expectObject(choice.message, where, 'completion.choices[0].message');
  if (wire.role !== 'assistant') {
    invalid(where, 'completion.choices[0].message.role', `must be 'assistant', received ${describe(wire.role)}.`);
  }
  const param: WireObject = { ...wire, ...(refusal == null ? {} : { refusal }) };
  const warnings: string[] = [];
  if (isObject(audio)) {
    param.audio = { id: audio.id };
    warnings.push(
      'completion.choices[0].message.audio is referred to by its id; its data and transcript are not kept.',
    );
  }
  const converted = fromOpenAIChat([param as never]);
  warnings.push(
    ...converted.warnings.map(({ message }) => message.replace('messages[0]', 'completion.choices[0].message')),
  );
  const message = converted.messages[0] as AssistantMessage;
  if (Array.isArray(annotations) && annotations.length > 0) {
    const openai = (message.providerData?.openai ?? {}) as { chat?: WireObject };
    message.providerData = { ...message.providerData, openai: { ...openai, chat: { ...openai.chat, annotations } } };
  }
  const usage =
    response.usage === undefined || response.usage === null ? undefined : fromOpenAIUsage(response.usage as never);
  const { stopReason, errorMessage } = stopReasonOf(choice.finish_reason);
  Object.assign(message, {
    ...(usage ? { usage } : {}),
    stopReason,
    ...(errorMessage ? { errorMessage } : {}),
    provider: options.provider ?? 'openai',
    model: typeof response.model === 'string' ? response.model : '',
  });
  for (const warning of warnings) options.onWarning?.({ index: 0, message: warning });
  return message;
}

// The messages of a Chat Completions list as ctxkit messages, for fromOpenAIChat: whatever ctxkit
// does not model goes to `providerData.openai.chat` on the message or part.

/** The function whose input this reads, named in its errors. */

/** Checks that system or developer content is a string or text parts. @internal */
function instructionParts(content: unknown, path: string): void {
  if (typeof content === 'string') return;
  expectArray(content, WHERE, path).forEach((part, index) => {
    const object = expectObject(part, WHERE, `${path}[${index}]`);
    expectString(object.text, WHERE, `${path}[${index}].text`);
  });
}

/** A system or developer message after the first user message, as a user message sent back with its role. @internal */
function instructionMessage(message: WireObject & { role: string }, path: string): UserMessage {
  instructionParts(message.content, `${path}.content`);
  const data: ChatMessageData = {
    role: message.role as 'system' | 'developer',
    fields: otherFields(message, ['role', 'content']),
  };
  const content =
    typeof message.content === 'string' ? message.content : textParts(message.content, `${path}.content`).parts;
  return { role: 'user', content, ...withData('chat', data) };
}

/** A user message: text, images, and audio or files carried as placeholders. @internal */
function userMessage(message: WireObject, path: string, warnings: string[]): UserMessage {
  const data: ChatMessageData = { fields: otherFields(message, ['role', 'content']) };
  if (typeof message.content === 'string') return { role: 'user', content: message.content, ...withData('chat', data) };
  const parts = expectArray(message.content, WHERE, `${path}.content`).map((part, index) =>
    userPart(expectObject(part, WHERE, `${path}.content[${index}]`), `${path}.content[${index}]`, warnings),
  );
  return { role: 'user', content: parts, ...withData('chat', data) };
}

function userPart(part: WireObject, path: string, warnings: string[]): TextContent | ImageContent {
  switch (part.type) {
    case 'text':
      return textPart(part, path);
    case 'image_url': {
      const image = expectObject(part.image_url, WHERE, `${path}.image_url`);
      const { opaque, ...source } = imageFromUrl(expectString(image.url, WHERE, `${path}.image_url.url`));
      const data: ChatPartData = {
        fields: otherFields(part, ['type', 'image_url']),
        image: otherFields(image, ['url']),
        opaque,
      };
      return { type: 'image', ...source, ...withData('chat', data) };
    }
    case 'input_audio':
      warnings.push(`${path} is audio; ctxkit carries it verbatim and counts it as a short placeholder.`);
      return placeholderPart('chat', 'audio input', part);
    case 'file': {
      const file = typeof part.file === 'object' && part.file !== null ? (part.file as WireObject) : {};
      warnings.push(`${path} is a file; ctxkit carries it verbatim and counts it as a short placeholder.`);
      return placeholderPart('chat', typeof file.filename === 'string' ? `file: ${file.filename}` : 'file', part);
    }
    default:
      warnings.push(`${path} has type ${describe(part.type)}, which ctxkit does not model; it is carried verbatim.`);
      return placeholderPart('chat', `${String(part.type)} part`, part);
  }
}

function textPart(part: WireObject, path: string): TextContent {
  const text = expectString(part.text, WHERE, `${path}.text`);
  return { type: 'text', text, ...withData('chat', { fields: otherFields(part, ['type', 'text']) }) };
}

/** Text-only content (`string | text part[]`) as ctxkit text parts. @internal */
function textParts(content: unknown, path: string): { parts: TextContent[]; spelledAsParts: boolean } {
  if (typeof content === 'string') return { parts: [{ type: 'text', text: content }], spelledAsParts: false };
  const parts = expectArray(content, WHERE, path).map((part, index) => {
    const object = expectObject(part, WHERE, `${path}[${index}]`);
    return object.type === 'text'
      ? textPart(object, `${path}[${index}]`)
      : placeholderPart('chat', `${String(object.type)} part`, object);
  });
  return { parts, spelledAsParts: true };
}

/** An assistant message: text, refusals, and tool calls with parsed arguments. @internal */
function assistantMessage(message: WireObject, path: string, warnings: string[]): AssistantMessage {
  const content: AssistantMessage['content'] = [];
  const data: ChatMessageData = {
    fields: otherFields(message, [
      'role',
      'content',
      'tool_calls',
      ...(typeof message.refusal === 'string' ? ['refusal'] : []),
    ]),
  };
  if (message.content === undefined) data.content = 'absent';
  else if (typeof message.content === 'string') content.push({ type: 'text', text: message.content });
  else if (message.content !== null) {
    // (null is how an assistant message without text is sent anyway, so it needs no note)
    data.content = 'parts';
    expectArray(message.content, WHERE, `${path}.content`).forEach((value, index) => {
      const partPath = `${path}.content[${index}]`;
      const part = expectObject(value, WHERE, partPath);
      if (part.type === 'refusal') {
        const text = expectString(part.refusal, WHERE, `${partPath}.refusal`);
        content.push({
          type: 'text',
          text,
          ...withData('chat', { refusal: 'part', fields: otherFields(part, ['type', 'refusal']) }),
        });
      } else if (part.type === 'text') content.push(textPart(part, partPath));
      else content.push(placeholderPart('chat', `${String(part.type)} part`, part));
    });
  }
  if (typeof message.refusal === 'string') {
    content.push({ type: 'text', text: message.refusal, ...withData('chat', { refusal: 'field' }) });
  }
  if (message.tool_calls !== undefined) {
    const calls = expectArray(message.tool_calls, WHERE, `${path}.tool_calls`);
    if (calls.length === 0) data.fields = { ...data.fields, tool_calls: [] };
    for (const [index, call] of calls.entries()) content.push(toolCall(call, `${path}.tool_calls[${index}]`, warnings));
  }
  if (isObject(data.fields) && 'function_call' in data.fields && data.fields.function_call != null) {
    warnings.push(
      `${path}.function_call is a legacy function call; it is carried verbatim and not paired with a result.`,
    );
  }
  return { role: 'assistant', content, ...withData('chat', data) };
}

function toolCall(value: unknown, path: string, warnings: string[]): ToolCall {
  const call = expectObject(value, WHERE, path);
  const id = expectString(call.id, WHERE, `${path}.id`);
  const fields = otherFields(call, ['id', 'type', 'function', 'custom']);
  if (call.type === 'custom') {
    const custom = expectObject(call.custom, WHERE, `${path}.custom`);
    const name = expectString(custom.name, WHERE, `${path}.custom.name`);
    const input = expectString(custom.input, WHERE, `${path}.custom.input`);
    const data: ChatPartData = { custom: true, fields, function: otherFields(custom, ['name', 'input']) };
    return { type: 'toolCall', id, name, arguments: { input }, ...withData('chat', data) };
  }
  if (call.type !== 'function') {
    invalid(WHERE, `${path}.type`, `must be 'function' or 'custom', received ${describe(call.type)}.`);
  }
  const fn = expectObject(call.function, WHERE, `${path}.function`);
  const name = expectString(fn.name, WHERE, `${path}.function.name`);
  const parsed = parseArguments(expectString(fn.arguments, WHERE, `${path}.function.arguments`));
  if (parsed.invalid) {
    warnings.push(`${path}.function.arguments is not a JSON object; it is sent back verbatim and ctxkit sees {}.`);
  }
  const data: ChatPartData = { fields, function: otherFields(fn, ['name', 'arguments']), arguments: parsed.raw };
  return { type: 'toolCall', id, name, arguments: parsed.arguments, ...withData('chat', data) };
}
