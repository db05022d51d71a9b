// The user messages ctxkit writes besides the compaction summary (see `create-summary-message.ts`).
import type { UserMessage } from '../types.js';
import { BRANCH_SUMMARY_PREFIX, DIGEST_PREFIX, TOOL_SUMMARY_PREFIX } from './wire-strings.js';

/** The user message that carries a tool-result summary (hidden from the user). @internal */
export function createToolSummaryMessage(summary: string): UserMessage {
  return {
    role: 'user',
    content: `${TOOL_SUMMARY_PREFIX}\n${summary}`,
    meta: { agentVisible: true, userVisible: false, kind: 'tool_summary' },
  };
}

/** The digest message of tool results archived during compaction, one line each. @internal */
export function createDigestMessage(lines: readonly string[]): UserMessage {
  return {
    role: 'user',
    content: `${DIGEST_PREFIX}\n${lines.join('\n')}`,
    meta: { agentVisible: true, userVisible: false, kind: 'tool_summary' },
  };
}

/** The user message a branch summary entry stands for. @internal */
export function createBranchSummaryMessage(summary: string): UserMessage {
  return { role: 'user', content: `${BRANCH_SUMMARY_PREFIX}\n${summary}`, meta: { kind: 'branch_summary' } };
}
