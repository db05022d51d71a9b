import { describe, expect, it } from 'vitest';
import { ConfigError, type Message, type Summarizer, summarizeToolResults } from '../../src/index.js';
import {
  batchItem,
  HEURISTIC_SUMMARY_OUTPUT_CHARS,
  TOOL_SUMMARY_INPUT_CHARS,
  TOOL_SUMMARY_OUTPUT_CHARS,
} from '../../src/pipeline/summarize-tool-results.js';
import { TOOL_SUMMARY_PREFIX } from '../../src/schemas/index.js';
import { batchBudget } from '../../src/summarizing/tool-output/batch-budget.js';
import { createScriptedSummarizer, toolCallMessage, toolResultMessage, userMessage } from '../../src/testing/index.js';

function turns(count: number, output = (index: number) => `FAIL test ${index}\nexit code 1`): Message[] {
  const messages: Message[] = [userMessage('run the tests')];
  for (let index = 0; index < count; index++) {
    messages.push(
      toolCallMessage([{ id: `c${index}`, name: 'bash', arguments: { command: `npm test -- ${index}` } }]),
      toolResultMessage(`c${index}`, output(index), {
        toolName: 'bash',
        meta: { kind: 'tool_result', userVisible: index % 2 === 0 },
      }),
    );
  }
  return messages;
}

const visibleResults = (messages: Message[]) =>
  messages.filter((message) => message.role === 'toolResult' && message.meta?.agentVisible !== false);

const answering = (text: string) => createScriptedSummarizer([], { afterScript: text });

