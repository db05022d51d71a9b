import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { fromAnthropicUsage } from '../../src/anthropic/index.js';
import {
  ConfigError,
  type ContextEvent,
  createContextManager,
  DEFAULT_CONFIG,
  estimateMessageTokens,
  getModelPricing,
  heuristicSummarizer,
  type Message,
  OPENAI_AUTOMATIC_CACHE,
  referenceCounter,
} from '../../src/index.js';

const user = (text: string): Message => ({ role: 'user', content: text });
const call = (id: string): Message => ({
  role: 'assistant',
  content: [{ type: 'toolCall', id, name: 'read', arguments: { path: `src/${id}.ts` } }],
});
const result = (id: string, tokens: number): Message => ({
  role: 'toolResult',
  toolCallId: id,
  toolName: 'read',
  content: [{ type: 'text', text: `${id} `.repeat(tokens) }],
});

/** A manager on a 200k window (or `contextWindow`) with a clock the test moves. */
function setup(costAware: boolean | undefined, events: ContextEvent[] = [], contextWindow?: number) {
  const clock = { now: Date.UTC(2026, 0, 1) };
  const manager = createContextManager({
    summarizer: heuristicSummarizer,
    model: 'claude-sonnet-4-5',
    ...(contextWindow === undefined ? {} : { contextWindow }),
    counter: referenceCounter,
    now: () => clock.now,
    onEvent: (event) => events.push(event),
    config: { toolSummaryStrategy: 'heuristic' },
    ...(costAware === undefined ? {} : { costAware }),
  });
  return { manager, clock };
}

/** Runs `steps` tool steps of `tokens` each, a few seconds apart (or `gapAt` minutes idle before that step). */
async function run(
  manager: ReturnType<typeof setup>['manager'],
  clock: { now: number },
  steps: number,
  tokens: number,
  gapAt?: number,
) {
  let history: Message[] = [user('Read the sources and fix the parser.')];
  for (let step = 0; step < steps; step++) {
    clock.now += step === gapAt ? 20 * 60_000 : 5_000;
    history = [...history, call(`c${step}`), result(`c${step}`, tokens)];
    history = (await manager.prepare(history)).history;
  }
  return history;
}

describe('stats().cost', () => {
  it('adds up the usage the host records, priced by the model', () => {
    const { manager } = setup(undefined);
    manager.recordUsage(
      fromAnthropicUsage({ input_tokens: 2_000, output_tokens: 300, cache_creation_input_tokens: 4_000 }),
    );
    manager.recordUsage(
      fromAnthropicUsage({
        input_tokens: 100,
        output_tokens: 200,
        cache_read_input_tokens: 6_000,
        cache_creation_input_tokens: 500,
      }),
    );
    const { cost } = manager.stats([user('hi')]);
    expect(cost.calls).toBe(2);
    expect(cost.tokens).toEqual({
      uncachedInput: 2_100,
      cacheWrite: 4_500,
      cacheRead: 6_000,
      output: 500,
      total: 13_100,
    });
    expect(cost.cacheHitRate).toBeCloseTo(6_000 / 12_600, 10);
    // Sonnet: $3 input, $3.75 writes, $0.30 reads, $15 output per million.
    expect(cost.dollars?.uncachedInput).toBeCloseTo(0.0063, 10);
    expect(cost.dollars?.cacheWrite).toBeCloseTo(0.016875, 10);
    expect(cost.dollars?.cacheRead).toBeCloseTo(0.0018, 10);
    expect(cost.dollars?.output).toBeCloseTo(0.0075, 10);
  });

  it('counts tokens without dollars for an unpriced model, and takes a host pricing', () => {
    const plain = createContextManager({ summarizer: heuristicSummarizer, contextWindow: 32_000 });
    plain.recordUsage({ input: 10, output: 5, cacheRead: 90 });
    expect(plain.stats([]).cost.dollars).toBeUndefined();
    expect(plain.stats([]).cost.cacheHitRate).toBeCloseTo(0.9, 10);
    const priced = createContextManager({
      summarizer: heuristicSummarizer,
      contextWindow: 32_000,
      pricing: { input: 1, output: 2, cache: OPENAI_AUTOMATIC_CACHE },
    });
    priced.recordUsage({ input: 1_000_000, output: 1_000_000, cacheRead: 1_000_000 });
    expect(priced.stats([]).cost.dollars?.total).toBeCloseTo(3.1, 10);
    const off = createContextManager({ summarizer: heuristicSummarizer, model: 'gpt-5', pricing: false });
    off.recordUsage({ input: 1, output: 1 });
    expect(off.stats([]).cost.dollars).toBeUndefined();
  });

  it('refuses an invalid pricing or usage, naming the field, and keeps the tally', () => {
    expect(() =>
      createContextManager({
        summarizer: heuristicSummarizer,
        contextWindow: 32_000,
        pricing: { input: 1, output: 1, cache: { ...OPENAI_AUTOMATIC_CACHE, readMultiplier: -1 } },
      }),
    ).toThrow(/options\.pricing\.cache\.readMultiplier/);
    expect(() =>
      createContextManager({ summarizer: heuristicSummarizer, contextWindow: 32_000, costAware: 'yes' as never }),
    ).toThrow(ConfigError);
    const { manager } = setup(undefined);
    manager.recordUsage({ input: 10, output: 1 });
    expect(() => manager.recordUsage({ input: -5, output: 1 })).toThrow(/usage\.input/);
    expect(manager.stats([]).cost.calls).toBe(1);
  });

  test.prop([
    fc.array(fc.record({ input: fc.nat(50_000), output: fc.nat(5_000), cacheRead: fc.nat(200_000) }), {
      maxLength: 15,
    }),
  ])('the dollars are the Sonnet prices of the tokens', (usages) => {
    const { manager } = setup(undefined);
    for (const usage of usages) manager.recordUsage(usage);
    const { tokens, dollars } = manager.stats([]).cost;
    const pricing = getModelPricing('claude-sonnet-4-5')!;
    expect(dollars!.total).toBeCloseTo(
      (tokens.uncachedInput * pricing.input + tokens.cacheRead * pricing.input * 0.1 + tokens.output * pricing.output) /
        1e6,
      8,
    );
  });
});

