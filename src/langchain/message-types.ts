/**
 * LangChain.js messages as `ctxkit/langchain` reads and writes them, declared here so the entry has no
 * runtime dependency on `@langchain/core` or `langchain`. A `BaseMessage` (`HumanMessage`,
 * `AIMessage`, `ToolMessage`, `SystemMessage` and their chunks) fits {@link LangChainMessage}; what the
 * converters write ({@link LangChainMessageFields}) is a message-like every LangChain API that takes
 * `BaseMessageLike` accepts (`model.invoke`, `agent.invoke({ messages })`, the graph's message
 * reducer), and the middleware turns it into an instance of the same class as the message it replaces.
 */

/**
 * A content block of a LangChain message: `{ type: 'text', text }`, `{ type: 'image_url', image_url }`,
 * the v1 standard blocks (`image`, `reasoning`, `file`…) and provider blocks (`thinking`, `tool_use`…).
 *
 * @example
 * ```ts
 * const block: LangChainContentBlock = { type: 'image_url', image_url: { url: 'https://example.com/a.png' } };
 * ```
 */
export interface LangChainContentBlock {
  /** The block's kind. */
  type: string;
  [field: string]: unknown;
}

/**
 * A tool call on an `AIMessage` (`tool_calls`): parsed arguments, the id its `ToolMessage` answers.
 *
 * @example
 * ```ts
 * const call: LangChainToolCall = { id: 'call_1', name: 'read_file', args: { path: 'a.ts' }, type: 'tool_call' };
 * ```
 */
export interface LangChainToolCall {
  id?: string;
  name: string;
  args: Record<string, unknown>;
  type?: 'tool_call';
}

/**
 * `AIMessage.usage_metadata`: LangChain's token counts, normalized across providers so that
 * `input_tokens` includes the cached tokens (`input_token_details.cache_read` and `cache_creation`).
 *
 * @example
 * ```ts
 * const usage: LangChainUsageMetadata = { input_tokens: 1200, output_tokens: 80, total_tokens: 1280, input_token_details: { cache_read: 1024 } };
 * ```
 */
export interface LangChainUsageMetadata {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  input_token_details?: { cache_read?: number; cache_creation?: number; [field: string]: unknown };
  output_token_details?: { reasoning?: number; [field: string]: unknown };
}

/**
 * A LangChain message as ctxkit reads it: a `BaseMessage` instance (its `type` is `human`, `ai`,
 * `system`, `tool` or `developer`), or a plain message-like with `type` or `role` (`user`, `assistant`).
 * Fields ctxkit does not model (`id`, `name`, `additional_kwargs`, `response_metadata`,
 * `usage_metadata`, `invalid_tool_calls`, `artifact`…) are carried verbatim.
 *
 * @example
 * ```ts
 * const messages: LangChainMessage[] = [new HumanMessage('List the files'), { role: 'assistant', content: 'a.ts' }];
 * ```
 */
export interface LangChainMessage {
  /** `human`, `ai`, `system`, `developer` or `tool` (an instance's own `type`). */
  readonly type?: string;
  /** A message-like's role (`user`, `assistant`, `system`, `developer`, `tool`) when it has no `type`. */
  readonly role?: string;
  readonly content: string | readonly unknown[];
  readonly id?: string | undefined;
  readonly name?: string | undefined;
  /** On an `AIMessage`. */
  readonly tool_calls?: readonly LangChainToolCall[] | undefined;
  /** On an `AIMessage`. */
  readonly usage_metadata?: LangChainUsageMetadata | undefined;
  /** On a `ToolMessage`: the id of the call it answers. */
  readonly tool_call_id?: string;
  /** On a `ToolMessage`: `error` when the tool failed. */
  readonly status?: 'success' | 'error' | undefined;
  readonly response_metadata?: Record<string, unknown>;
}

/**
 * A message as ctxkit writes it: a message-like that `@langchain/core`'s `coerceMessageLikeToMessage`
 * (used by every API taking `BaseMessageLike`) turns into the message class of its `type`.
 *
 * @example
 * ```ts
 * const fields: LangChainMessageFields = { type: 'tool', tool_call_id: 'call_1', content: 'a.ts' };
 * ```
 */
export interface LangChainMessageFields {
  type: 'human' | 'ai' | 'system' | 'developer' | 'tool';
  content: string | LangChainContentBlock[];
  tool_calls?: LangChainToolCall[];
  tool_call_id?: string;
  name?: string;
  status?: 'success' | 'error';
  [field: string]: unknown;
}

/**
 * Something a converter left out or could not carry, with the index of the message (in its input) it
 * is about.
 *
 * @example
 * ```ts
 * const warning: ConversionWarning = { index: 3, message: 'messages[3].tool_calls[0] has no id; ctxkit named it lc_call_3_0.' };
 * ```
 */
export interface ConversionWarning {
  /** The index of the message (in the converter's input) the warning is about. */
  index: number;
  /** What was lost or changed, in words. */
  message: string;
}
