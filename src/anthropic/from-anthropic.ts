import { expectObject, expectStringField, invalid, type WireObject } from '../internal/wire-object.js';
import type {
  AssistantMessage,
  ImageContent,
  Message,
  ProviderData,
  StopReason,
  TextContent,
  ThinkingContent,
  ToolCall,
  ToolResultMessage,
  Usage,
} from '../types.js';
import { passthroughPart, unmodeledFields, withProviderData } from './internal/provider-data.js';
import { compactionIterations } from './native-compaction.js';
import type {
  AnthropicMessageInput,
  AnthropicResponse,
  AnthropicTextBlockParam,
  AnthropicUsage,
  ConversionWarning,
} from './types.js';

/**
 * The request side of a Messages API call: the `system` parameter and the `messages`.
 *
 * @example
 * ```ts
 * const input: FromAnthropicInput = { system: 'You are a coding agent.', messages: [{ role: 'user', content: 'hi' }] };
 * ```
 */
export interface FromAnthropicInput {
  /** The `system` parameter, a string or text blocks. */
  system?: string | readonly AnthropicTextBlockParam[] | undefined;
  /** The conversation, as the SDK's `MessageParam[]`. */
  messages: readonly AnthropicMessageInput[];
}

/**
 * What {@link fromAnthropic} returns.
 *
 * @example
 * ```ts
 * const { systemPrompt, messages, warnings } = fromAnthropic({ system, messages: params });
 * ```
 */
export interface FromAnthropicResult {
  /** The system prompt as text (text blocks joined by a blank line); pass it to the manager for counting. */
  systemPrompt?: string;
  /** ctxkit messages: one per turn, with each `tool_result` split out as its own `toolResult` message. */
  messages: Message[];
  /** What could not be carried exactly (a `tool_result` whose `tool_use` is not in the input). */
  warnings: ConversionWarning[];
  /** The system blocks, when `system` was an array (their `cache_control`); pass it back to `toAnthropic`. */
  providerData?: ProviderData;
}

const WHERE = 'fromAnthropic';

/** The message-level data `toAnthropic` reads back. */
interface MessageData {
  role?: 'system';
  content?: 'string' | 'absent' | 'empty';
  /** Unmodeled fields of the turn (on its first ctxkit message). */
  turn?: WireObject;
  /** Unmodeled fields of a `tool_result` block. */
  fields?: WireObject;
}

function messageProviderData(data: MessageData): { providerData?: ProviderData } {
  const entries = Object.entries(data).filter(([, value]) => value !== undefined);
  return entries.length === 0 ? {} : { providerData: { anthropic: Object.fromEntries(entries) } };
}

function readSystem(system: FromAnthropicInput['system']): Pick<FromAnthropicResult, 'systemPrompt' | 'providerData'> {
  if (system === undefined) return {};
  if (typeof system === 'string') return { systemPrompt: system };
  if (!Array.isArray(system)) invalid(WHERE, 'system', 'must be a string or an array of text blocks');
  const texts = system.map((value, index) => {
    const block = expectObject(value, WHERE, `system[${index}]`);
    if (block['type'] !== 'text') invalid(WHERE, `system[${index}].type`, "must be 'text'");
    return expectStringField(block, 'text', WHERE, `system[${index}]`);
  });
  return { systemPrompt: texts.join('\n\n'), providerData: { anthropic: { system } } };
}

function readToolResult(
  block: WireObject,
  path: string,
  toolNames: ReadonlyMap<string, string>,
  warn: (message: string) => void,
): ToolResultMessage {
  const toolCallId = expectStringField(block, 'tool_use_id', WHERE, path, true);
  const isError = block['is_error'];
  if (isError !== undefined && typeof isError !== 'boolean') invalid(WHERE, `${path}.is_error`, 'must be a boolean');
  const raw = block['content'];
  let content: (TextContent | ImageContent)[];
  let shape: MessageData['content'];
  if (raw === undefined) {
    content = [];
    shape = 'absent';
  } else if (typeof raw === 'string') {
    content = [{ type: 'text', text: raw }];
    shape = 'string';
  } else if (Array.isArray(raw)) {
    if (raw.length === 0) shape = 'empty';
    content = raw.map((value, index) => {
      const place = { where: WHERE, path: `${path}.content[${index}]` };
      const part = expectObject(value, WHERE, place.path);
      expectStringField(part, 'type', WHERE, place.path);
      return readUserBlock(part, place);
    });
  } else {
    invalid(WHERE, `${path}.content`, 'must be a string or an array of blocks');
  }
  const toolName = toolNames.get(toolCallId);
  if (toolName === undefined)
    warn(`the tool_result for ${toolCallId} answers no earlier tool_use; its tool name is empty`);
  return {
    role: 'toolResult',
    toolCallId,
    toolName: toolName ?? '',
    content,
    ...(isError === undefined ? {} : { isError }),
    ...messageProviderData({
      content: shape,
      fields: unmodeledFields(block, ['type', 'tool_use_id', 'content', 'is_error']),
    }),
  };
}

