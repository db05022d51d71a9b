import { ContextError } from '../errors.js';
import { mixHash } from '../internal/mix-hash.js';
import type { WireObject } from '../internal/wire-object.js';
import type { ImageContent, Message, ProviderData, TextContent, ThinkingContent, ToolCall } from '../types.js';
import { assertMessage as assertWellFormed } from '../validation/assert-messages.js';
import { anthropicData, hadPassthrough, passthroughBlock } from './internal/provider-data.js';
import type {
  AnthropicCacheControl,
  AnthropicMessageParam,
  AnthropicSystemParam,
  AnthropicTextBlockParam,
  ConversionWarning,
} from './types.js';

/**
 * What {@link toAnthropic} converts: the system prompt and the messages to send.
 *
 * @example
 * ```ts
 * const input: ToAnthropicInput = { systemPrompt: 'You are a coding agent.', messages: prepared.messages };
 * ```
 */
export interface ToAnthropicInput {
  /** The system prompt; becomes the `system` parameter. */
  systemPrompt?: string | undefined;
  /** The messages to send: the projection `prepare` returns (`messages`), not the kept history. */
  messages: readonly Message[];
  /** What `fromAnthropic` returned beside the messages (the system blocks and their `cache_control`). */
  providerData?: ProviderData | undefined;
  /**
   * Place prompt-cache breakpoints (`cache_control`), within the API's limit of 4 per request
   * (marks the messages already carry count): on the last block of the newest message (what the
   * next request reads back), on the system prompt (which also caches the tools, sent before it),
   * on the newest of ctxkit's archived results, summaries and digests (the last message that no
   * later archive changes: a batch archived later re-writes the cache only from there), and on the
   * message before the newest. `true` for the 5-minute cache, `{ ttl: '1h' }` for the 1-hour one.
   * @default false
   */
  cacheBreakpoints?: boolean | { ttl?: '5m' | '1h' } | undefined;
}

/**
 * What {@link toAnthropic} returns; spread it into `client.messages.create`.
 *
 * @example
 * ```ts
 * const { system, messages } = toAnthropic({ systemPrompt, messages: prepared.messages });
 * await client.messages.create({ model, max_tokens: 4096, system, messages });
 * ```
 */
export interface ToAnthropicResult {
  /** The `system` parameter; absent without a system prompt. */
  system?: AnthropicSystemParam;
  /** Alternating user and assistant turns, each tool use answered in the next user turn. */
  messages: AnthropicMessageParam[];
  /** What was dropped or changed to make a request the API accepts. */
  warnings: ConversionWarning[];
}

const WHERE = 'toAnthropic';
const checked = new WeakSet<object>();

function assertMessage(message: unknown, index: number): asserts message is Message {
  if (typeof message === 'object' && message !== null && checked.has(message)) return;
  assertWellFormed(message, WHERE, index);
  checked.add(message as object);
}

function writeSystem(
  systemPrompt: string | undefined,
  providerData: ProviderData | undefined,
): AnthropicSystemParam | undefined {
  if (systemPrompt === undefined) return undefined;
  const blocks = (providerData?.['anthropic'] as { system?: unknown } | undefined)?.system;
  if (Array.isArray(blocks)) {
    const texts = blocks.map((block) => (block as { text?: unknown })?.text);
    if (texts.every((text) => typeof text === 'string') && texts.join('\n\n') === systemPrompt) {
      return blocks as AnthropicTextBlockParam[];
    }
  }
  return systemPrompt;
}

