// `ctxkit/schemas`: the zod schemas of the message and session-entry model and of the settings, and
// the wire strings of the messages ctxkit writes (recognise those with `ctxkitMessageKind` from the
// root; the strings are here for hosts that must match them byte for byte, such as a database query).
export { contextConfigSchema } from '../config/context-config-schema.js';
export {
  ARCHIVED_RESULT_PATTERN,
  ARCHIVED_RESULT_PLACEHOLDER,
  BRANCH_SUMMARY_PREFIX,
  CLEARED_RESULT_KIND,
  CLEARED_RESULT_PLACEHOLDER,
  DIGEST_PREFIX,
  MISSING_RESULT_TEXT,
  SUMMARY_PREFIX,
  TOOL_SUMMARY_PREFIX,
} from '../messages/wire-strings.js';
export {
  branchSummaryEntrySchema,
  compactionEntrySchema,
  customEntrySchema,
  customMessageEntrySchema,
  labelEntrySchema,
  messageEntrySchema,
  modelChangeEntrySchema,
  sessionEntryInputSchema,
  sessionEntrySchema,
  sessionInfoEntrySchema,
  thinkingLevelChangeEntrySchema,
} from './entries.js';
export {
  assistantMessageSchema,
  imageContentSchema,
  messageMetaSchema,
  messageSchema,
  textContentSchema,
  thinkingContentSchema,
  toolCallSchema,
  toolResultMessageSchema,
  usageSchema,
  userMessageSchema,
} from './messages.js';
export { compactionUsageSchema, nativeCompactionSchema } from './native-compaction.js';