/** One user (or system) turn: its tool results split out, the other blocks kept in order between them. */
function readUserTurn(
  message: WireObject,
  index: number,
  toolNames: ReadonlyMap<string, string>,
  warn: (message: string) => void,
): Message[] {
  const role = message['role'] === 'system' ? 'system' : undefined;
  const content = message['content'];
  if (typeof content === 'string') return [{ role: 'user', content, ...messageProviderData({ role }) }];
  const out: Message[] = [];
  let parts: (TextContent | ImageContent)[] | undefined;
  const flush = () => {
    if (parts !== undefined) out.push({ role: 'user', content: parts, ...messageProviderData({ role }) });
    parts = undefined;
  };
  (content as unknown[]).forEach((value, position) => {
    const path = `messages[${index}].content[${position}]`;
    const block = expectObject(value, WHERE, path);
    const type = expectStringField(block, 'type', WHERE, path);
    if (type === 'tool_result') {
      flush();
      out.push(readToolResult(block, path, toolNames, warn));
    } else {
      parts ??= [];
      parts.push(readUserBlock(block, { where: WHERE, path }));
    }
  });
  if (parts !== undefined || out.length === 0) {
    parts ??= [];
    flush();
  }
  return out;
}

function readAssistantTurn(message: WireObject, index: number, toolNames: Map<string, string>): AssistantMessage {
  const content = message['content'];
  const parts =
    typeof content === 'string'
      ? [{ type: 'text' as const, text: content }]
      : (content as unknown[]).map((value, position) =>
          readAssistantBlock(value, { where: WHERE, path: `messages[${index}].content[${position}]` }),
        );
  for (const part of parts) if (part.type === 'toolCall') toolNames.set(part.id, part.name);
  return {
    role: 'assistant',
    content: parts,
    ...messageProviderData({ content: typeof content === 'string' ? 'string' : undefined }),
  };
}

/** Puts the turn's unmodeled fields on its first ctxkit message. */
function withTurnFields(message: Message, turn: WireObject | undefined): Message {
  if (turn === undefined) return message;
  const data = { ...(message.providerData?.['anthropic'] as WireObject | undefined), turn };
  return { ...message, providerData: { ...message.providerData, anthropic: data } } as Message;
}

/**
 * Converts a Messages API request (`system` and `messages`) to ctxkit messages.
 *
 * - A user turn becomes a `user` message, with each `tool_result` block split out as a `toolResult`
 *   message (its tool name taken from the `tool_use` it answers); `toAnthropic` merges them back into
 *   one user turn, results first, as the API requires.
 * - `thinking` keeps its `signature`; `redacted_thinking` becomes a thinking part with `redacted: true`
 *   and its data as the signature.
 * - Images with base64 or URL sources become image parts (`data` holds the base64 or the URL).
 * - Every field ctxkit does not model (`cache_control`, `citations`, `caller`, …) goes to
 *   `providerData.anthropic` of its part or message. Blocks ctxkit does not model (documents,
 *   search results, server-tool blocks, future blocks) become a text part describing them (a
 *   plain-text document keeps its text) that carries the block itself, so
 *   `toAnthropic(fromAnthropic(x))` deep-equals `x` for every valid request.
 *
 * @param input - The `system` parameter and the `messages` array, as sent to `client.messages.create`.
 * @returns The system prompt, the messages, warnings, and the system blocks when `system` was an array.
 * @throws `ContextError` `INPUT_INVALID` naming the index and field of a malformed message or block.
 *
 * @example
 * ```ts
 * const { systemPrompt, messages } = fromAnthropic({ system: params.system, messages: params.messages });
 * ```
 */