/**
 * Converts ctxkit messages to a Messages API request: `system` and `messages` ready to spread into
 * `client.messages.create`.
 *
 * The result is a request the API accepts: consecutive messages of one side merge into one turn, so
 * roles alternate; the `toolResult` messages after an assistant turn become `tool_result` blocks at
 * the start of the next user turn; empty text blocks, empty messages and assistant turns left with no
 * content are dropped (with a warning), as is thinking without a signature. Pass the projection
 * (`prepare(...).messages` or `prepareModelMessages(history)`), whose tool calls are already paired.
 * Everything `fromAnthropic` carried in `providerData.anthropic` is restored, so
 * `toAnthropic(fromAnthropic(x))` deep-equals `x`.
 *
 * @param input - The system prompt, the messages, and the system blocks from `fromAnthropic`.
 * @returns `system`, `messages` and warnings.
 * @throws `ContextError` `INPUT_INVALID` naming the index and field of a malformed message.
 *
 * @example
 * ```ts
 * const prepared = await manager.prepare(history);
 * const { system, messages } = toAnthropic({ systemPrompt, messages: prepared.messages });
 * const response = await client.messages.create({ model, max_tokens: 4096, system, messages, tools });
 * ```
 */
export function toAnthropic(input: ToAnthropicInput): ToAnthropicResult {
  if (typeof input !== 'object' || input === null || !Array.isArray(input.messages)) {
    throw new ContextError({
      message: `${WHERE}: pass { systemPrompt?, messages } with messages an array of ctxkit messages.`,
      code: 'INPUT_INVALID',
    });
  }
  const warnings: ConversionWarning[] = [];
  const turns: Turn[] = [];
  let stable: Landmark | undefined;
  const last = input.messages.length - 1;
  input.messages.forEach((message, index) => {
    assertMessage(message, index);
    addMessage(turns, message, (text) => warnings.push({ index, message: text }));
    if (index < last - 1 && isStable(message)) stable = landmark(turns, message.role === 'toolResult');
  });
  const messages = turns.map((turn): AnthropicMessageParam => {
    const content = turn.text !== undefined ? turn.text : [...turn.results, ...turn.blocks];
    return { ...turn.fields, role: turn.role, content } as AnthropicMessageParam;
  });
  const system = writeSystem(input.systemPrompt, input.providerData);
  const result: ToAnthropicResult = { ...(system === undefined ? {} : { system }), messages, warnings };
  if (input.cacheBreakpoints) placeBreakpoints(result, turns, stable, cacheControl(input.cacheBreakpoints));
  return result;
}

// Prompt-cache breakpoints: Anthropic caches a prefix only where a block carries `cache_control`.

/** The API's limit of `cache_control` marks in one request. */
const MAX_BREAKPOINTS = 4;

/** Where a message ended up: its turn and its last block then (`text`: the turn's single string). */
interface Landmark {
  turn: Turn;
  block: WireObject | 'text';
}

function landmark(turns: readonly Turn[], result: boolean): Landmark | undefined {
  const turn = turns[turns.length - 1];
  if (turn === undefined) return undefined;
  if (turn.text !== undefined) return { turn, block: 'text' };
  const block = result ? turn.results[turn.results.length - 1] : turn.blocks[turn.blocks.length - 1];
  return block === undefined ? undefined : { turn, block };
}

/** ctxkit's own messages that no later archive changes: archived results, summaries, digests. */
function isStable(message: Message): boolean {
  const kind = message.meta?.kind;
  return kind === 'tool_result_archived' || kind === 'compaction_summary' || kind === 'tool_summary';
}

function cacheControl(option: true | { ttl?: '5m' | '1h' }): AnthropicCacheControl {
  const ttl = option === true ? undefined : option.ttl;
  if (ttl !== undefined && ttl !== '5m' && ttl !== '1h') {
    throw new ContextError({
      message: `${WHERE}: cacheBreakpoints.ttl must be '5m' or '1h' (got ${JSON.stringify(ttl)}).`,
      code: 'INPUT_INVALID',
    });
  }
  return ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl };
}

const UNMARKABLE = new Set(['thinking', 'redacted_thinking']);

const marked = (block: unknown) =>
  typeof block === 'object' && block !== null && (block as { cache_control?: unknown }).cache_control != null;

/**
 * Marks the newest message, the system prompt, the last stable message and the message before the
 * newest, in that order, while fewer than 4 marks are in the request (the host's own included).
 * Blocks are replaced by marked copies: nothing the host passed is changed.
 */
