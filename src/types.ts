import type { CompactionUsage, NativeCompaction } from './native-compaction.js';
import type { Anchor } from './summarizing/anchors/anchor.js';
/**
 * The provider-neutral message model (the session-tree entries are in `session-entry.ts`).
 *
 * Types are written by hand for readable docs; the zod schemas in `schemas/` are annotated against
 * them so any drift is a compile error.
 */

/**
 * Provider data that ctxkit does not model, carried verbatim so a wire-format adapter can rebuild the
 * provider's own message exactly (item ids, `cache_control`, citations, server-tool blocks, unknown
 * future parts). Keys are adapter namespaces (`openai`, `anthropic`, `ai-sdk`); values are that
 * adapter's own JSON. Session stores persist it; the core copies it along and never reads it.
 *
 * @example
 * ```ts
 * const part: TextContent = { type: 'text', text: 'hi', providerData: { anthropic: { cache_control: { type: 'ephemeral' } } } };
 * ```
 */
export type ProviderData = Record<string, unknown>;

/** Plain text inside a message. */
export interface TextContent {
  type: 'text';
  text: string;
  /** Adapter data ctxkit does not model, kept for the round trip. */
  providerData?: ProviderData;
}

/**
 * An image inside a user message or tool result.
 *
 * @example
 * ```ts
 * const image: ImageContent = { type: 'image', data: 'iVBORw0KGgo…', mimeType: 'image/png' };
 * ```
 */
export interface ImageContent {
  type: 'image';
  /** Base64 data or a URL. */
  data: string;
  mimeType: string /** Adapter data ctxkit does not model, kept for the round trip. */;
  providerData?: ProviderData;
}

/** A model's reasoning, kept so it can be replayed to providers that require it. */
export interface ThinkingContent {
  type: 'thinking';
  thinking: string;
  /** Provider signature that must be sent back unchanged. */
  signature?: string;
  /** True when the provider returned only an encrypted form. */
  redacted?: boolean /** Adapter data ctxkit does not model, kept for the round trip. */;
  providerData?: ProviderData;
}

/**
 * A tool call made by the assistant. Every call must be followed by exactly one
 * {@link ToolResultMessage} with the same `id` before the next model request.
 */
export interface ToolCall {
  type: 'toolCall';
  id: string;
  name: string;
  arguments: Record<string, unknown> /** Adapter data ctxkit does not model, kept for the round trip. */;
  providerData?: ProviderData;
}

/** Token usage a provider reported for one response. */
export interface Usage {
  /** Input (prompt) tokens, excluding cache reads and writes when the provider splits them. */
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  /** The provider's own total, when it reports one. */
  total?: number;
  /**
   * What the provider's own compaction step used in this response (Anthropic's compaction
   * iterations, summed): billed, but not part of the context the next request sends, so token
   * accounting leaves it out of `input` and `total`.
   */
  compaction?: CompactionUsage;
}

/** Why the assistant stopped. `error` and `aborted` turns are never sent back to a model. */
export type StopReason = 'stop' | 'length' | 'toolUse' | 'error' | 'aborted';

/**
 * The kinds of message ctxkit itself creates or recognises, as `meta.kind` carries them (public
 * through {@link MessageMeta}; `ctxkitMessageKind` says which of ctxkit's messages one is):
 *
 * - `tool_result` — normal tool output
 * - `tool_result_archived` — tool output hidden from the model after summarization
 * - `tool_summary` — a summary or digest of archived tool output
 * - `compaction_summary` — the checkpoint that replaces compacted history
 * - `branch_summary` — the summary of an abandoned branch
 * - `custom` — host content injected into the context
 */
type MessageKind =
  | 'tool_result'
  | 'tool_result_archived'
  | 'tool_summary'
  | 'compaction_summary'
  | 'branch_summary'
  | 'custom';

/**
 * Routing metadata carried by every message. Visibility flags default to `true` when unset.
 *
 * @example
 * ```ts
 * const meta: MessageMeta = { kind: 'tool_summary', agentVisible: true, userVisible: false };
 * ```
 */
export interface MessageMeta {
  id?: string;
  /** Milliseconds since the epoch. */
  timestamp?: number;
  /** `false` keeps the message out of model requests and token counts. @default true */
  agentVisible?: boolean;
  /** `false` hides the message from a transcript UI. @default true */
  userVisible?: boolean;
  /**
   * What the message is: `tool_result`, `tool_result_archived` (hidden after summarization),
   * `tool_summary`, `compaction_summary`, `branch_summary` or `custom` (host content); hosts may use
   * other strings. Recognise ctxkit's own messages with `ctxkitMessageKind`.
   */
  kind?: MessageKind | (string & {});
  /**
   * On a compaction summary: how many of the messages right after it were kept from before the
   * compaction. Their usage reports describe the old, larger context, so token estimates ignore them.
   */
  keptMessages?: number;
  /**
   * On a compaction summary: the facts the checkpoint keeps (see `extractAnchors`), read again by the
   * next compaction so a fact kept once is checked every time after.
   */
  anchors?: Anchor[];
  /**
   * On a compaction summary made by the provider: the native payload, sent only to the provider,
   * API and model that made it (see `resolveNativeCompactions`); every other model gets the
   * message's text, the portable summary.
   */
  native?: NativeCompaction;
}

/** A message from the user (or injected on the user's side, such as a summary). */
export interface UserMessage {
  role: 'user';
  content: string | (TextContent | ImageContent)[];
  meta?: MessageMeta;
  /** Adapter data ctxkit does not model, kept for the round trip. */
  providerData?: ProviderData;
}

/** A response from the model. */
export interface AssistantMessage {
  role: 'assistant';
  content: (TextContent | ThinkingContent | ToolCall)[];
  usage?: Usage;
  stopReason?: StopReason;
  errorMessage?: string;
  provider?: string;
  model?: string;
  meta?: MessageMeta;
  /** Adapter data ctxkit does not model, kept for the round trip. */
  providerData?: ProviderData;
}

/** The output of one tool call. */
export interface ToolResultMessage {
  role: 'toolResult';
  toolCallId: string;
  toolName: string;
  content: (TextContent | ImageContent)[];
  isError?: boolean;
  meta?: MessageMeta;
  /** Adapter data ctxkit does not model, kept for the round trip. */
  providerData?: ProviderData;
}

/**
 * Any message in a conversation.
 *
 * @example
 * ```ts
 * const messages: Message[] = [
 *   { role: 'user', content: 'List the files' },
 *   { role: 'assistant', content: [{ type: 'toolCall', id: 'c1', name: 'ls', arguments: {} }] },
 *   { role: 'toolResult', toolCallId: 'c1', toolName: 'ls', content: [{ type: 'text', text: 'a.ts' }] },
 * ];
 * ```
 */
export type Message = UserMessage | AssistantMessage | ToolResultMessage;

/** The role of a {@link Message}. */
export type Role = Message['role'];