export function fromAnthropic(input: FromAnthropicInput): FromAnthropicResult {
  if (typeof input !== 'object' || input === null) invalid(WHERE, 'input', 'must be an object with `messages`');
  if (!Array.isArray(input.messages)) invalid(WHERE, 'messages', 'must be an array of MessageParam');
  const warnings: ConversionWarning[] = [];
  const toolNames = new Map<string, string>();
  const messages: Message[] = [];
  input.messages.forEach((value, index) => {
    const message = expectObject(value, WHERE, `messages[${index}]`);
    const role = message['role'];
    if (role !== 'user' && role !== 'assistant' && role !== 'system') {
      invalid(WHERE, `messages[${index}].role`, "must be 'user', 'assistant' or 'system'");
    }
    const content = message['content'];
    if (typeof content !== 'string' && !Array.isArray(content)) {
      invalid(WHERE, `messages[${index}].content`, 'must be a string or an array of content blocks');
    }
    const turn =
      role === 'assistant'
        ? [readAssistantTurn(message, index, toolNames)]
        : readUserTurn(message, index, toolNames, (text) => warnings.push({ index, message: text }));
    const fields = unmodeledFields(message, ['role', 'content']);
    turn[0] = withTurnFields(turn[0]!, fields);
    messages.push(...turn);
  });
  return { ...readSystem(input.system), messages, warnings };
}

/**
 * What the deprecated {@link fromAnthropicMessage} returns: the assistant message to append to the
 * history, and its usage, stop reason, provider and model (also set on the message).
 *
 * @deprecated {@link readAnthropicMessage} returns the message itself, which carries them.
 *
 * @example
 * ```ts
 * const { message, usage } = fromAnthropicMessage(response);
 * history.push(message);
 * ```
 */
export interface AnthropicResponseResult {
  message: AssistantMessage;
  usage: Usage;
  stopReason: StopReason;
  provider: string;
  model: string;
  warnings: ConversionWarning[];
}

/**
 * Options of {@link readAnthropicMessage}.
 *
 * @example
 * ```ts
 * const options: ReadAnthropicMessageOptions = { provider: 'bedrock', onWarning: ({ message }) => console.warn(message) };
 * ```
 */
export interface ReadAnthropicMessageOptions {
  /** The provider name set on the message. @default 'anthropic' */
  provider?: string;
  /**
   * Receives each thing ctxkit could not read as the wire said it (an unknown `stop_reason`,
   * recorded as `stop`), with `index` 0, the response's one message.
   * @default undefined (the warnings are not reported)
   */
  onWarning?: (warning: ConversionWarning) => void;
}

/**
 * Options of {@link fromAnthropicMessage}.
 *
 * @deprecated Use {@link ReadAnthropicMessageOptions} with {@link readAnthropicMessage}.
 *
 * @example
 * ```ts
 * const options: FromAnthropicMessageOptions = { provider: 'bedrock' };
 * ```
 */
export interface FromAnthropicMessageOptions {
  /** The provider name set on the message. @default 'anthropic' */
  provider?: string;
}

const KNOWN_STOP_REASONS = new Set([
  'end_turn',
  'stop_sequence',
  'pause_turn',
  'max_tokens',
  'model_context_window_exceeded',
  'tool_use',
  'refusal',
  // The turn ended after a native compaction (`pause_after_compaction`): send it again to go on.
  'compaction',
]);

/**
 * Reads a Messages API response (`client.messages.create(...)` or a stream's `finalMessage()`) as
 * the assistant message to append to the history. The message carries the response's `usage`,
 * `stopReason`, `provider` and `model`, so it is what the manager's callback returns: the manager
 * counts the context from that usage once the message is in the history it is given, with no
 * `recordUsage` call.
 *
 * @param response - The response.
 * @param options - The provider name to record, and where warnings go.
 * @returns The assistant message, with its usage, stop reason, provider and model.
 * @throws `ContextError` `INPUT_INVALID` naming the field of a malformed response.
 *
 * @example
 * ```ts
 * const { result, history: kept } = await manager.runWithOverflowRecovery(history, async (messages) => {
 *   const { messages: wire } = toAnthropic({ messages });
 *   return readAnthropicMessage(await client.messages.create({ model, max_tokens: 4096, system, tools, messages: wire }));
 * });
 * history = [...kept, result];
 * ```
 */
