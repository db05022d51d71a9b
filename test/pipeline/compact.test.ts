import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CompactionError,
  ConfigError,
  compact,
  heuristicSummarizer,
  type Message,
  planCompaction,
  referenceCounter,
  resolveConfig,
  type Summarizer,
  shouldCompact,
  sumMessageTokens,
  type ToolResultMessage,
} from '../../src/index.js';
import { DIGEST_PREFIX, SUMMARY_PREFIX } from '../../src/schemas/index.js';
import { createSummaryMessage, type SummaryOutput, summaryText } from '../../src/summarizing/index.js';
import {
  assistantMessage,
  createScriptedSummarizer,
  toolCallMessage,
  toolResultMessage,
  userMessage,
} from '../../src/testing/index.js';

// Under the reference counter, 4 characters cost 1 token.
const user = (tokens: number, label = 'u') => userMessage(label.repeat(tokens * 4));
const call = (id: string) => toolCallMessage([{ id, name: 'bash', arguments: { command: `run ${id}` } }]);
const result = (id: string, text: string) => toolResultMessage(id, text, { toolName: 'bash' });

const recordingSummarizer = (output: SummaryOutput = 'GOAL: fix the parser') =>
  createScriptedSummarizer([], { afterScript: output });

/** A summary that fills the budget it is asked for, and no more (under the reference counter). */
const budgetFiller: Summarizer = {
  async summarize(request) {
    return 'word '.repeat(Math.floor((request.maxOutputTokens * 4) / 5));
  },
};

// A limit of 8000 tokens (maxTokens) gives a tail budget of 4000 tokens.
const config = resolveConfig();

