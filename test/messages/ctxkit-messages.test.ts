import { describe, expect, it } from 'vitest';
import {
  clearToolUses,
  compact,
  ctxkitMessageKind,
  heuristicSummarizer,
  prepareModelMessages,
  summarizeToolResults,
} from '../../src/index.js';
import {
  ARCHIVED_RESULT_PLACEHOLDER,
  CLEARED_RESULT_PLACEHOLDER,
  DIGEST_PREFIX,
  MISSING_RESULT_TEXT,
  TOOL_SUMMARY_PREFIX,
} from '../../src/schemas/index.js';
import { entryToMessage } from '../../src/session/index.js';
import { createSummaryMessage } from '../../src/summarizing/index.js';
import {
  assistantMessage,
  conversation,
  toolCallMessage,
  toolResultMessage,
  userMessage,
} from '../../src/testing/index.js';

const toolStep = (id: string, output: string) => [
  toolCallMessage([{ id, name: 'bash', arguments: { command: `run ${id}` } }]),
  toolResultMessage(id, output, { toolName: 'bash' }),
];

describe('ctxkitMessageKind', () => {
  it('is undefined for the host’s own messages', () => {
    const history = conversation(userMessage('hi'), assistantMessage('hello'), toolStep('a', 'ok'));
    expect(history.map(ctxkitMessageKind)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('recognises the summaries, digests and placeholders the pipeline writes', async () => {
    const history = conversation(
      userMessage('fix the parser'),
      Array.from({ length: 6 }, (_, index) => toolStep(`c${index}`, `line\n`.repeat(400))).flat(),
      assistantMessage('done'),
    );
    const summarized = await summarizeToolResults(history, {
      batch: 0,
      summarizer: heuristicSummarizer,
      config: { toolCallCutoff: 2, toolSummaryStrategy: 'heuristic' },
    });
    const kinds = new Set(summarized.messages.map(ctxkitMessageKind));
    expect(kinds).toContain('tool_summary');
    expect(kinds).toContain('archived_result');
    const projected = prepareModelMessages(summarized.messages).map(ctxkitMessageKind);
    expect(projected).toContain('archived_result');

    const compacted = await compact(history, { summarizer: heuristicSummarizer, config: { keepRecentTokens: 50 } });
    expect(ctxkitMessageKind(compacted.messages[0]!)).toBe('compaction_summary');

    const cleared = clearToolUses(history, { trigger: 0, keep: 1 });
    expect(cleared.messages.map(ctxkitMessageKind)).toContain('cleared_result');
  });

  it('recognises a branch summary and a synthesized missing result', () => {
    const branch = entryToMessage({
      type: 'branch_summary',
      id: 'b',
      parentId: null,
      timestamp: '2026-01-01T00:00:00.000Z',
      fromId: 'x',
      summary: 'tried another approach',
    } as never);
    expect(ctxkitMessageKind(branch!)).toBe('branch_summary');
    const projected = prepareModelMessages([userMessage('go'), ...toolStep('a', 'ok').slice(0, 1)]);
    expect(ctxkitMessageKind(projected.at(-1)!)).toBe('missing_result');
  });

  it('falls back to the text when meta was lost in storage', () => {
    const summary = createSummaryMessage('the checkpoint');
    const { meta: _meta, ...bare } = summary;
    expect(ctxkitMessageKind(bare)).toBe('compaction_summary');
    expect(ctxkitMessageKind(userMessage(`${TOOL_SUMMARY_PREFIX}\nthree tests failed`))).toBe('tool_summary');
    expect(ctxkitMessageKind(userMessage(`${DIGEST_PREFIX}\n- bash: ok`))).toBe('tool_digest');
    expect(ctxkitMessageKind(toolResultMessage('a', ARCHIVED_RESULT_PLACEHOLDER))).toBe('archived_result');
    expect(ctxkitMessageKind(toolResultMessage('a', MISSING_RESULT_TEXT))).toBe('missing_result');
    expect(ctxkitMessageKind(toolResultMessage('a', CLEARED_RESULT_PLACEHOLDER))).toBe('cleared_result');
  });

  it('does not claim a host message of another kind that quotes a prefix', () => {
    expect(ctxkitMessageKind(userMessage(`${TOOL_SUMMARY_PREFIX}\nquoted`, { kind: 'custom' }))).toBeUndefined();
    expect(ctxkitMessageKind(assistantMessage(`${TOOL_SUMMARY_PREFIX}\nquoted`))).toBeUndefined();
  });
});
