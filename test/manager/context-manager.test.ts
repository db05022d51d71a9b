import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  type AssistantMessage,
  buildContextFromBranch,
  CompactionError,
  ConfigError,
  type ContextEvent,
  createContextManager,
  createInMemorySessionStore,
  estimateContextTokens,
  formatContextStats,
  formatStatusLine,
  type Message,
  prepareModelMessages,
  referenceCounter,
  type Summarizer,
  type ToolResultMessage,
} from '../../src/index.js';
import { createSummaryMessage, summaryText } from '../../src/summarizing/index.js';

import { answer, call, manager, overflowError, result, scripted, user } from './fixtures.js';

describe('createContextManager', () => {
  it('validates its options', () => {
    expect(() => createContextManager({ summarizer: undefined as never })).toThrow(ConfigError);
    expect(() => createContextManager({ summarizer: scripted(), model: 'no-such-model-xyz' })).toThrow(/contextWindow/);
    expect(() =>
      createContextManager({ summarizer: scripted(), contextWindow: 1000, config: { reserveTokens: 900 } }),
    ).toThrow(/reserveTokens/);
    expect(createContextManager({ summarizer: scripted(), model: 'gpt-4o' }).config.contextWindow).toBe(128_000);
  });

  it("clamps the summary's output budget to the model's maximum output", async () => {
    const summarizer = scripted('SUMMARY');
    const context = createContextManager({
      summarizer,
      model: 'small-model-2026-01-01',
      modelLimits: { 'small-model': { contextWindow: 10_000, maxOutputTokens: 200 } },
      counter: referenceCounter,
      config: { reserveTokens: 2_000, keepRecentTokens: 2_000 },
    });
    expect(context.config.contextWindow).toBe(10_000);
    await context.compact([user(3_000), answer('a'), user(3_000), answer('b'), user(100)]);
    expect(summarizer.requests[0]?.maxOutputTokens).toBe(200);
  });

  it('passes a small context through unchanged', async () => {
    const history = [user(10), answer('ok'), user(10)];
    const prepared = await manager(scripted()).prepare(history);
    expect(prepared.messages).toEqual(history);
    expect(prepared.history).toEqual(history);
    expect(prepared.compacted).toBeUndefined();
    expect(prepared.usage).toMatchObject({ level: 'ok', limit: 8_000 });
  });

  it('compacts at the threshold and returns the history to keep', async () => {
    const events: ContextEvent[] = [];
    const history = [
      user(3000, 'a'),
      answer('a'),
      user(3000, 'b'),
      answer('b'),
      user(1500, 'c'),
      answer('c'),
      user(500, 'd'),
    ];
    const prepared = await manager(scripted('CHECKPOINT'), events).prepare(history);
    expect(prepared.compacted).toBeDefined();
    expect(summaryText(prepared.history[0]!)).toMatch(/^CHECKPOINT(\n\n## Pinned Facts\n|$)/);
    expect(prepared.history[prepared.history.length - 1]).toBe(history[history.length - 1]);
    expect(prepared.usage.tokens).toBeLessThan(8_000);
    // Usage jumped straight past the limit: the warning still comes first.
    const types = events.map((event) => event.type);
    expect(types).toEqual(['context-warning', 'compaction-start', 'compaction-end']);
    expect(events[2]).toMatchObject({ reason: 'threshold', belowLimit: true });
  });

  it('warns once when usage crosses the warning threshold, again only after a compaction', async () => {
    const events: ContextEvent[] = [];
    // Limit 9,000 (window 10,000 less a 1,000 reserve); the warning starts at 80% of the window.
    const context = manager(scripted(), events, {
      config: { reserveTokens: 1_000, keepRecentTokens: 2_000, toolSummaryStrategy: 'heuristic' },
    });
    const warnings = () => events.filter((event) => event.type === 'context-warning');
    let history: Message[] = [user(7_000)];
    history = (await context.prepare(history)).history;
    expect(warnings()).toHaveLength(0);
    history = (await context.prepare([...history, answer('ok'), user(1_100)])).history;
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatchObject({ usage: { level: 'warning' } });
    history = (await context.prepare([...history, answer('still')])).history;
    expect(warnings()).toHaveLength(1);
    const compacted = await context.prepare([...history, user(1_000)]); // reaches 9,000: compacts, resets
    expect(compacted.compacted).toBeDefined();
    expect(compacted.usage.level).toBe('ok');
    await context.prepare([...compacted.history, answer('k'), user(7_200)]);
    expect(warnings()).toHaveLength(2);
  });

  it('ignores usage reported before the latest compaction', async () => {
    const context = manager(scripted());
    const history = [user(3000), answer('a', { input: 7_900, output: 200 }), user(3000), answer('b'), user(1000)];
    const first = await context.prepare(history);
    expect(first.compacted).toBeDefined();
    // The stale usage (8,100 tokens) is gone with the compaction: the next call must not compact again.
    const second = await context.prepare([...first.history, answer('c'), user(10)]);
    expect(second.compacted).toBeUndefined();
    expect(second.usage.tokens).toBeLessThan(4_000);
    // Fresh usage reported after the compaction counts again.
    context.recordUsage({ input: 6_000, output: 10 });
    const third = await context.prepare([...second.history, answer('d')]);
    expect(third.compacted).toBeUndefined();
    expect(third.usage.tokens).toBeGreaterThanOrEqual(6_010);
    expect(third.usage.source).not.toBe('estimate');
  });

  it('ignores usage carried by kept messages from before the compaction', async () => {
    const context = manager(scripted());
    // The kept tail's assistant message reports the old, full context (8,100 tokens).
    const history = [
      user(3000),
      answer('a'),
      user(3000),
      answer('b'),
      user(500),
      answer('c', { input: 7_900, output: 200 }),
      user(10),
    ];
    const first = await context.prepare(history);
    expect(first.compacted).toBeDefined();
    expect(first.history).toContain(history[5]);
    expect(first.usage.tokens).toBeLessThan(2_000);
    const second = await context.prepare([...first.history, answer('d'), user(10)]);
    expect(second.compacted).toBeUndefined();
    expect(second.usage.tokens).toBeLessThan(2_000);
  });

  it('does not compact again right after a compaction', async () => {
    const summarizer = scripted();
    const context = manager(summarizer);
    const first = await context.prepare([user(4000), answer('a'), user(4000)]);
    expect(first.compacted).toBeDefined();
    await context.prepare(first.history);
    await context.prepare(first.history);
    expect(summarizer.requests).toHaveLength(1);
  });

  it('reports a compaction that cannot shrink the context instead of repeating it every turn', async () => {
    const events: ContextEvent[] = [];
    // A summary within its budget, but larger than the one short turn it would replace.
    const summarizer = scripted('x'.repeat(1_200));
    const context = manager(summarizer, events);
    let history: Message[] = [user(100), answer('a'), user(7_950)];
    const first = await context.prepare(history);
    expect(first.compacted).toBeUndefined();
    expect(first.history).toEqual(history);
    const end = events.find((event) => event.type === 'compaction-end');
    expect(end && 'error' in end && CompactionError.isInstance(end.error)).toBe(true);
    history = [...first.history, answer('c')];
    await context.prepare(history);
    await context.prepare([...history, user(10)]);
    expect(summarizer.requests).toHaveLength(1);
  });

  it('goes deeper when the kept tail alone is over the limit', async () => {
    const huge = Array.from({ length: 3000 }, (_, index) => `line ${index}: error in module ${index}`).join('\n');
    const history: Message[] = [user(2000), answer('a'), user(10), call('a'), result('a', huge)];
    const prepared = await manager(scripted('SUMMARY')).prepare(history);
    expect(prepared.compacted).toBeDefined();
    expect(prepared.usage.tokens).toBeLessThan(8_000);
    expect(prepared.messages.some((message) => message.role === 'toolResult')).toBe(true);
  });

  it('recovers from a provider overflow once, with the compacted history', async () => {
    const events: ContextEvent[] = [];
    const context = manager(scripted('RECOVERED'), events);
    const history = [user(2000), answer('a'), user(2000), answer('b'), user(100)];
    let calls = 0;
    const outcome = await context.runWithOverflowRecovery(history, async (messages) => {
      calls++;
      if (calls === 1) throw overflowError();
      return answer(`saw ${messages.length} messages`);
    });
    expect(outcome.recovered).toBe(true);
    expect(calls).toBe(2);
    expect(summaryText(outcome.history[0]!)).toMatch(/^RECOVERED(\n\n## Pinned Facts\n|$)/);
    expect(events.find((event) => event.type === 'compaction-start')).toMatchObject({ reason: 'overflow' });
  });

  it('gives up after a second overflow in the same call, with the history intact', async () => {
    const context = manager(scripted());
    const history = [user(2000), answer('a'), user(2000), answer('b'), user(100)];
    const snapshot = structuredClone(history);
    let calls = 0;
    const error = await context
      .runWithOverflowRecovery(history, async () => {
        calls++;
        throw overflowError();
      })
      .catch((caught: unknown) => caught);
    expect(calls).toBe(2);
    expect(CompactionError.isInstance(error)).toBe(true);
    expect((error as CompactionError).code).toBe('OVERFLOW_UNRECOVERED');
    expect(history).toEqual(snapshot);
  });

  it('passes other errors through without compacting', async () => {
    const summarizer = scripted();
    const context = manager(summarizer);
    const rateLimit = Object.assign(new Error('Rate limit reached for tokens per min (TPM)'), { status: 429 });
    await expect(
      context.runWithOverflowRecovery([user(10)], async () => {
        throw rateLimit;
      }),
    ).rejects.toBe(rateLimit);
    expect(summarizer.requests).toHaveLength(0);
  });

  it('treats an errored assistant message with an overflow text as an overflow', async () => {
    const context = manager(scripted());
    let calls = 0;
    const outcome = await context.runWithOverflowRecovery(
      [user(3000), answer('a'), user(3000), answer('b'), user(10)],
      async () => {
        calls++;
        return calls === 1
          ? ({
              ...answer(''),
              stopReason: 'error',
              errorMessage: 'prompt is too long: 300000 tokens > 200000 maximum',
            } as AssistantMessage)
          : answer('fine');
      },
    );
    expect(outcome.recovered).toBe(true);
  });

  it('surfaces a hanging summarizer through the abort signal', async () => {
    const hanging: Summarizer = {
      summarize: (request) =>
        new Promise((_, reject) => request.signal?.addEventListener('abort', () => reject(new Error('aborted')))),
    };
    const context = manager(hanging);
    const controller = new AbortController();
    const pending = context.prepare([user(4000), answer('a'), user(4000)], { signal: controller.signal });
    controller.abort();
    const error = await pending.catch((caught: unknown) => caught);
    expect((error as CompactionError).code).toBe('ABORTED');
  });

  it('summarizes old tool results past the cutoff, every result with toolSummaryBatch 0 (the reference)', async () => {
    const events: ContextEvent[] = [];
    const history: Message[] = [user(10)];
    for (let index = 0; index < 12; index++) history.push(call(`c${index}`), result(`c${index}`, `FAIL case ${index}`));
    const context = manager(scripted(), events, {
      config: { reserveTokens: 2_000, keepRecentTokens: 2_000, toolSummaryStrategy: 'heuristic', toolSummaryBatch: 0 },
    });
    const prepared = await context.prepare(history);
    expect(events.find((event) => event.type === 'tool-results-summarized')).toMatchObject({ archived: 2 });
    expect(prepared.history.filter((message) => message.meta?.kind === 'tool_result_archived')).toHaveLength(2);
  });

  it('archives old tool results in batches: nothing until cutoff + batch are visible, then down to the cutoff', async () => {
    const events: ContextEvent[] = [];
    const summarizer = scripted();
    const context = manager(summarizer, events, {
      config: {
        reserveTokens: 2_000,
        keepRecentTokens: 2_000,
        toolSummaryStrategy: 'llm',
        toolCallCutoff: 3,
        toolSummaryBatch: 4,
      },
    });
    const history: Message[] = [user(10)];
    const archivedCounts: number[] = [];
    for (let index = 0; index < 16; index++) {
      history.push(call(`c${index}`), result(`c${index}`, `out ${index}`));
      const prepared = await context.prepare(history);
      archivedCounts.push(prepared.history.filter((message) => message.meta?.kind === 'tool_result_archived').length);
    }
    // 8 visible results (3 + 4 + 1) archive 5 at once, back to 3; 5 more make 8 again.
    expect(archivedCounts).toEqual([0, 0, 0, 0, 0, 0, 0, 5, 5, 5, 5, 5, 10, 10, 10, 10]);
    expect(summarizer.requests).toHaveLength(2);
    expect(events.filter((event) => event.type === 'tool-results-summarized')).toHaveLength(2);
  });

  it('archives a long history in its first call with one summary, its input within the cap and the newest results in it', async () => {
    const events: ContextEvent[] = [];
    const summarizer = scripted();
    const context = createContextManager({
      summarizer,
      contextWindow: 1_000_000,
      counter: referenceCounter,
      onEvent: (event) => events.push(event),
    });
    const history: Message[] = [user(10)];
    for (let index = 0; index < 2_000; index++)
      history.push(call(`c${index}`), result(`c${index}`, `step ${index} ${'x'.repeat(300)}`));
    const prepared = await context.prepare(history);
    expect(summarizer.requests).toHaveLength(1);
    const request = summarizer.requests[0]!;
    // The input grows with the batch, to 48,000 code points at most.
    expect(request.text.length).toBeLessThanOrEqual(48_000);
    expect(request.text).toContain('step 1989 ');
    expect(request.text).not.toContain('step 0 ');
    expect(events.find((event) => event.type === 'tool-results-summarized')).toMatchObject({ archived: 1_990 });
    expect(prepared.history.filter((message) => message.meta?.kind === 'tool_result_archived')).toHaveLength(1_990);
  });

  it('truncates oversized tool output once', async () => {
    const events: ContextEvent[] = [];
    const context = createContextManager({
      summarizer: scripted(),
      contextWindow: 1_000_000,
      onEvent: (event) => events.push(event),
    });
    const long = Array.from({ length: 5000 }, (_, index) => `row ${index}`).join('\n');
    const history: Message[] = [user(10), call('a'), result('a', long)];
    const first = await context.prepare(history);
    const text = (first.history[2] as ToolResultMessage).content[0];
    expect(text?.type === 'text' && text.text.split('\n').length).toBeLessThanOrEqual(2000);
    await context.prepare([...first.history, answer('ok')]);
    expect(events.filter((event) => event.type === 'tool-output-truncated')).toHaveLength(1);
  });

  it('reports stats with a breakdown and renders them', async () => {
    const context = manager(scripted(), [], {
      systemPrompt: 's'.repeat(400),
      tools: [{ name: 'bash' }],
      now: () => 10_000,
    });
    const history: Message[] = [
      { role: 'user', content: 'u'.repeat(400), meta: { timestamp: 4_000 } },
      call('a'),
      result('a', 'r'.repeat(800)),
    ];
    const stats = context.stats(history);
    expect(stats).toMatchObject({ maxTokens: 10_000, messageCount: 3, oldestMessageAge: 6_000 });
    expect(stats.breakdown.systemPrompt).toBe(100);
    expect(stats.breakdown.byRole.toolResult).toBe(200);
    expect(stats.breakdown.byRole.user).toBe(100);
    expect(stats.currentUsage).toBe(stats.breakdown.total);
    expect(formatStatusLine(stats)).toMatch(/^Context: \d+% \(\d+\/10K\)$/);
    expect(formatContextStats(stats)).toContain('System prompt');
  });

  it('counts message kinds named like object members as kinds, not members', () => {
    const context = manager(scripted(), []);
    const kinds = ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf'];
    const history: Message[] = kinds.map((kind) => ({ role: 'user', content: 'k'.repeat(40), meta: { kind } }));
    const { byKind } = context.stats(history).breakdown;
    expect(Object.keys(byKind).sort()).toEqual([...kinds].sort());
    for (const kind of kinds) expect(Object.getOwnPropertyDescriptor(byKind, kind)?.value).toBe(10);
    expect(JSON.parse(JSON.stringify(byKind))).toEqual(Object.fromEntries(kinds.map((kind) => [kind, 10])));
    expect(formatContextStats(context.stats(history))).not.toMatch(/NaN|function/);
  });

  it('records compactions in the session store', async () => {
    const store = createInMemorySessionStore();
    const session = await store.createSession();
    const history = [
      user(3000, 'a'),
      answer('a'),
      user(3000, 'b'),
      answer('b'),
      user(1500, 'c'),
      answer('c'),
      user(500, 'd'),
    ];
    for (const message of history) await store.appendEntry(session.id, { type: 'message', message });
    const context = manager(scripted('STORED'), [], { store, sessionId: session.id });
    const prepared = await context.prepare(history);
    const entries = await store.getEntries(session.id);
    const compaction = entries.find((entry) => entry.type === 'compaction');
    expect(compaction).toMatchObject({ summary: expect.stringMatching(/^STORED(\n\n## Pinned Facts\n|$)/) });
    const firstKept = entries.find(
      (entry) => compaction?.type === 'compaction' && entry.id === compaction.firstKeptEntryId,
    );
    expect(firstKept?.type === 'message' && firstKept.message).toEqual(prepared.history[1]);
    // The flat transcript keeps every message, plus the checkpoint as the compaction's own message.
    const transcript = (await store.getMessages(session.id)).map((item) => item.message);
    expect(transcript.slice(0, history.length)).toEqual(history);
    expect(transcript).toHaveLength(history.length + 1);
    expect(summaryText(transcript[history.length]!)).toMatch(/^STORED(\n\n## Pinned Facts\n|$)/);
  });

  it('records the entry of the first kept message when messages repeat', async () => {
    const store = createInMemorySessionStore();
    const session = await store.createSession();
    const history = [
      user(1000, 'a'),
      answer('long answer'),
      { role: 'user', content: 'continue' } satisfies Message,
      answer('step one done'),
      { role: 'user', content: 'continue' } satisfies Message,
      answer('step two done'),
    ];
    for (const message of history) await store.appendEntry(session.id, { type: 'message', message });
    const context = manager(scripted('SUMMARY'), [], {
      store,
      sessionId: session.id,
      config: { reserveTokens: 2_000, keepRecentTokens: 12 },
    });
    const compacted = await context.compact(history);
    expect(compacted.messages.slice(1)).toEqual(history.slice(2));
    const rebuilt = buildContextFromBranch(await store.getBranch(session.id));
    expect(rebuilt.messages.slice(1)).toEqual(history.slice(2));
  });

  it('finds kept tool results in the store after truncating them', async () => {
    const store = createInMemorySessionStore();
    const session = await store.createSession();
    const history: Message[] = [user(3000, 'a'), answer('a'), call('c1'), result('c1', 'x'.repeat(300_000)), user(10)];
    for (const message of history) await store.appendEntry(session.id, { type: 'message', message });
    const context = manager(scripted('SUMMARY'), [], {
      store,
      sessionId: session.id,
      contextWindow: 200_000,
      config: { reserveTokens: 2_000, keepRecentTokens: 20_000 },
    });
    const prepared = await context.prepare(history);
    const compacted = await context.compact(prepared.history);
    const kept = compacted.messages.slice(1);
    expect(kept.map((message) => message.role)).toEqual(['assistant', 'assistant', 'toolResult', 'user']);
    // The kept result was truncated in the history, so it differs from the stored one; the store's
    // context still starts at the same message and keeps the call with its (full) result.
    expect(kept[2]).not.toEqual(history[3]);
    const rebuilt = buildContextFromBranch(await store.getBranch(session.id));
    expect(rebuilt.messages.slice(1)).toEqual(history.slice(1));
  });
});

describe('createContextManager incremental counting', () => {
  const step = fc.oneof(
    fc.record({ kind: fc.constant('user' as const), tokens: fc.integer({ min: 0, max: 300 }) }),
    fc.record({
      kind: fc.constant('answer' as const),
      usage: fc.option(fc.integer({ min: 1, max: 50_000 }), { nil: undefined }),
    }),
    fc.record({ kind: fc.constant('tool' as const), tokens: fc.integer({ min: 0, max: 300 }) }),
    fc.record({ kind: fc.constant('summary' as const), kept: fc.integer({ min: 0, max: 3 }) }),
  );

  test.prop([fc.array(step, { minLength: 1, maxLength: 40 })])(
    'counts a growing history exactly as a fresh manager counts it whole',
    async (steps) => {
      const options = {
        summarizer: scripted(),
        contextWindow: 1_000_000,
        counter: referenceCounter,
        config: { toolSummaryStrategy: 'off' as const, autoCompact: false },
      };
      const incremental = createContextManager(options);
      let history: Message[] = [];
      for (const [index, item] of steps.entries()) {
        if (item.kind === 'user') history = [...history, user(item.tokens)];
        else if (item.kind === 'answer')
          history = [...history, answer(`a${index}`, item.usage ? { input: item.usage, output: 5 } : undefined)];
        else if (item.kind === 'tool')
          history = [...history, call(`c${index}`), result(`c${index}`, 'r'.repeat(item.tokens))];
        else history = [...history, createSummaryMessage(`s${index}`, { keptMessages: item.kept })];
        const stepwise = await incremental.prepare(history);
        const whole = await createContextManager(options).prepare(history);
        expect(stepwise.usage.tokens).toBe(whole.usage.tokens);
        expect(stepwise.usage.tokens).toBe(
          estimateContextTokens(prepareModelMessages(history), { counter: referenceCounter }),
        );
        history = stepwise.history;
      }
    },
  );
});

describe('createContextManager projection cache', () => {
  const step = fc.oneof(
    fc.record({ kind: fc.constant('user' as const), tokens: fc.integer({ min: 0, max: 50 }) }),
    fc.record({ kind: fc.constant('tool' as const), calls: fc.integer({ min: 1, max: 3 }), reuse: fc.boolean() }),
    fc.record({ kind: fc.constant('pending' as const) }),
    fc.record({ kind: fc.constant('answer' as const), usage: fc.boolean() }),
  );

  test.prop([fc.integer({ min: 200, max: 700 }), fc.array(step, { minLength: 1, maxLength: 25 })], { numRuns: 40 })(
    'on long histories whose old tool results get archived, sends exactly what a fresh projection sends',
    async (length, steps) => {
      let history: Message[] = [];
      for (let index = 0; history.length < length; index++) {
        history.push(user(5, 'q'), call(`s${index}`), result(`s${index}`, 'r'.repeat(20)), answer(`a${index}`));
      }
      const context = createContextManager({
        summarizer: scripted(),
        contextWindow: 10_000_000,
        counter: referenceCounter,
        // The stateless estimate knows no drift: the manager must not learn one from the usage here.
        calibrate: false,
        config: { toolSummaryStrategy: 'heuristic', toolCallCutoff: 3, autoCompact: false },
      });
      history = (await context.prepare(history)).history;
      for (const [index, item] of steps.entries()) {
        if (item.kind === 'user') history = [...history, user(item.tokens)];
        else if (item.kind === 'answer')
          history = [...history, answer(`b${index}`, item.usage ? { input: 5_000 + index, output: 3 } : undefined)];
        else if (item.kind === 'pending') history = [...history, call(`p${index}`)];
        else {
          for (let n = 0; n < item.calls; n++) {
            const id = item.reuse ? 's0' : `t${index}_${n}`;
            history = [...history, call(id), result(id, 'o'.repeat(40))];
          }
        }
        const prepared = await context.prepare(history);
        expect(prepared.messages).toEqual(prepareModelMessages(prepared.history));
        expect(prepared.usage.tokens).toBe(
          estimateContextTokens(prepareModelMessages(prepared.history), { counter: referenceCounter }),
        );
        history = prepared.history;
      }
    },
  );
});