describe('summarizeToolResults', () => {
  it('does nothing at the cutoff', async () => {
    const messages = turns(10);
    const result = await summarizeToolResults(messages, { batch: 0, strategy: 'heuristic' });
    expect(result).toMatchObject({ archived: [], summary: undefined, fallback: false });
    expect(result.messages).toEqual(messages);
  });

  it('archives the oldest beyond the cutoff and appends one summary message', async () => {
    const messages = turns(13);
    const result = await summarizeToolResults(messages, { batch: 0, summarizer: answering('three tests failed') });
    expect(visibleResults(result.messages)).toHaveLength(10);
    expect(result.archived.map((message) => message.toolCallId)).toEqual(['c0', 'c1', 'c2']);
    for (const archived of result.archived) {
      expect(archived.meta).toMatchObject({ agentVisible: false, kind: 'tool_result_archived' });
    }
    expect(result.archived[0]?.meta?.userVisible).toBe(true);
    expect(result.archived[1]?.meta?.userVisible).toBe(false);
    expect(result.messages).toHaveLength(messages.length + 1);
    expect(result.messages[result.messages.length - 1]).toEqual({
      role: 'user',
      content: `${TOOL_SUMMARY_PREFIX}\nthree tests failed`,
      meta: { agentVisible: true, userVisible: false, kind: 'tool_summary' },
    });
    expect(result.fallback).toBe(false);
  });

  it('respects a custom cutoff', async () => {
    const result = await summarizeToolResults(turns(5), { batch: 0, cutoff: 2, strategy: 'heuristic' });
    expect(result.archived).toHaveLength(3);
  });

  it('clips the model input to 12,000 characters and its answer to 1,200 code points', async () => {
    const summarizer = answering('é'.repeat(5000));
    const result = await summarizeToolResults(
      turns(14, () => 'x'.repeat(8000)),
      { summarizer, batch: 0 },
    );
    expect(summarizer.requests[0]?.text.length).toBeLessThanOrEqual(TOOL_SUMMARY_INPUT_CHARS);
    expect(summarizer.requests[0]?.kind).toBe('tool_results');
    expect(Array.from(result.summary ?? '')).toHaveLength(TOOL_SUMMARY_OUTPUT_CHARS);
  });

  it('clips the heuristic summary to 800 code points with the reference budget, and to its scaled budget otherwise', async () => {
    const messages = turns(30, (index) => `error: ${'long line '.repeat(50)} ${index}`);
    const reference = await summarizeToolResults(messages, {
      strategy: 'heuristic',
      batch: 0,
      config: { toolSummaryBudget: 'reference' },
    });
    expect(Array.from(reference.summary ?? '').length).toBeLessThanOrEqual(HEURISTIC_SUMMARY_OUTPUT_CHARS);
    expect(reference.summary).toBeTruthy();
    const scaled = await summarizeToolResults(messages, { strategy: 'heuristic', batch: 0 });
    const budget = batchBudget(scaled.archived.map(batchItem), 'scaled').heuristicChars;
    expect(Array.from(scaled.summary ?? '').length).toBeLessThanOrEqual(budget);
  });

  it('falls back to the heuristic when the summarizer fails or answers nothing, and says so', async () => {
    const failing: Summarizer = { summarize: () => Promise.reject(new Error('rate limited')) };
    const failed = await summarizeToolResults(turns(12), { batch: 0, summarizer: failing });
    expect(failed.fallback).toBe(true);
    expect(String(failed.error)).toContain('rate limited');
    expect(failed.summary).toBeTruthy();
    expect(failed.archived).toHaveLength(2);
    const empty = await summarizeToolResults(turns(12), { batch: 0, summarizer: answering('  ') });
    expect(empty.fallback).toBe(true);
  });

  it('does nothing with strategy off', async () => {
    const messages = turns(20);
    const result = await summarizeToolResults(messages, { batch: 0, strategy: 'off' });
    expect(result.messages).toEqual(messages);
    expect(result.archived).toEqual([]);
  });

  it('needs a summarizer for the llm strategy', async () => {
    await expect(summarizeToolResults(turns(12), { batch: 0, strategy: 'llm' })).rejects.toSatisfy(
      ConfigError.isInstance,
    );
  });

  it('never mutates its input', async () => {
    const messages = turns(15);
    const snapshot = structuredClone(messages);
    await summarizeToolResults(messages, { batch: 0, strategy: 'heuristic' });
    expect(messages).toEqual(snapshot);
  });

  it('rejects an unknown strategy naming the field, instead of archiving with a heuristic summary', async () => {
    const messages = turns(12);
    for (const strategy of ['none', 'LLM', '']) {
      const error = await summarizeToolResults(messages, { batch: 0, strategy: strategy as never, cutoff: 1 }).catch(
        (caught: unknown) => caught,
      );
      expect(ConfigError.isInstance(error)).toBe(true);
      expect((error as ConfigError).field).toBe('strategy');
      expect((error as ConfigError).message).toContain(
        'summarizeToolResults: options.strategy must be one of "llm", "heuristic", "off"',
      );
    }
  });

  it('needs a summarizer with a summarize() method for the llm strategy', async () => {
    const error = await summarizeToolResults(turns(12), { batch: 0, strategy: 'llm', summarizer: {} as never }).catch(
      (caught: unknown) => caught,
    );
    expect((error as ConfigError).field).toBe('summarizer');
  });

  it('keeps every archived result in the heuristic summary, briefly, rather than cut the middle out', async () => {
    const tools = ['bash', 'read', 'grep'];
    const messages: Message[] = [userMessage('go')];
    for (let index = 0; index < 30; index++) {
      const name = tools[index % 3]!;
      const output = `step ${index}\n${'ok\n'.repeat(50)}${index === 29 ? 'src/a.ts:3:4 - error TS2322: bad' : 'done'}`;
      messages.push(
        toolCallMessage([{ id: `c${index}`, name, arguments: { command: `step${index}` } }]),
        toolResultMessage(`c${index}`, output, { toolName: name, isError: index === 29 }),
      );
    }
    const result = await summarizeToolResults(messages, {
      batch: 0,
      strategy: 'heuristic',
      cutoff: 0,
      config: { toolSummaryBudget: 'reference' },
    });
    const summary = result.summary ?? '';
    expect(Array.from(summary).length).toBeLessThanOrEqual(HEURISTIC_SUMMARY_OUTPUT_CHARS);
    expect(summary).not.toContain('[…]');
    for (let index = 0; index < 30; index++) expect(summary).toContain(`step${index}\``);
    expect(summary).toContain('error TS2322');
  });

  it('folds a long run of alike results rather than lose them', async () => {
    const result = await summarizeToolResults(
      turns(30, (index) => `step ${index}\n${'ok\n'.repeat(50)}done`),
      { strategy: 'heuristic', cutoff: 0, batch: 0, config: { toolSummaryBudget: 'reference' } },
    );
    expect(result.summary).not.toContain('[…]');
    expect(result.summary).toMatch(/bash ×30, all ok: `npm test -- 0` … `npm test -- 29`/);
  });

  it('says truthfully that the results were archived when the summarizer fails', async () => {
    const failing: Summarizer = { summarize: () => Promise.reject(new Error('rate limited')) };
    const failed = await summarizeToolResults(turns(12), { batch: 0, summarizer: failing });
    const message = (failed.error as Error).message;
    expect(message).not.toContain('nothing was changed');
    expect(message).toContain('archived');
    const empty = await summarizeToolResults(turns(12), { batch: 0, summarizer: answering('') });
    expect((empty.error as Error).message).toContain('archived');
  });
});
