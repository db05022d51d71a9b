/**
 * zod schemas for the message model and the session-tree entries, annotated against the
 * hand-written types in `types.ts` so that any drift between the two is a compile error.
 *
 * Use them to validate untrusted input: session files, stored rows, messages from another process.
 * Object schemas strip unknown keys from what they return; stores validate with them but keep the
 * entry as written.
 */
import { z } from 'zod';
import { anchorSchema } from '../summarizing/anchors/anchor.js';
import type {
  AssistantMessage,
  BranchSummaryEntry,
  CompactionEntry,
  CustomEntry,
  CustomMessageEntry,
  ImageContent,
  LabelEntry,
  Message,
  MessageEntry,
  MessageMeta,
  ModelChangeEntry,
  SessionEntry,
  SessionEntryInput,
  SessionInfoEntry,
  TextContent,
  ThinkingContent,
  ThinkingLevelChangeEntry,
  ToolCall,
  ToolResultMessage,
  Usage,
  UserMessage,
} from '../types.js';

const tokenCount = z.number().nonnegative();
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
});

const userContent = z.union([
  z.string(),
  z.array(z.discriminatedUnion('type', [textContentObject, imageContentObject])),
]);

const userMessageObject = z.object({
  role: z.literal('user'),
  content: userContent,
  meta: messageMetaSchema.optional(),
  providerData,
});
const assistantMessageObject = z.object({
  role: z.literal('assistant'),
  content: z.array(z.discriminatedUnion('type', [textContentObject, thinkingContentObject, toolCallObject])),
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
  content: z.array(z.discriminatedUnion('type', [textContentObject, imageContentObject])),
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
export const messageSchema: z.ZodType<Message> = z.discriminatedUnion('role', [
  userMessageObject,
  assistantMessageObject,
  toolResultMessageObject,
]);

const base = {
  id: z.string().min(1),
  parentId: z.string().min(1).nullable(),
  // Milliseconds since the epoch, within the range a JavaScript Date can hold.
  timestamp: z.number().nonnegative().max(8.64e15, 'a timestamp in milliseconds since 1970, at most 8.64e15'),
};

const messageEntryObject = z.object({ ...base, type: z.literal('message'), message: messageSchema });
const customMessageEntryObject = z.object({
  ...base,
  type: z.literal('custom_message'),
  customType: z.string(),
  content: userContent,
  display: z.boolean().optional(),
  details: z.unknown().optional(),
});
const compactionEntryObject = z.object({
  ...base,
  type: z.literal('compaction'),
  summary: z.string(),
  firstKeptEntryId: z.string().min(1),
  tokensBefore: tokenCount,
  details: z.unknown().optional(),
});
const branchSummaryEntryObject = z.object({
  ...base,
  type: z.literal('branch_summary'),
  fromId: z.string().min(1),
  summary: z.string(),
  details: z.unknown().optional(),
});
const modelChangeEntryObject = z.object({
  ...base,
  type: z.literal('model_change'),
  provider: z.string(),
  modelId: z.string(),
});
const thinkingLevelChangeEntryObject = z.object({
  ...base,
  type: z.literal('thinking_level_change'),
  thinkingLevel: z.string(),
});
const labelEntryObject = z.object({
  ...base,
  type: z.literal('label'),
  targetId: z.string().min(1),
  // A label of `undefined` (a removed label) has no key once written as JSON.
  label: z
    .string()
    .optional()
    .transform((label) => label),
});
const sessionInfoEntryObject = z.object({
  ...base,
  type: z.literal('session_info'),
  name: z.string().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});
const customEntryObject = z.object({
  ...base,
  type: z.literal('custom'),
  customType: z.string(),
  data: z.unknown().optional(),
});

/** Validates a {@link MessageEntry}. @example `messageEntrySchema.parse(entry)` */
export const messageEntrySchema: z.ZodType<MessageEntry> = messageEntryObject;
/** Validates a {@link CustomMessageEntry}. @example `customMessageEntrySchema.parse(entry)` */
export const customMessageEntrySchema: z.ZodType<CustomMessageEntry> = customMessageEntryObject;
/** Validates a {@link CompactionEntry}. @example `compactionEntrySchema.parse(entry)` */
export const compactionEntrySchema: z.ZodType<CompactionEntry> = compactionEntryObject;
/** Validates a {@link BranchSummaryEntry}. @example `branchSummaryEntrySchema.parse(entry)` */
export const branchSummaryEntrySchema: z.ZodType<BranchSummaryEntry> = branchSummaryEntryObject;
/** Validates a {@link ModelChangeEntry}. @example `modelChangeEntrySchema.parse(entry)` */
export const modelChangeEntrySchema: z.ZodType<ModelChangeEntry> = modelChangeEntryObject;
/** Validates a {@link ThinkingLevelChangeEntry}. @example `thinkingLevelChangeEntrySchema.parse(entry)` */
export const thinkingLevelChangeEntrySchema: z.ZodType<ThinkingLevelChangeEntry> = thinkingLevelChangeEntryObject;
/** Validates a {@link LabelEntry}. @example `labelEntrySchema.parse(entry)` */
export const labelEntrySchema: z.ZodType<LabelEntry> = labelEntryObject;
/** Validates a {@link SessionInfoEntry}. @example `sessionInfoEntrySchema.parse(entry)` */
export const sessionInfoEntrySchema: z.ZodType<SessionInfoEntry> = sessionInfoEntryObject;
/** Validates a {@link CustomEntry}. @example `customEntrySchema.parse(entry)` */
export const customEntrySchema: z.ZodType<CustomEntry> = customEntryObject;

const entryObjects = [
  messageEntryObject,
  customMessageEntryObject,
  compactionEntryObject,
  branchSummaryEntryObject,
  modelChangeEntryObject,
  thinkingLevelChangeEntryObject,
  labelEntryObject,
  sessionInfoEntryObject,
  customEntryObject,
] as const;

/**
 * Validates any stored {@link SessionEntry}, discriminated by `type`.
 *
 * @example
 * ```ts
 * const result = sessionEntrySchema.safeParse(JSON.parse(line));
 * if (!result.success) console.warn(z.prettifyError(result.error));
 * ```
 */
export const sessionEntrySchema: z.ZodType<SessionEntry> = z.discriminatedUnion('type', [...entryObjects]);

const inputFields = {
  id: base.id.optional(),
  parentId: base.parentId.optional(),
  timestamp: base.timestamp.optional(),
};

/**
 * Validates a {@link SessionEntryInput}: an entry as a host appends it, with `id`, `parentId` and
 * `timestamp` optional.
 *
 * @example
 * ```ts
 * sessionEntryInputSchema.parse({ type: 'message', message: { role: 'user', content: 'hi' } });
 * ```
 */
export const sessionEntryInputSchema: z.ZodType<SessionEntryInput> = z.discriminatedUnion('type', [
  messageEntryObject.extend(inputFields),
  customMessageEntryObject.extend(inputFields),
  compactionEntryObject.extend(inputFields),
  branchSummaryEntryObject.extend(inputFields),
  modelChangeEntryObject.extend(inputFields),
  thinkingLevelChangeEntryObject.extend(inputFields),
  labelEntryObject.extend(inputFields),
  sessionInfoEntryObject.extend(inputFields),
  customEntryObject.extend(inputFields),
]);