export function readAnthropicMessage(
  response: AnthropicResponse,
  options: ReadAnthropicMessageOptions = {},
): AssistantMessage {
  return readResponse(response, options, 'readAnthropicMessage');
}

/**
 * Converts a Messages API response to the assistant message and its metadata.
 *
 * @deprecated Use {@link readAnthropicMessage} (the name no longer differs from the request-side
 * {@link fromAnthropic} by a suffix), which returns the message itself with its usage, stop reason,
 * provider and model on it, and reports warnings through `onWarning`.
 * `fromAnthropicMessage(response).message` deep-equals `readAnthropicMessage(response)`.
 *
 * @param response - The response.
 * @param options - The provider name to record.
 * @returns The message and its metadata; `warnings` names an unknown stop reason.
 * @throws `ContextError` `INPUT_INVALID` naming the field of a malformed response.
 *
 * @example
 * ```ts
 * const { message } = fromAnthropicMessage(response);
 * history.push(message);
 * ```
 */
export function fromAnthropicMessage(
  response: AnthropicResponse,
  options: FromAnthropicMessageOptions = {},
): AnthropicResponseResult {
  const warnings: ConversionWarning[] = [];
  const message = readResponse(
    response,
    { ...options, onWarning: (warning) => warnings.push(warning) },
    'fromAnthropicMessage',
  );
  const { usage, stopReason, provider, model } = message as Required<AssistantMessage>;
  return { message, usage, stopReason, provider, model, warnings };
}

function readResponse(
  response: AnthropicResponse,
  options: ReadAnthropicMessageOptions,
  where: string,
): AssistantMessage {
  const object = expectObject(response, where, 'response');
  const model = expectStringField(object, 'model', where, 'response');
  if (!Array.isArray(object['content'])) invalid(where, 'response.content', 'must be an array of content blocks');
  expectObject(object['usage'], where, 'response.usage');
  const raw = response.stop_reason;
  const content = response.content.map((block, index) =>
    readAssistantBlock(block, { where, path: `response.content[${index}]` }),
  );
  const usage = fromAnthropicUsage(response.usage);
  const stopReason = fromAnthropicStopReason(raw);
  const message: AssistantMessage = {
    role: 'assistant',
    content,
    usage,
    stopReason,
    ...(raw === 'refusal' ? { errorMessage: 'The model declined to answer (stop_reason: refusal).' } : {}),
    provider: options.provider ?? 'anthropic',
    model,
    providerData: {
      anthropic: {
        ...(response.id === undefined ? {} : { id: response.id }),
        stop_reason: raw ?? null,
        ...(response.stop_sequence == null ? {} : { stop_sequence: response.stop_sequence }),
      },
    },
  };
  if (raw !== null && raw !== undefined && !KNOWN_STOP_REASONS.has(raw)) {
    options.onWarning?.({ index: 0, message: `unknown stop_reason ${JSON.stringify(raw)}, recorded as 'stop'` });
  }
  return message;
}

/**
 * Anthropic's usage as ctxkit's {@link Usage}. Anthropic reports `input_tokens` without the cache,
 * so nothing is subtracted: `input = input_tokens`, `cacheRead = cache_read_input_tokens`,
 * `cacheWrite = cache_creation_input_tokens`, `output = output_tokens`, and the prompt the request
 * took is `input + cacheRead + cacheWrite` (`total` adds the output). When the API compacted
 * natively, the top-level fields are the sampling after it, and the `compaction` entries of
 * `usage.iterations[]` are summed into `compaction` (billed, but not part of the context).
 *
 * @param usage - The response's `usage`.
 * @returns The usage with cache reads and writes split out, each token counted once.
 *
 * @example
 * ```ts
 * fromAnthropicUsage({ input_tokens: 12, output_tokens: 80, cache_read_input_tokens: 30_000, cache_creation_input_tokens: 500 });
 * // { input: 12, output: 80, cacheRead: 30000, cacheWrite: 500, total: 30592 }
 * ```
 */