describe('the cost-aware policy', () => {
  it('compacts long before the threshold when carrying the context costs more than a compaction', async () => {
    const events: ContextEvent[] = [];
    const aware = setup(true, events);
    const history = await run(aware.manager, aware.clock, 36, 3_000);
    const previous: ContextEvent[] = [];
    const plain = setup(false, previous);
    const kept = await run(plain.manager, plain.clock, 36, 3_000);
    // ~110k tokens is below the 183,616-token threshold: the previous defaults carry it all.
    expect(previous.some((event) => event.type === 'compaction-start')).toBe(false);
    const compactions = events.filter((event) => event.type === 'compaction-end');
    expect(compactions.length).toBeGreaterThan(0);
    expect(aware.manager.stats(history).currentUsage).toBeLessThan(plain.manager.stats(kept).currentUsage * 0.6);
  });

  it('archives at once after an idle gap longer than the cache lives, and not without one', async () => {
    const events: ContextEvent[] = [];
    const { manager, clock } = setup(true, events);
    await run(manager, clock, 13, 1_000, 12);
    const archived = events.filter((event) => event.type === 'tool-results-summarized');
    expect(archived).toHaveLength(1);
    const warm: ContextEvent[] = [];
    const other = setup(true, warm);
    await run(other.manager, other.clock, 13, 1_000);
    expect(warm.filter((event) => event.type === 'tool-results-summarized')).toHaveLength(0);
  });

  it('compacts a large context after an idle gap, below the threshold', async () => {
    const events: ContextEvent[] = [];
    const { manager, clock } = setup(true, events);
    // 10 kept results of 6k tokens: ~60k, past twice the 20k tail; the gap comes before step 11.
    const history = await run(manager, clock, 12, 6_000, 11);
    expect(events.some((event) => event.type === 'compaction-start')).toBe(true);
    expect(manager.stats(history).currentUsage).toBeLessThan(40_000);
  });

  test.prop(
    [
      fc.constantFrom(64_000, 200_000),
      fc.integer({ min: 20, max: 60 }),
      fc.integer({ min: 200, max: 9_000 }),
      fc.option(fc.nat(59)),
    ],
    { numRuns: 15 },
  )('never sends more than the previous defaults would at the same step', async (window, steps, tokens, gap) => {
    const aware = setup(true, [], window);
    const plain = setup(false, [], window);
    const limit = window - 16_384;
    let history: Message[] = [user('Fix the parser.')];
    let previous: Message[] = history;
    for (let step = 0; step < steps; step++) {
      const pause = step === gap ? 20 * 60_000 : 5_000;
      aware.clock.now += pause;
      plain.clock.now += pause;
      const added = [call(`c${step}`), result(`c${step}`, tokens)];
      const a = await aware.manager.prepare([...history, ...added]);
      const b = await plain.manager.prepare([...previous, ...added]);
      history = a.history;
      previous = b.history;
      // Both stay under the window's limit; the policy acts only earlier.
      expect(a.usage.tokens).toBeLessThanOrEqual(limit);
      expect(a.usage.tokens).toBeLessThanOrEqual(Math.max(b.usage.tokens, limit));
    }
  });

  it('keeps a tail chosen by the window, and the tail the host sets', () => {
    const tail = (options: { contextWindow: number; costAware?: boolean; keepRecentTokens?: number }) =>
      createContextManager({
        summarizer: heuristicSummarizer,
        contextWindow: options.contextWindow,
        ...(options.costAware === undefined ? {} : { costAware: options.costAware }),
        ...(options.keepRecentTokens === undefined ? {} : { config: { keepRecentTokens: options.keepRecentTokens } }),
      }).config.keepRecentTokens;
    // 3% of the limit (window − 16,384), from 4,000 to 20,000.
    expect(tail({ contextWindow: 64_000 })).toBe(4_000);
    expect(tail({ contextWindow: 200_000 })).toBe(5_508);
    expect(tail({ contextWindow: 1_000_000 })).toBe(20_000);
    // The reference tail stays selectable, and is the tail without the policy.
    expect(tail({ contextWindow: 64_000, keepRecentTokens: DEFAULT_CONFIG.keepRecentTokens })).toBe(20_000);
    expect(tail({ contextWindow: 64_000, costAware: false })).toBe(20_000);
  });

  it('holds a checkpoint to 15% of the limit, and frees more than it leaves', async () => {
    const events: ContextEvent[] = [];
    const aware = setup(true, events, 64_000);
    const plain: ContextEvent[] = [];
    const reference = setup(false, plain, 64_000);
    // Every result states new errors, so the pinned facts grow with the session.
    const errors = (step: number) =>
      Array.from(
        { length: 80 },
        (_, line) =>
          `src/module${step}/file${line}.ts:${line + 1}:5 - error TS2322: Type 'Handler${step}x${line}' is not assignable to type 'Route${line}'.`,
      ).join('\n');
    let history: Message[] = [user('Fix the type errors.')];
    let previous = history;
    for (let step = 0; step < 30; step++) {
      aware.clock.now += 5_000;
      reference.clock.now += 5_000;
      const added: Message[] = [
        call(`c${step}`),
        {
          role: 'toolResult',
          toolCallId: `c${step}`,
          toolName: 'read',
          content: [{ type: 'text', text: errors(step) }],
        },
      ];
      history = (await aware.manager.prepare([...history, ...added])).history;
      previous = (await reference.manager.prepare([...previous, ...added])).history;
    }
    const compactions = events.filter((event) => event.type === 'compaction-end');
    expect(compactions.length).toBeGreaterThan(1);
    const checkpoints = history.filter((message) => message.meta?.kind === 'compaction_summary');
    expect(checkpoints).toHaveLength(1);
    // 15% of the 47,616-token limit: 7,142 (and the summary message's own heading).
    const cap = 7_142 * 1.02;
    expect(estimateMessageTokens(checkpoints[0]!, referenceCounter)).toBeLessThanOrEqual(cap);
    for (const event of compactions) {
      if (event.type === 'compaction-end') expect(event.tokensBefore - event.tokensAfter).toBeGreaterThanOrEqual(4_000);
    }
    // The reference defaults' checkpoint takes the summary budget and the pinned facts' own room.
    const referenceCheckpoint = previous.find((message) => message.meta?.kind === 'compaction_summary');
    expect(referenceCheckpoint).toBeDefined();
    expect(estimateMessageTokens(referenceCheckpoint!, referenceCounter)).toBeGreaterThan(cap);
  });
});