function placeBreakpoints(
  result: ToAnthropicResult,
  turns: readonly Turn[],
  stable: Landmark | undefined,
  control: AnthropicCacheControl,
): void {
  const { messages } = result;
  let count = 0;
  if (Array.isArray(result.system)) count += result.system.filter(marked).length;
  for (const message of messages) if (Array.isArray(message.content)) count += message.content.filter(marked).length;
  const room = () => count < MAX_BREAKPOINTS;
  /** Marks the block at `index` of message `at` (the last markable one at or before it). */
  const mark = (at: number, index?: number) => {
    const message = messages[at];
    if (message === undefined || !room()) return;
    if (typeof message.content === 'string') {
      message.content = [{ type: 'text', text: message.content, cache_control: control }];
      count++;
      return;
    }
    const content = [...message.content] as unknown as WireObject[];
    for (let position = index ?? content.length - 1; position >= 0; position--) {
      const block = content[position]!;
      if (UNMARKABLE.has(String(block['type']))) continue;
      if (marked(block)) return;
      content[position] = { ...block, cache_control: control };
      message.content = content as unknown as AnthropicMessageParam['content'];
      count++;
      return;
    }
  };
  mark(messages.length - 1);
  if (room() && result.system !== undefined) {
    const system = typeof result.system === 'string' ? [{ type: 'text' as const, text: result.system }] : result.system;
    const end = system.length - 1;
    if (end >= 0 && !system.some(marked)) {
      result.system = system.map((block, index) => (index === end ? { ...block, cache_control: control } : block));
      count++;
    }
  }
  if (stable !== undefined) {
    const at = turns.indexOf(stable.turn);
    const content = messages[at]?.content;
    if (at >= 0 && at < messages.length - 1) {
      // A single string merged into later blocks became the first of the turn's blocks.
      if (stable.block === 'text' || typeof content === 'string') mark(at, stable.turn.results.length);
      else mark(at, Math.max(0, content?.indexOf(stable.block as never) ?? -1));
    }
  }
  mark(messages.length - 2);
}

// ctxkit messages as the turns of a Messages API request: consecutive messages of one side merge
// into one turn, tool results open the next user turn.

/** A turn being built: consecutive ctxkit messages of one side merge into it. @internal */
interface Turn {
  role: 'user' | 'assistant' | 'system';
  /** A single string content, kept as a string while nothing merges into the turn. */
  text?: string;
  results: WireObject[];
  blocks: WireObject[];
  fields?: WireObject;
}

/** The turn a message of `role` joins: the last one when it is on the same side, else a new one. */
function turnFor(turns: Turn[], role: Turn['role'], fields: WireObject | undefined): Turn {
  const last = turns[turns.length - 1];
  if (last !== undefined && last.role === role && role !== 'system') {
    if (last.text !== undefined) {
      last.blocks.unshift({ type: 'text', text: last.text });
      delete last.text;
    }
    if (fields !== undefined) last.fields = { ...last.fields, ...fields };
    return last;
  }
  const turn: Turn = { role, results: [], blocks: [], ...(fields === undefined ? {} : { fields }) };
  turns.push(turn);
  return turn;
}

function turnFields(message: Message): WireObject | undefined {
  const turn = anthropicData(message)?.['turn'];
  return typeof turn === 'object' && turn !== null ? (turn as WireObject) : undefined;
}