describe('compact', () => {
  it('keeps the tail verbatim behind one summary message and reports its numbers', async () => {
    const messages = [user(3000, 'a'), user(3000, 'b'), user(1500, 'c'), user(1500, 'd')];
    const summarizer = recordingSummarizer();
    const result = await compact(messages, { summarizer, config, anchoring: false });
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
      anchoring: false,
    });
    const summarizer = recordingSummarizer('SECOND');
    const grown = [...first.messages, user(3000, 'x'), user(3000, 'y')];
    const second = await compact(grown, { summarizer, config, anchoring: false });
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
    // Within its budget, but larger than the two short messages it replaces.
    const error = await compact([user(40), user(40), user(21_000)], {
      summarizer: budgetFiller,
      config,
    }).catch((caught: unknown) => caught);
    expect((error as CompactionError).code).toBe('NOT_SMALLER');
  });

  it('cuts a summary far past its budget to the budget where a line ends, and compacts', async () => {
    let budget = 0;
    const rambling: Summarizer = {
      async summarize(request) {
        budget = request.maxOutputTokens;
        const lines = Array.from({ length: budget }, (_, index) => `- Step ${index}: ran the parser tests again.`);
        return lines.join('\n');
      },
    };
    const result = await compact([user(3000), user(3000), user(3000)], {
      summarizer: rambling,
      config,
      anchoring: false,
    });
    const text = summaryText(result.messages[0]!)!;
    expect(referenceCounter.count(text)).toBeLessThanOrEqual(budget + 20);
    expect(referenceCounter.count(text)).toBeGreaterThan(budget * 0.8);
    expect(text.split('\n').at(-1)).toMatch(/^- Step \d+: ran the parser tests again\.$/);
    expect(result.tokensAfter).toBeLessThan(result.tokensBefore);
  });

  it('cuts a Chinese summary with no line ends after a sentence (。), not inside one', async () => {
    let budget = 0;
    const rambling: Summarizer = {
      async summarize(request) {
        budget = request.maxOutputTokens;
        return Array.from({ length: budget }, (_, index) => `第${index}步重新运行了解析器测试。`).join('');
      },
    };
    const result = await compact([user(3000), user(3000), user(3000)], {
      summarizer: rambling,
      config,
      anchoring: false,
    });
    const text = summaryText(result.messages[0]!)!;
    expect(referenceCounter.count(text)).toBeLessThanOrEqual(budget + 20);
    expect(text).toMatch(/第\d+步重新运行了解析器测试。$/);
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
    const question = userMessage('q'.repeat(4_000));
    const messages: Message[] = [
      userMessage('a'.repeat(8_000)),
      assistantMessage('b'.repeat(8_000)),
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

describe('compact: the default summary budget', () => {
  // Twelve exchanges of 1,000 + 1,000 tokens; the reference limit is 8,000 (maxTokens), the tail 4,000.
  const long = (): Message[] => {
    const messages: Message[] = [];
    for (let index = 0; index < 12; index++) {
      messages.push(user(1000, 'u'), assistantMessage('a'.repeat(4000)));
    }
    return messages;
  };

  it('leaves the rebuilt context under the limit with margin, so the next turn does not compact again', async () => {
    // A verbose model that writes 70% of whatever budget it is given.
    const verbose = createScriptedSummarizer([(request) => 'w'.repeat(Math.floor(request.maxOutputTokens * 4 * 0.7))]);
    const result = await compact(long(), { summarizer: verbose, config });
    const budget = verbose.requests[0]!.maxOutputTokens;
    const tail = sumMessageTokens(result.messages.slice(1));
    expect(budget).toBeLessThan(Math.floor(config.reserveTokens * 0.8));
    expect(budget + tail).toBeLessThanOrEqual(0.9 * 8000);
    expect(shouldCompact(result.messages, { config })).toBe(false);
  });

  it('counts the system prompt and tools, and never goes below 256', async () => {
    const summarizer = recordingSummarizer();
    await compact(long(), { summarizer, config, systemPrompt: 's'.repeat(4 * 3000) });
    expect(summarizer.requests[0]?.maxOutputTokens).toBe(256);
  });

  it('is 80% of the reserve when the window leaves room, and an explicit budget is used as given', async () => {
    const roomy = recordingSummarizer();
    await compact(long(), { summarizer: roomy, config: { contextWindow: 128_000 }, anchoring: false });
    expect(roomy.requests[0]?.maxOutputTokens).toBe(Math.floor(16_384 * 0.8));
    const explicit = recordingSummarizer();
    await compact(long(), { summarizer: explicit, config, maxOutputTokens: 5_000, anchoring: false });
    expect(explicit.requests[0]?.maxOutputTokens).toBe(5_000);
    // Anchoring holds back at most 30% of the budget for the pinned section.
    const anchored = recordingSummarizer();
    await compact(long(), { summarizer: anchored, config, maxOutputTokens: 5_000 });
    expect(anchored.requests[0]?.maxOutputTokens).toBeGreaterThanOrEqual(3_500);
    expect(anchored.requests[0]?.maxOutputTokens).toBeLessThanOrEqual(5_000);
  });
});

describe('compact: checks and messages', () => {
  it.each([['max_tokens'], ['MAX_TOKENS'], ['max_output_tokens'], ['model_length']])(
    'refuses a summary cut off with the provider stop reason %s',
    async (stopReason) => {
      const error = await compact([user(3000), user(3000), user(3000)], {
        summarizer: recordingSummarizer({ text: 'GOAL: half a sent', stopReason }),
        config,
      }).catch((caught: unknown) => caught);
      expect((error as CompactionError).code).toBe('SUMMARY_TRUNCATED');
      expect((error as CompactionError).message).toContain(stopReason);
    },
  );

  it('accepts a summary that ended normally in any provider spelling', async () => {
    for (const stopReason of ['end_turn', 'STOP', 'stop_sequence']) {
      const result = await compact([user(3000), user(3000), user(3000)], {
        summarizer: recordingSummarizer({ text: 'GOAL: done', stopReason }),
        config,
        anchoring: false,
      });
      expect(result.summary).toBe('GOAL: done');
    }
  });

  it('throws a ConfigError naming summarizer when there is none', async () => {
    for (const options of [undefined, {}, { summarizer: {} }, { summarizer: undefined, config }]) {
      const error = await compact([user(3000), user(3000), user(3000)], options as never).catch(
        (caught: unknown) => caught,
      );
      expect(ConfigError.isInstance(error)).toBe(true);
      expect((error as ConfigError).field).toBe('summarizer');
    }
    const error = await compact([user(3000), user(3000)], {
      summarizer: heuristicSummarizer,
      maxOutputTokens: 0,
    }).catch((caught: unknown) => caught);
    expect((error as ConfigError).field).toBe('maxOutputTokens');
  });

  it('says NOT_SMALLER is caused by the summary when the summary outgrows what it replaced', async () => {
    const error = await compact([user(3000), user(3000), user(3000)], {
      summarizer: budgetFiller,
      config,
      maxOutputTokens: 7000,
    }).catch((caught: unknown) => caught);
    expect((error as CompactionError).code).toBe('NOT_SMALLER');
    expect((error as CompactionError).message).toMatch(
      /The summary \(\d{4} tokens\) is not smaller than the 2 messages it replaces \(6000 tokens\)/,
    );
    expect((error as CompactionError).message).not.toMatch(/kept tail is too large/);
  });

  it('shares one 1,800-code-point budget across the text parts of a tool result', async () => {
    const multi: ToolResultMessage = {
      role: 'toolResult',
      toolCallId: 'a',
      toolName: 'bash',
      content: [
        { type: 'text', text: 'P'.repeat(1700) },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'text', text: 'Q'.repeat(1700) },
        { type: 'text', text: 'R'.repeat(1700) },
      ],
    };
    const plan = planCompaction([user(10), call('a'), multi, user(4000)], { config });
    const cut = plan.toSummarize.find((message) => message.role === 'toolResult') as ToolResultMessage;
    const texts = cut.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
    expect(Array.from(texts.join('')).length).toBeLessThanOrEqual(1800);
    expect(texts.join('')).toMatch(/^P+[\s\S]*R+$/);
    expect(cut.content.some((part) => part.type === 'image')).toBe(true);
    expect(multi.content).toHaveLength(4);
  });

  it('keeps the command, every code and every location of a tsc run archived in the digest', async () => {
    const output = readFileSync(new URL('../fixtures/tool-outputs/tsc.txt', import.meta.url), 'utf8');
    const tail: Message[] = [
      toolCallMessage([{ id: 't1', name: 'bash', arguments: { command: 'npx tsc --noEmit' } }]),
      toolResultMessage('t1', output, { toolName: 'bash', isError: true }),
      call('c2'),
      result('c2', 'ok'),
    ];
    const compacted = await compact([user(6000), ...tail], {
      summarizer: recordingSummarizer(),
      config: { toolCallCutoff: 1 },
    });
    const digest = String(compacted.messages[compacted.messages.length - 1]?.content);
    expect(digest).toContain('bash `npx tsc --noEmit`: error — tsc: 16 errors in 6 files');
    for (const code of ['TS2345', 'TS2322', 'TS7006', 'TS2305', 'TS2339', 'TS2307']) expect(digest).toContain(code);
    expect(digest).toContain('src/db/pool.ts:33:7');
  });

  it('updates a summary whose meta was lost in storage instead of summarizing it again', async () => {
    const { meta: _, ...stored } = createSummaryMessage('OLD SUMMARY');
    const summarizer = recordingSummarizer('NEW');
    await compact([stored, user(3000), user(3000), user(3000)], { summarizer, config });
    expect(summarizer.requests[0]?.previousSummary).toBe('OLD SUMMARY');
    expect(summarizer.requests[0]?.messages).not.toContain(stored);
    expect(summarizer.requests[0]?.text).not.toContain('OLD SUMMARY');
    expect(summaryText(stored)).toBe('OLD SUMMARY');
    expect(summaryText({ role: 'user', content: 'a plain question' })).toBeUndefined();
    expect(summaryText({ ...stored, meta: { kind: 'custom' } })).toBeUndefined();
  });

  it('writes "1 line" in a digest line of a one-line result', async () => {
    const tail: Message[] = [];
    for (let index = 0; index < 3; index++) tail.push(call(`c${index}`), result(`c${index}`, `ok ${index}`));
    const compacted = await compact([user(6000), ...tail], {
      summarizer: recordingSummarizer(),
      config: { toolCallCutoff: 1 },
    });
    const digest = String(compacted.messages[compacted.messages.length - 1]?.content);
    expect(digest).toContain('output: 1 line');
    expect(digest).not.toContain('exit status unknown');
    expect(digest).not.toContain('1 lines');
  });
});
