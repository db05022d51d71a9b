// Every message ctxkit writes into a history is built in this folder (`messages/`), and one predicate,
// `ctxkitMessageKind`, recognises them. The wire strings below live here and nowhere else; the
// pipeline, the session tree and the manager build their messages through this folder's functions.

/** First line of a compaction summary message. */
export const SUMMARY_PREFIX = '[Previous conversation summary]';
/** First line of a tool-result summary message. */
export const TOOL_SUMMARY_PREFIX = '[Tool result summary]';
/** First line of the digest of tool results archived during compaction. */
export const DIGEST_PREFIX = '[Compaction tool digest]';
/** First line of a branch summary message. */
export const BRANCH_SUMMARY_PREFIX = '[Summary of an abandoned branch]';
/**
 * Content ctxkit sent in place of an archived tool result before placeholders named their recall id;
 * still recognised as one (a host may have stored what it sent).
 */
export const ARCHIVED_RESULT_PLACEHOLDER =
  '[Tool result archived: its output was summarized earlier in the conversation]';
/**
 * Content sent in place of an archived tool result: `[archived r0k3x9a2b: 48k chars; recall r0k3x9a2b]`,
 * the result's recall id and the size of its output.
 */
export const ARCHIVED_RESULT_PATTERN = /^\[archived (r[0-9a-z]{8}): [0-9.]+[kM]? chars; recall \1\]$/;
/** Content of the error result added for a tool call without one. */
export const MISSING_RESULT_TEXT = '[No result: this tool call did not complete, so no output is available]';
/** Default text of a cleared tool result. */
export const CLEARED_RESULT_PLACEHOLDER = '[Tool result cleared to save context. Call the tool again if you need it.]';
/** `meta.kind` of a cleared tool result. */
export const CLEARED_RESULT_KIND = 'tool_result_cleared';
