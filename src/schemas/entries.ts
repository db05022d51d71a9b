// zod schemas for the session-tree entries, annotated against `types.ts` like the message schemas.
import * as z from 'zod/v4';
import type {
  BranchSummaryEntry,
  CompactionEntry,
  CustomEntry,
  CustomMessageEntry,
  LabelEntry,
  MessageEntry,
  ModelChangeEntry,
  SessionEntry,
  SessionEntryInput,
  SessionInfoEntry,
  ThinkingLevelChangeEntry,
} from '../session-entry.js';
import { messageSchema, tokenCount, userContent } from './messages.js';
import { nativeCompactionSchema } from './native-compaction.js';
import { discriminatorError } from './zod-discriminator.js';

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
  native: nativeCompactionSchema.optional(),
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
export const sessionEntrySchema: z.ZodType<SessionEntry> = z.discriminatedUnion(
  'type',
  [...entryObjects],
  discriminatorError,
);

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
export const sessionEntryInputSchema: z.ZodType<SessionEntryInput> = z.discriminatedUnion(
  'type',
  [
    messageEntryObject.extend(inputFields),
    customMessageEntryObject.extend(inputFields),
    compactionEntryObject.extend(inputFields),
    branchSummaryEntryObject.extend(inputFields),
    modelChangeEntryObject.extend(inputFields),
    thinkingLevelChangeEntryObject.extend(inputFields),
    labelEntryObject.extend(inputFields),
    sessionInfoEntryObject.extend(inputFields),
    customEntryObject.extend(inputFields),
  ],
  discriminatorError,
);
