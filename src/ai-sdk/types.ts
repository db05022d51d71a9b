/**
 * The AI SDK's message formats, written against the SDK rather than imported from `ai` or
 * `@ai-sdk/provider`, so this subpath has no runtime dependency on them: `ModelMessage` (the prompt
 * a host passes to `generateText` and `streamText`) and the provider-level prompt a language-model
 * middleware sees (`LanguageModelV3Prompt`). The types are loose where the SDK's are strict (any
 * `providerOptions`, any part `type`), so the SDK's own values are accepted as they are; what the
 * converters return is checked against the SDK's types by the tests.
 */

/**
 * A JSON value.
 *
 * @example
 * ```ts
 * const value: JSONValue = { files: ['a.ts'], count: 1 };
 * ```
 */
export type JSONValue = null | string | number | boolean | { [key: string]: JSONValue | undefined } | JSONValue[];

/**
 * Provider-specific options, by provider name.
 *
 * @example
 * ```ts
 * const options: ProviderOptions = { anthropic: { cacheControl: { type: 'ephemeral' } } };
 * ```
 */
export type ProviderOptions = Record<string, { [key: string]: JSONValue | undefined }>;

/**
 * Bytes or text as the AI SDK takes them: base64 or URL text, bytes, or a `URL`.
 *
 * @example
 * ```ts
 * const data: DataContent = new URL('https://example.com/a.png');
 * ```
 */
export type DataContent = string | Uint8Array | ArrayBuffer | URL;

/**
 * A text part.
 *
 * @example
 * ```ts
 * const part: ModelTextPart = { type: 'text', text: 'Fix the parser' };
 * ```
 */
export interface ModelTextPart {
  type: 'text';
  text: string;
  providerOptions?: ProviderOptions;
}

/**
 * An image part of a `ModelMessage` user message.
 *
 * @example
 * ```ts
 * const part: ModelImagePart = { type: 'image', image: 'https://example.com/a.png' };
 * ```
 */
export interface ModelImagePart {
  type: 'image';
  image: DataContent;
  mediaType?: string;
  providerOptions?: ProviderOptions;
}

/**
 * A file part (the only media part of the provider-level prompt).
 *
 * @example
 * ```ts
 * const part: ModelFilePart = { type: 'file', data: 'JVBERi0x…', mediaType: 'application/pdf' };
 * ```
 */
export interface ModelFilePart {
  type: 'file';
  data: DataContent;
  mediaType: string;
  filename?: string;
  providerOptions?: ProviderOptions;
}

/**
 * Reasoning, replayed to providers that need it (its signature is in `providerOptions`).
 *
 * @example
 * ```ts
 * const part: ModelReasoningPart = { type: 'reasoning', text: 'The test fails because…', providerOptions: { anthropic: { signature: 'EqQB…' } } };
 * ```
 */
export interface ModelReasoningPart {
  type: 'reasoning';
  text: string;
  providerOptions?: ProviderOptions;
}

/**
 * A tool call.
 *
 * @example
 * ```ts
 * const part: ModelToolCallPart = { type: 'tool-call', toolCallId: 'call_1', toolName: 'bash', input: { command: 'ls' } };
 * ```
 */
export interface ModelToolCallPart {
  type: 'tool-call';
  toolCallId: string;
  toolName: string;
  input: unknown;
  providerExecuted?: boolean;
  providerOptions?: ProviderOptions;
}

/**
 * The output of a tool, in the SDK's tagged form.
 *
 * @example
 * ```ts
 * const output: ToolResultOutput = { type: 'text', value: 'a.ts\nb.ts' };
 * ```
 */
export type ToolResultOutput =
  | { type: 'text'; value: string; providerOptions?: ProviderOptions }
  | { type: 'json'; value: JSONValue; providerOptions?: ProviderOptions }
  | { type: 'execution-denied'; reason?: string; providerOptions?: ProviderOptions }
  | { type: 'error-text'; value: string; providerOptions?: ProviderOptions }
  | { type: 'error-json'; value: JSONValue; providerOptions?: ProviderOptions }
  | { type: 'content'; value: ToolResultContentItem[] };

/**
 * One item of a `content` tool output: text or an image (other items are carried as they came).
 *
 * @example
 * ```ts
 * const item: ToolResultContentItem = { type: 'image-url', url: 'https://example.com/chart.png' };
 * ```
 */