export function fromAnthropicUsage(usage: AnthropicUsage): Usage {
  expectObject(usage, 'fromAnthropicUsage', 'usage');
  const count = (value: unknown, field: string): number => {
    if (value === undefined || value === null) return 0;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      invalid('fromAnthropicUsage', `usage.${field}`, 'must be a non-negative number');
    }
    return value;
  };
  const input = count(usage.input_tokens, 'input_tokens');
  const output = count(usage.output_tokens, 'output_tokens');
  const cacheRead = count(usage.cache_read_input_tokens, 'cache_read_input_tokens');
  const cacheWrite = count(usage.cache_creation_input_tokens, 'cache_creation_input_tokens');
  if (!Number.isFinite(input + cacheRead + cacheWrite + output)) {
    invalid('fromAnthropicUsage', 'usage', 'token counts must add up to a finite number');
  }
  // A native compaction's step is billed apart: only `usage.iterations[]` reports it.
  const compaction = compactionIterations(usage.iterations);
  return {
    input,
    output,
    ...(usage.cache_read_input_tokens == null ? {} : { cacheRead }),
    ...(usage.cache_creation_input_tokens == null ? {} : { cacheWrite }),
    total: input + cacheRead + cacheWrite + output,
    ...(compaction ? { compaction } : {}),
  };
}

/**
 * Anthropic's `stop_reason` as ctxkit's {@link StopReason}: `end_turn`, `stop_sequence` and
 * `pause_turn` (a server-tool loop to continue by sending the turn back) and `compaction` (paused
 * after a native compaction) → `stop`; `max_tokens` and
 * `model_context_window_exceeded` → `length`; `tool_use` → `toolUse`; `refusal` → `error` (the turn
 * is not sent back to the model). The raw value stays in the message's `providerData.anthropic`.
 *
 * @param reason - The response's `stop_reason`.
 * @returns The ctxkit stop reason, `stop` for an unknown or missing one.
 *
 * @example
 * ```ts
 * fromAnthropicStopReason('max_tokens'); // 'length'
 * ```
 */
export function fromAnthropicStopReason(reason: string | null | undefined): StopReason {
  switch (reason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'toolUse';
    case 'refusal':
      return 'error';
    default:
      return 'stop';
  }
}

// Wire blocks to ctxkit parts (the `from` direction). Every field ctxkit does not model stays in the
// part's `providerData.anthropic`, so `toAnthropic` rebuilds the block exactly.

/** Where a block is, for error messages. @internal */
interface BlockPlace {
  where: string;
  path: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A text block. @internal */
function readText(block: WireObject, place: BlockPlace): TextContent {
  const text = expectStringField(block, 'text', place.where, place.path);
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
function readImage(block: WireObject, place: BlockPlace): ImageContent {
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
function readThinking(block: WireObject, place: BlockPlace): ThinkingContent {
  if (block['type'] === 'redacted_thinking') {
    const data = expectStringField(block, 'data', place.where, place.path);
    return {
      type: 'thinking',
      thinking: '',
      signature: data,
      redacted: true,
      ...withProviderData(unmodeledFields(block, ['type', 'data'])),
    };
  }
  const thinking = expectStringField(block, 'thinking', place.where, place.path);
  const signature = expectStringField(block, 'signature', place.where, place.path);
  return {
    type: 'thinking',
    thinking,
    signature,
    ...withProviderData(unmodeledFields(block, ['type', 'thinking', 'signature'])),
  };
}

/** A `tool_use` block. An input that is not an object is kept as it was in `providerData`. @internal */
function readToolUse(block: WireObject, place: BlockPlace): ToolCall {
  const id = expectStringField(block, 'id', place.where, place.path, true);
  const name = expectStringField(block, 'name', place.where, place.path);
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
function readAssistantBlock(value: unknown, place: BlockPlace): TextContent | ThinkingContent | ToolCall {
  const block = expectObject(value, place.where, place.path);
  const type = expectStringField(block, 'type', place.where, place.path);
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
function readUserBlock(block: WireObject, place: BlockPlace): TextContent | ImageContent {
  switch (block['type']) {
    case 'text':
      return readText(block, place);
    case 'image':
      return readImage(block, place);
    default:
      return passthroughPart(block);
  }
}
