import type {
  ModelFilePart,
  ModelImagePart,
  ModelOtherPart,
  ModelReasoningPart,
  ModelTextPart,
  ModelToolCallPart,
  ModelToolResultPart,
  ProviderOptions,
} from './part-types.js';

// The AI SDK's messages (their parts are in part-types.ts), and what a conversion reports when it
// cannot carry something exactly.

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
 * const approval = { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'call_1' };
 * const message: AISDKMessageInput = { role: 'assistant', content: [approval] };
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
