/**
 * The Anthropic Messages API wire format, written against the API rather than imported from
 * `@anthropic-ai/sdk`, so this subpath has no runtime dependency on the SDK.
 *
 * Two directions, two kinds of type:
 * - what `toAnthropic` returns ({@link AnthropicMessageParam}) names only the blocks ctxkit models,
 *   typed so the SDK's own `MessageParam[]` accepts it without a cast;
 * - what `fromAnthropic` and `fromAnthropicMessage` accept ({@link AnthropicMessageInput},
 *   {@link AnthropicResponse}) also takes any other block (`{ type: string }`), so the SDK's params and
 *   responses, future blocks included, are accepted as they are.
 *
 * Blocks ctxkit does not model (documents, search results, server-tool blocks, blocks added after
 * this was written) and a `system` role inside `messages` are carried through `providerData.anthropic`
 * and returned by `toAnthropic` exactly as they came in, beyond what the declared return type lists.
 */

/**
 * A prompt-cache breakpoint.
 *
 * @example
 * ```ts
 * const cache: AnthropicCacheControl = { type: 'ephemeral', ttl: '1h' };
 * ```
 */
export interface AnthropicCacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

/**
 * A text block.
 *
 * @example
 * ```ts
 * const block: AnthropicTextBlockParam = { type: 'text', text: 'Fix the parser', cache_control: { type: 'ephemeral' } };
 * ```
 */
export interface AnthropicTextBlockParam {
  type: 'text';
  text: string;
  cache_control?: AnthropicCacheControl | null;
}

/** The image types the Messages API accepts as base64. */
export type AnthropicImageMediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

/**
 * An image, as base64 data or a URL.
 *
 * @example
 * ```ts
 * const block: AnthropicImageBlockParam = { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } };
 * ```
 */
export interface AnthropicImageBlockParam {
  type: 'image';
  source: { type: 'base64'; media_type: AnthropicImageMediaType; data: string } | { type: 'url'; url: string };
  cache_control?: AnthropicCacheControl | null;
}

/**
 * A thinking block, replayed with its signature.
 *
 * @example
 * ```ts
 * const block: AnthropicThinkingBlockParam = { type: 'thinking', thinking: 'The test fails because…', signature: 'EqQB…' };
 * ```
 */
export interface AnthropicThinkingBlockParam {
  type: 'thinking';
  thinking: string;
  signature: string;
}

/**
 * Thinking the API returned only in encrypted form.
 *
 * @example
 * ```ts
 * const block: AnthropicRedactedThinkingBlockParam = { type: 'redacted_thinking', data: 'EmwKAhgB…' };
 * ```
 */
export interface AnthropicRedactedThinkingBlockParam {
  type: 'redacted_thinking';
  data: string;
}

/**
 * A tool call in an assistant turn.
 *
 * @example
 * ```ts
 * const block: AnthropicToolUseBlockParam = { type: 'tool_use', id: 'toolu_01', name: 'bash', input: { command: 'ls' } };
 * ```
 */
export interface AnthropicToolUseBlockParam {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
  cache_control?: AnthropicCacheControl | null;
}

/**
 * The result of a tool call, in the user turn right after the call.
 *
 * @example
 * ```ts
 * const block: AnthropicToolResultBlockParam = { type: 'tool_result', tool_use_id: 'toolu_01', content: 'a.ts\nb.ts' };
 * ```
 */
export interface AnthropicToolResultBlockParam {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | Array<AnthropicTextBlockParam | AnthropicImageBlockParam>;
  is_error?: boolean;
  cache_control?: AnthropicCacheControl | null;
}

/**
 * A content block `toAnthropic` writes (blocks carried through unmodeled are returned too, as they came).
 *
 * @example
 * ```ts
 * const block: AnthropicContentBlockParam = { type: 'text', text: 'hello' };
 * ```
 */
export type AnthropicContentBlockParam =
  | AnthropicTextBlockParam
  | AnthropicImageBlockParam
  | AnthropicThinkingBlockParam
  | AnthropicRedactedThinkingBlockParam
  | AnthropicToolUseBlockParam
  | AnthropicToolResultBlockParam;

/**
 * A message `toAnthropic` writes; assignable to the SDK's `MessageParam`.
 *
 * @example
 * ```ts
 * const message: AnthropicMessageParam = { role: 'user', content: 'List the files' };
 * ```
 */
export interface AnthropicMessageParam {
  role: 'user' | 'assistant';
  content: string | AnthropicContentBlockParam[];
}

/**
 * Any content block: the modeled ones, or any other block by its `type`.
 *
 * @example
 * ```ts
 * const document = { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'notes' } };
 * const block: AnthropicContentBlockInput = document;
 * ```
 */
export type AnthropicContentBlockInput = AnthropicContentBlockParam | { readonly type: string };

/**
 * A message `fromAnthropic` reads: the SDK's `MessageParam` (any block, and the `system` role of
 * newer API versions).
 *
 * @example
 * ```ts
 * const message: AnthropicMessageInput = { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] };
 * ```
 */
export interface AnthropicMessageInput {
  readonly role: 'user' | 'assistant' | 'system';
  readonly content: string | readonly AnthropicContentBlockInput[];
}

/**
 * The `system` parameter: a string, or text blocks (which may carry `cache_control`).
 *
 * @example
 * ```ts
 * const system: AnthropicSystemParam = [{ type: 'text', text: 'You are a coding agent.', cache_control: { type: 'ephemeral' } }];
 * ```
 */
export type AnthropicSystemParam = string | AnthropicTextBlockParam[];

/**
 * Token usage of a response. `input_tokens` excludes the cache: the prompt is
 * `input_tokens + cache_read_input_tokens + cache_creation_input_tokens`.
 *
 * @example
 * ```ts
 * const usage: AnthropicUsage = { input_tokens: 12, output_tokens: 80, cache_read_input_tokens: 30_000, cache_creation_input_tokens: 0 };
 * ```
 */
export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  /** Each sampling step of the response; a native compaction's step has `type: 'compaction'`. */
  iterations?: readonly unknown[] | null;
}

/**
 * A Messages API response (the SDK's `Message`, or a stream's `finalMessage()`).
 *
 * @example
 * ```ts
 * const response: AnthropicResponse = {
 *   id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5',
 *   content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn', stop_sequence: null,
 *   usage: { input_tokens: 120, output_tokens: 4 },
 * };
 * ```
 */
export interface AnthropicResponse {
  id?: string;
  type?: string;
  role: 'assistant';
  model: string;
  content: readonly AnthropicContentBlockInput[];
  stop_reason: string | null;
  stop_sequence?: string | null;
  usage: AnthropicUsage;
}

/**
 * Something a conversion could not carry exactly, with where it happened.
 *
 * @example
 * ```ts
 * const warning: ConversionWarning = { index: 3, message: 'dropped an empty text block' };
 * ```
 */
export interface ConversionWarning {
  /** The index of the message (in the converter's input) the warning is about. */
  index: number;
  /** What was lost or changed, in words. */
  message: string;
}
