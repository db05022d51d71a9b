import { describe, expect, it } from 'vitest';
import {
  type AssistantMessage,
  CompactionError,
  compact,
  DIGEST_PREFIX,
  heuristicSummarizer,
  type Message,
  planCompaction,
  referenceCounter,
  resolveConfig,
  SUMMARY_PREFIX,
  type Summarizer,
  type SummaryRequest,
  summaryText,
  type ToolResultMessage,
} from '../../src/index.js';

// Under the reference counter, 4 characters cost 1 token.
const user = (tokens: number, label = 'u'): Message => ({ role: 'user', content: label.repeat(tokens * 4) });
const call = (id: string): AssistantMessage => ({
  role: 'assistant',
  content: [{ type: 'toolCall', id, name: 'bash', arguments: { command: `run ${id}` } }],
});
const result = (id: string, text: string): ToolResultMessage => ({
  role: 'toolResult',
  toolCallId: id,
  toolName: 'bash',
  content: [{ type: 'text', text }],
});

function recordingSummarizer(
  output: Awaited<ReturnType<Summarizer['summarize']>> = 'GOAL: fix the parser',
): Summarizer & {
  requests: SummaryRequest[];
} {
  const requests: SummaryRequest[] = [];
  return {
    requests,
    async summarize(request) {
      requests.push(request);
      return output;
    },
  };
}

// A limit of 8000 tokens (maxTokens) gives a tail budget of 4000 tokens.
const config = resolveConfig();

