/**
 * The AI SDK's message formats (the parts here, the messages in message-types.ts), written against
 * the SDK rather than imported from `ai` or `@ai-sdk/provider`, so this subpath has no runtime
 * dependency on them: `ModelMessage` (the prompt a host passes to `generateText` and `streamText`)
 * and the provider-level prompt a language-model middleware sees (`LanguageModelV3Prompt`). The
 * types are loose where the SDK's are strict (any `providerOptions`, any part `type`), so the SDK's
 * own values are accepted as they are; what the converters return is checked against the SDK's
 * types by the tests.
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
 * One item of a `content` tool output as ctxkit writes it: text or an image, in forms both `ai` 6
 * and 7 accept (other items are carried as they came; an image read from `ai` 6's deprecated
 * `media` item is written as `image-data`).
 *
 * @example
 * ```ts
 * const item: ToolResultContentItem = { type: 'image-url', url: 'https://example.com/chart.png' };
 * ```
 */
export type ToolResultContentItem =
  | { type: 'text'; text: string; providerOptions?: ProviderOptions }
  | { type: 'image-data'; data: string; mediaType: string; providerOptions?: ProviderOptions }
  | { type: 'image-url'; url: string; providerOptions?: ProviderOptions };

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