describe('summary requests carry the conversation', () => {
  it('as last sent, so a summarizer can reuse its cached prefix; not once the cache went cold', async () => {
    const seen: Array<{ kind: string; conversation: number | undefined; first: unknown }> = [];
    const clock = { now: Date.UTC(2026, 0, 1) };
    const manager = createContextManager({
      summarizer: {
        async summarize(request) {
          seen.push({
            kind: request.kind,
            conversation: request.conversation?.length,
            first: request.conversation?.[0],
          });
          return heuristicSummarizer.summarize(request);
        },
      },
      contextWindow: 200_000,
      counter: referenceCounter,
      now: () => clock.now,
      config: { toolCallCutoff: 2, toolSummaryBatch: 2 },
    });
    let history: Message[] = [user('Fix the parser.')];
    for (let step = 0; step < 5; step++) {
      clock.now += 5_000;
      history = [...history, call(`c${step}`), result(`c${step}`, 50)];
      history = (await manager.prepare(history)).history;
    }
    expect(seen).toHaveLength(1);
    expect(seen[0]!.kind).toBe('tool_results');
    expect(seen[0]!.conversation).toBe(11);
    expect(seen[0]!.first).toBe(history[0]);
    for (let step = 5; step < 10; step++) {
      clock.now += step === 7 ? 10 * 60_000 : 5_000;
      history = [...history, call(`c${step}`), result(`c${step}`, 50)];
      history = (await manager.prepare(history)).history;
    }
    const cold = seen.find((_, index) => index > 0);
    expect(cold?.conversation).toBeUndefined();
  });
});