export type ToolResultContentItem =
  | { type: 'text'; text: string; providerOptions?: ProviderOptions }
  | { type: 'image-data'; data: string; mediaType: string; providerOptions?: ProviderOptions }
  | { type: 'image-url'; url: string; providerOptions?: ProviderOptions }
  | { type: 'media'; data: string; mediaType: string };

/**
 * A tool result.
 *
 * @example
 * ```ts
 * const part: ModelToolResultPart = { type: 'tool-result', toolCallId: 'call_1', toolName: 'bash', output: { type: 'text', value: 'ok' } };
 * ```
 */
export interface ModelToolResultPart {
  type: 'tool-result';
  toolCallId: string;
  toolName: string;
  output: ToolResultOutput;
  providerOptions?: ProviderOptions;
}

/** Any part, by its `type` (approval requests and responses, parts added after this was written). */
export interface ModelOtherPart {
  readonly type: string;
}

/**
 * A message of the AI SDK's prompt (`ModelMessage`), or of the provider-level prompt a middleware
 * sees (`LanguageModelV3Message`, where user and assistant content are always arrays and media are
 * file parts).
 *
 * @example
 * ```ts
 * const messages: AISDKMessage[] = [
 *   { role: 'user', content: 'List the files' },
 *   { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'ls', input: {} }] },
 *   { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'ls', output: { type: 'text', value: 'a.ts' } }] },
 * ];
 * ```
 */
export type AISDKMessage =
  | { role: 'system'; content: string; providerOptions?: ProviderOptions }
  | {
      role: 'user';
      content: string | Array<ModelTextPart | ModelImagePart | ModelFilePart>;
      providerOptions?: ProviderOptions;
    }
  | {
      role: 'assistant';
      content:
        | string
        | Array<ModelTextPart | ModelFilePart | ModelReasoningPart | ModelToolCallPart | ModelToolResultPart>;
      providerOptions?: ProviderOptions;
    }
  | { role: 'tool'; content: Array<ModelToolResultPart>; providerOptions?: ProviderOptions };

/**
 * A message as the converters read it: any of the above, with parts of any type.
 *
 * @example
 * ```ts
 * const message: AISDKMessageInput = { role: 'assistant', content: [{ type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'call_1' }] };
 * ```
 */
export interface AISDKMessageInput {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly content:
    | string
    | readonly (
        | ModelTextPart
        | ModelImagePart
        | ModelFilePart
        | ModelReasoningPart
        | ModelToolCallPart
        | ModelToolResultPart
        | ModelOtherPart
      )[];
  readonly providerOptions?: unknown;
}

/**
 * Token usage as `generateText` reports it (`LanguageModelUsage`): `inputTokens` includes cached tokens.
 *
 * @example
 * ```ts
 * const usage: GenerateTextUsage = { inputTokens: 30_012, outputTokens: 80, totalTokens: 30_092, inputTokenDetails: { noCacheTokens: 12, cacheReadTokens: 30_000, cacheWriteTokens: 0 } };
 * ```
 */
export interface GenerateTextUsage {
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  totalTokens?: number | undefined;
  inputTokenDetails?: {
    noCacheTokens?: number | undefined;
    cacheReadTokens?: number | undefined;
    cacheWriteTokens?: number | undefined;
  };
  /** Deprecated by the SDK in favour of `inputTokenDetails.cacheReadTokens`. */
  cachedInputTokens?: number | undefined;
}

/**
 * Token usage as a provider reports it to a middleware (`LanguageModelV3Usage`).
 *
 * @example
 * ```ts
 * const usage: ProviderUsage = { inputTokens: { total: 30_012, noCache: 12, cacheRead: 30_000, cacheWrite: 0 }, outputTokens: { total: 80, text: 80, reasoning: undefined } };
 * ```
 */
export interface ProviderUsage {
  inputTokens: {
    total: number | undefined;
    noCache?: number | undefined;
    cacheRead?: number | undefined;
    cacheWrite?: number | undefined;
  };
  outputTokens: { total: number | undefined; text?: number | undefined; reasoning?: number | undefined };
}

/**
 * Something a conversion could not carry exactly, with where it happened.
 *
 * @example
 * ```ts
 * const warning: ConversionWarning = { index: 3, message: 'dropped an empty text part' };
 * ```
 */
export interface ConversionWarning {
  /** The index of the message (in the converter's input) the warning is about. */
  index: number;
  /** What was lost or changed, in words. */
  message: string;
}