describe('compact', () => {
  it('keeps the tail verbatim behind one summary message and reports its numbers', async () => {
    const messages = [user(3000, 'a'), user(3000, 'b'), user(1500, 'c'), user(1500, 'd')];
    const summarizer = recordingSummarizer();
    const result = await compact(messages, { summarizer, config });
    expect(result.firstKeptIndex).toBe(2);
    expect(result.messages).toHaveLength(3);
    expect(result.messages[0]).toMatchObject({
      role: 'user',
      meta: { kind: 'compaction_summary', agentVisible: true },
    });
    expect(result.messages[0]?.content).toBe(`${SUMMARY_PREFIX}\nGOAL: fix the parser`);
    expect(result.messages[1]).toBe(messages[2]);
    expect(result.messages[2]).toBe(messages[3]);
    expect(result).toMatchObject({
      summary: 'GOAL: fix the parser',
      summarizedCount: 2,
      archivedCount: 0,
      tokensBefore: 9000,
    });
    expect(result.tokensAfter).toBeLessThan(result.tokensBefore);
    expect(summarizer.requests[0]).toMatchObject({ kind: 'compaction' });
    expect(summarizer.requests[0]?.messages).toEqual(messages.slice(0, 2));
  });

  it('cuts tool results to 1,800 code points in the summarizer input', async () => {
    const long = '😀'.repeat(5000);
    const messages = [user(10), call('a'), result('a', long), user(4000)];
    const plan = planCompaction(messages, { config });
    const cut = plan.toSummarize.find((message) => message.role === 'toolResult') as ToolResultMessage;
    const text = cut.content[0]?.type === 'text' ? cut.content[0].text : '';
    expect(Array.from(text).length).toBeLessThanOrEqual(1800);
    expect(Array.from(text).length).toBeGreaterThan(1700);
    expect(messages[2]).toEqual(result('a', long));
  });

  it('updates an earlier summary instead of summarizing it again', async () => {
    const first = await compact([user(3000), user(3000), user(3000)], {
      summarizer: recordingSummarizer('FIRST'),
      config,
    });
    const summarizer = recordingSummarizer('SECOND');
    const grown = [...first.messages, user(3000, 'x'), user(3000, 'y')];
    const second = await compact(grown, { summarizer, config });
    expect(summarizer.requests[0]?.previousSummary).toBe('FIRST');
    expect(summarizer.requests[0]?.messages.some((message) => summaryText(message) !== undefined)).toBe(false);
    expect(summaryText(second.messages[0]!)).toBe('SECOND');
  });

  it('keeps every message the first compaction kept when compacting again', async () => {
    const messages = [user(3000, 'a'), user(3000, 'b'), user(1000, 'c'), user(1000, 'd')];
    const first = await compact(messages, { summarizer: recordingSummarizer('S1'), config });
    const kept = first.messages.slice(1);
    const summarizer = recordingSummarizer('S2');
    const second = await compact([...first.messages, user(3500, 'e')], { summarizer, config });
    const seen = [...(summarizer.requests[0]?.messages ?? []), ...second.messages];
    for (const message of kept) expect(seen).toContain(message);
  });

  it('archives tool results in the tail beyond the cutoff under one digest', async () => {
    const tail: Message[] = [];
    for (let index = 0; index < 12; index++)
      tail.push(call(`c${index}`), result(`c${index}`, `error: case ${index} failed`));
    const messages = [user(6000), ...tail];
    const result_ = await compact(messages, { summarizer: recordingSummarizer(), config });
    expect(result_.archivedCount).toBe(2);
    const archived = result_.messages.filter((message) => message.meta?.kind === 'tool_result_archived');
    expect(archived).toHaveLength(2);
    expect(archived.every((message) => message.meta?.agentVisible === false)).toBe(true);
    const digest = result_.messages[result_.messages.length - 1]!;
    expect(digest).toMatchObject({
      role: 'user',
      meta: { kind: 'tool_summary', agentVisible: true, userVisible: false },
    });
    expect(String(digest.content)).toMatch(new RegExp(`^\\${DIGEST_PREFIX}`));
    expect(String(digest.content)).toContain('case 0 failed');
  });

  it.each([
    ['SUMMARIZER_FAILED', { summarize: () => Promise.reject(new Error('503')) } satisfies Summarizer],
    ['SUMMARY_EMPTY', recordingSummarizer('   ')],
    ['SUMMARY_TRUNCATED', recordingSummarizer({ text: 'GOAL: half a sent', stopReason: 'length' })],
  ])('fails with %s and leaves the input untouched', async (code, summarizer) => {
    const messages = [user(3000), user(3000), user(3000)];
    const snapshot = structuredClone(messages);
    const error = await compact(messages, { summarizer, config }).catch((caught: unknown) => caught);
    expect(CompactionError.isInstance(error)).toBe(true);
    expect((error as CompactionError).code).toBe(code);
    expect(messages).toEqual(snapshot);
  });

  it('fails with NOT_SMALLER when the summary would not shrink the context', async () => {
    const huge = 'word '.repeat(20_000);
    const error = await compact([user(3000), user(3000), user(3000)], {
      summarizer: recordingSummarizer(huge),
      config,
    }).catch((caught: unknown) => caught);
    expect((error as CompactionError).code).toBe('NOT_SMALLER');
  });

  it('fails with NOTHING_TO_COMPACT when everything is in the tail', async () => {
    const error = await compact([user(10), user(10)], { summarizer: recordingSummarizer(), config }).catch(
      (caught: unknown) => caught,
    );
    expect((error as CompactionError).code).toBe('NOTHING_TO_COMPACT');
  });

  it('fails with ABORTED when the signal fires while the summarizer hangs', async () => {
    const controller = new AbortController();
    const hanging: Summarizer = {
      summarize: (request) =>
        new Promise((_, reject) => request.signal?.addEventListener('abort', () => reject(new Error('aborted')))),
    };
    const pending = compact([user(3000), user(3000), user(3000)], {
      summarizer: hanging,
      config,
      signal: controller.signal,
    });
    controller.abort();
    const error = await pending.catch((caught: unknown) => caught);
    expect((error as CompactionError).code).toBe('ABORTED');
  });

  it('splits by message count when keepRecentTokens is 0', async () => {
    const messages = Array.from({ length: 8 }, (_, index) => user(100, String(index)));
    const result = await compact(messages, {
      summarizer: recordingSummarizer(),
      config: { keepRecentTokens: 0, keepRecent: 3 },
    });
    expect(result.firstKeptIndex).toBe(5);
  });

  it('passes focus instructions to the summarizer', async () => {
    const summarizer = recordingSummarizer();
    await compact([user(3000), user(3000), user(3000)], { summarizer, config, instructions: 'keep the API decisions' });
    expect(summarizer.requests[0]?.instructions).toBe('keep the API decisions');
  });
});

describe('compact keeps the newest message of the conversation', () => {
  it('even when only tool-result summaries would fit in the tail', async () => {
    const question: Message = { role: 'user', content: 'q'.repeat(4_000) };
    const messages: Message[] = [
      { role: 'user', content: 'a'.repeat(8_000) },
      { role: 'assistant', content: [{ type: 'text', text: 'b'.repeat(8_000) }], stopReason: 'stop' },
      question,
      {
        role: 'user',
        content: '[Tool result summary]\n- bash: ok',
        meta: { agentVisible: true, userVisible: false, kind: 'tool_summary' },
      },
    ];
    const result = await compact(messages, {
      summarizer: heuristicSummarizer,
      config: { keepRecentTokens: 10 },
      counter: referenceCounter,
    });
    expect(result.messages).toContain(question);
    expect(result.messages[result.messages.length - 1]).toBe(messages[3]);
  });
});