/** Adds a message to the turns: merged into the last turn when on the same side, else a new turn. @internal */
function addMessage(turns: Turn[], message: Message, warn: Warn): void {
  const data = anthropicData(message);
  const fields = turnFields(message);
  if (message.role === 'assistant') {
    const blocks: WireObject[] = [];
    for (const part of message.content) {
      const block = writeAssistantPart(part, warn);
      if (block !== undefined) blocks.push(block);
    }
    if (blocks.length === 0) {
      warn('dropped an assistant message with no content the API accepts (it rejects an empty assistant turn)');
      return;
    }
    const single = blocks.length === 1 && blocks[0]!['type'] === 'text' && Object.keys(blocks[0]!).length === 2;
    const last = turns[turns.length - 1];
    if (data?.['content'] === 'string' && single && last?.role !== 'assistant') {
      turns.push({
        role: 'assistant',
        text: blocks[0]!['text'] as string,
        results: [],
        blocks: [],
        ...(fields ? { fields } : {}),
      });
      return;
    }
    turnFor(turns, 'assistant', fields).blocks.push(...blocks);
    return;
  }
  if (message.role === 'toolResult') {
    turnFor(turns, 'user', fields).results.push(writeToolResult(message, warn));
    return;
  }
  const role = data?.['role'] === 'system' ? 'system' : 'user';
  if (typeof message.content === 'string') {
    if (message.content.trim().length === 0) {
      warn('dropped a user message with empty or blank content (the API rejects it)');
      return;
    }
    const last = turns[turns.length - 1];
    if (last?.role === role && role === 'user')
      turnFor(turns, role, fields).blocks.push({ type: 'text', text: message.content });
    else turns.push({ role, text: message.content, results: [], blocks: [], ...(fields ? { fields } : {}) });
    return;
  }
  const blocks = writeUserParts(message.content, warn);
  if (blocks.length === 0) {
    warn('dropped a user message with no content the API accepts');
    return;
  }
  turnFor(turns, role, fields).blocks.push(...blocks);
}

// ctxkit parts and tool results as Anthropic blocks (the `to` direction), restoring what the reader
// kept in `providerData.anthropic`; what the API would reject is dropped with a warning.

/** Records a warning about the message being written. @internal */
type Warn = (message: string) => void;

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
  return { type: 'tool_use', id: anthropicToolId(part.id), name: part.name, input: part.arguments, ...extras(part) };
}

/** The ids the API accepts for a `tool_use` block (and so for the `tool_result` that answers it). */
const ANTHROPIC_TOOL_ID = /^[a-zA-Z0-9_-]+$/;

/**
 * A tool-call id as the API accepts it: as it is when it is one already (Anthropic's own, and most
 * hosts'), else its other characters replaced by `_` and a hash of the whole id appended, so ids
 * that differ stay apart and a call and its result get the same id on every conversion. The ids
 * this catches come from other providers or hosts (`prepareModelMessages` renames a reused id to
 * one valid wherever the id is, `call_0_2`); Anthropic refuses such a request with a 400.
 */
function anthropicToolId(id: string): string {
  if (ANTHROPIC_TOOL_ID.test(id)) return id;
  let hash = 0x811c9dc5;
  for (let index = 0; index < id.length; index++) hash = Math.imul(hash ^ id.charCodeAt(index), 0x01000193);
  return `${id.replace(/[^a-zA-Z0-9_-]/g, '_')}-${mixHash(hash >>> 0).toString(36)}`;
}

/** A part of an assistant message as its block; nothing (with a warning) for what the API rejects. @internal */
function writeAssistantPart(part: TextContent | ThinkingContent | ToolCall, warn: Warn): WireObject | undefined {
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
function writeUserParts(parts: readonly (TextContent | ImageContent)[], warn: Warn): WireObject[] {
  const blocks: WireObject[] = [];
  for (const part of parts) {
    const block = part.type === 'text' ? writeText(part, warn) : writeImage(part, warn);
    if (block !== undefined) blocks.push(block);
  }
  return blocks;
}

/** A tool result as a `tool_result` block. @internal */
function writeToolResult(message: Extract<Message, { role: 'toolResult' }>, warn: Warn): WireObject {
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
    tool_use_id: anthropicToolId(message.toolCallId),
    ...content,
    ...(message.isError === undefined ? {} : { is_error: message.isError }),
    ...(typeof fields === 'object' && fields !== null ? (fields as WireObject) : {}),
  };
}
