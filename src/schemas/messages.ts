/**
 * zod schemas for the message model (the session-tree entries are in `entries.ts`), annotated against the
 * hand-written types in `types.ts` so that any drift between the two is a compile error.
 *
 * Use them to validate untrusted input: session files, stored rows, messages from another process.
 * Object schemas strip unknown keys from what they return; stores validate with them but keep the
 * entry as written.
 */
import * as z from 'zod/v4';
import { ANCHOR_CATEGORIES, type Anchor, type AnchorCategory } from '../summarizing/anchors/anchor.js';
import type {
  AssistantMessage,
  ImageContent,
  Message,
  MessageMeta,
  TextContent,
  ThinkingContent,
  ToolCall,
  ToolResultMessage,
  Usage,
  UserMessage,
} from '../types.js';
import { compactionUsageSchema, nativeCompactionSchema } from './native-compaction.js';
import { discriminatorError } from './zod-discriminator.js';

/** A token count: a number ≥ 0. @internal */
export const tokenCount = z.number().nonnegative();
const providerData = z.record(z.string(), z.unknown()).optional();

const textContentObject = z.object({ type: z.literal('text'), text: z.string(), providerData });
const imageContentObject = z.object({
  type: z.literal('image'),
  data: z.string(),
  mimeType: z.string(),
  providerData,
});
const thinkingContentObject = z.object({
  type: z.literal('thinking'),
  thinking: z.string(),
  signature: z.string().optional(),
  redacted: z.boolean().optional(),
  providerData,
});
const toolCallObject = z.object({
  type: z.literal('toolCall'),
  id: z.string().min(1),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  providerData,
});

/** Validates a {@link TextContent} part. @example `textContentSchema.parse({ type: 'text', text: 'hi' })` */
export const textContentSchema: z.ZodType<TextContent> = textContentObject;
/** Validates an {@link ImageContent} part. @example `imageContentSchema.parse({ type: 'image', data, mimeType: 'image/png' })` */
export const imageContentSchema: z.ZodType<ImageContent> = imageContentObject;
/** Validates a {@link ThinkingContent} part. @example `thinkingContentSchema.parse({ type: 'thinking', thinking: '…' })` */
export const thinkingContentSchema: z.ZodType<ThinkingContent> = thinkingContentObject;
/** Validates a {@link ToolCall} part. @example `toolCallSchema.parse({ type: 'toolCall', id: 'c1', name: 'ls', arguments: {} })` */
export const toolCallSchema: z.ZodType<ToolCall> = toolCallObject;

/** Validates provider {@link Usage}. @example `usageSchema.parse({ input: 1200, output: 80 })` */
export const usageSchema: z.ZodType<Usage> = z.object({
  input: tokenCount,
  output: tokenCount,
  cacheRead: tokenCount.optional(),
  cacheWrite: tokenCount.optional(),
  total: tokenCount.optional(),
  compaction: compactionUsageSchema.optional(),
});

/** A pinned fact in `meta.anchors` (the light twin the summarizers use is held equal to it). */
const anchorSchema: z.ZodType<Anchor> = z.object({
  category: z.enum(ANCHOR_CATEGORIES as [AnchorCategory, ...AnchorCategory[]]),
  text: z.string(),
  keys: z.array(z.string()),
  required: z.boolean().optional(),
  sources: z.array(z.string()).optional(),
});

/** Validates {@link MessageMeta}. @example `messageMetaSchema.parse({ kind: 'tool_summary', userVisible: false })` */
export const messageMetaSchema: z.ZodType<MessageMeta> = z.object({
  id: z.string().optional(),
  timestamp: z.number().optional(),
  agentVisible: z.boolean().optional(),
  userVisible: z.boolean().optional(),
  kind: z.string().optional(),
  keptMessages: z.number().int().nonnegative().optional(),
  anchors: z.array(anchorSchema).optional(),
  native: nativeCompactionSchema.optional(),
});

/** The content of a user message: text, or text and image parts. @internal */
export const userContent = z.union([
  z.string(),
  z.array(z.discriminatedUnion('type', [textContentObject, imageContentObject], discriminatorError)),
]);

const userMessageObject = z.object({
  role: z.literal('user'),
  content: userContent,
  meta: messageMetaSchema.optional(),
  providerData,
});
const assistantMessageObject = z.object({
  role: z.literal('assistant'),
  content: z.array(
    z.discriminatedUnion('type', [textContentObject, thinkingContentObject, toolCallObject], discriminatorError),
  ),
  usage: usageSchema.optional(),
  stopReason: z.enum(['stop', 'length', 'toolUse', 'error', 'aborted']).optional(),
  errorMessage: z.string().optional(),
  provider: z.string().optional(),
  model: z.string().optional(),
  meta: messageMetaSchema.optional(),
  providerData,
});
const toolResultMessageObject = z.object({
  role: z.literal('toolResult'),
  toolCallId: z.string().min(1),
  toolName: z.string(),
  content: z.array(z.discriminatedUnion('type', [textContentObject, imageContentObject], discriminatorError)),
  isError: z.boolean().optional(),
  meta: messageMetaSchema.optional(),
  providerData,
});

/** Validates a {@link UserMessage}. @example `userMessageSchema.parse({ role: 'user', content: 'hello' })` */
export const userMessageSchema: z.ZodType<UserMessage> = userMessageObject;
/** Validates an {@link AssistantMessage}. @example `assistantMessageSchema.parse({ role: 'assistant', content: [] })` */
export const assistantMessageSchema: z.ZodType<AssistantMessage> = assistantMessageObject;
/** Validates a {@link ToolResultMessage}. @example `toolResultMessageSchema.parse(result)` */
export const toolResultMessageSchema: z.ZodType<ToolResultMessage> = toolResultMessageObject;

/**
 * Validates any {@link Message}, discriminated by `role`.
 *
 * @example
 * ```ts
 * const message = messageSchema.parse(JSON.parse(line));
 * ```
 */
export const messageSchema: z.ZodType<Message> = z.discriminatedUnion(
  'role',
  [userMessageObject, assistantMessageObject, toolResultMessageObject],
  discriminatorError,
);
