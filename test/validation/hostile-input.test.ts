/**
 * Bad input to the exports fails with a typed ctxkit error naming the function and the field, never
 * a raw `TypeError` or `RangeError` from deep inside; the few exports that take trusted input say so
 * in their docs. Numbers in stats stay finite whatever usage a provider reports.
 */
import { describe, expect, it } from 'vitest';
import * as root from '../../src/index.js';
import {
  buildContextFromBranch,
  ContextError,
  createContextManager,
  estimateMessageTokens,
  formatContextStats,
  formatStatusLine,
  heuristicSummarizer,
  isContextOverflow,
  splitByTokenBudget,
  truncateToolContent,
} from '../../src/index.js';
import * as memory from '../../src/memory/index.js';
import { resolveMemoryPath } from '../../src/memory/index.js';
import * as node from '../../src/node/index.js';
import * as session from '../../src/session/index.js';
import { walkBranch } from '../../src/session/index.js';
import * as summarizing from '../../src/summarizing/index.js';
import { assistantMessage, userMessage } from '../../src/testing/index.js';

/** The error a call throws (sync or async), or undefined. */
async function thrown(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  return undefined;
}

async function expectTyped(call: () => unknown, message: RegExp): Promise<void> {
  const error = await thrown(call);
  expect(ContextError.isInstance(error), String(error)).toBe(true);
  expect((error as Error).message).toMatch(message);
}

describe('the exports named in the issue validate their input', () => {
  it('splitByTokenBudget', async () => {
    await expectTyped(() => splitByTokenBudget(null as never, { budget: 10 }), /splitByTokenBudget: .*messages/);
    await expectTyped(() => splitByTokenBudget([userMessage('a')], null as never), /splitByTokenBudget: options/);
    await expectTyped(
      () => splitByTokenBudget([{ role: 'user', content: null }] as never, { budget: 10 }),
      /messages\[0\]\.content/,
    );
  });

  it('truncateToolContent', async () => {
    await expectTyped(() => truncateToolContent(undefined as never), /truncateToolContent: text must be a string/);
    await expectTyped(() => truncateToolContent('x', 'lines' as never), /truncateToolContent: limits/);
    await expectTyped(() => truncateToolContent('x', { maxLines: -1 }), /limits\.maxLines/);
  });

  it('buildContextFromBranch and walkBranch', async () => {
    await expectTyped(
      () => buildContextFromBranch(undefined as never),
      /buildContextFromBranch: entries must be an array/,
    );
    await expectTyped(
      () => buildContextFromBranch([], null as never),
      /buildContextFromBranch: options must be an object/,
    );
    await expectTyped(
      () =>
        buildContextFromBranch([{ id: 'a', parentId: null, timestamp: 1, type: 'message', message: null }] as never),
      /buildContextFromBranch: entry "a"\.message/,
    );
    await expectTyped(
      () => buildContextFromBranch([], { modelFacing: 'everything' as never }),
      /options\.modelFacing must be/,
    );
    await expectTyped(() => walkBranch([null] as never), /walkBranch: entry/);
    await expectTyped(() => walkBranch([], { leafId: 5 as never }), /walkBranch: options\.leafId/);
  });

  it('estimateMessageTokens', async () => {
    await expectTyped(() => estimateMessageTokens(undefined as never), /estimateMessageTokens: messages\[0\]/);
    await expectTyped(
      () => estimateMessageTokens({ role: 'assistant', content: [null] } as never),
      /estimateMessageTokens: messages\[0\]\.content\[0\] must be a content part/,
    );
    await expectTyped(() => estimateMessageTokens(userMessage('a'), null as never), /estimateMessageTokens: counter/);
    expect(estimateMessageTokens(userMessage('hello world'))).toBeGreaterThan(0);
  });

  it('resolveMemoryPath(null) returns a refusal, as documented', () => {
    for (const value of [null, undefined, 42, {}, ['/memories']]) {
      const result = resolveMemoryPath(value as never);
      expect(result.ok).toBe(false);
      expect(!result.ok && result.reason).toMatch(/path must be a string/);
    }
  });

  it('isContextOverflow never throws, whatever the options', () => {
    for (const options of [null, 'x', 5, { contextWindow: 'big' }, { contextWindow: -1 }]) {
      expect(isContextOverflow('prompt is too long: 300000 tokens > 200000 maximum', options as never)).toBe(true);
    }
  });
});

describe('numbers in stats stay finite', () => {
  it('a usage of 1e308 is not an anchor and prints no Infinity', () => {
    const manager = createContextManager({ contextWindow: 100_000, summarizer: heuristicSummarizer });
    const reply = assistantMessage('done', {
      usage: { input: 1e308, output: 1e308, cacheRead: 1e308, cacheWrite: 0 },
    });
    const history = [userMessage('hello'), reply];
    manager.recordUsage({ input: 1e308, output: 1e308 });
    const stats = manager.stats(history);
    expect(Number.isFinite(stats.currentUsage)).toBe(true);
    expect(Number.isFinite(stats.usagePercent)).toBe(true);
    expect(formatStatusLine(stats)).not.toMatch(/Infinity|NaN/);
    expect(formatContextStats(stats)).not.toMatch(/Infinity|NaN/);
  });

  it('the formatters refuse what is not stats, and print "?" for a number that is not finite', async () => {
    await expectTyped(() => formatStatusLine(undefined as never), /formatStatusLine: stats must be/);
    await expectTyped(() => formatContextStats({} as never), /formatContextStats: stats must be/);
    const manager = createContextManager({ contextWindow: 1000, summarizer: heuristicSummarizer });
    const stats = { ...manager.stats([userMessage('a')]), usagePercent: Number.POSITIVE_INFINITY };
    expect(formatStatusLine(stats)).toMatch(/^Context: \?%/);
  });
});

/** Exports documented to take trusted input (a Message or entry as the types describe it, or a normalised path). */
const TRUSTED = new Set([
  'root.isAgentVisible',
  'root.isUserVisible',
  'root.ctxkitMessageKind',
  'summarizing.summaryText',
  'session.entryToMessage',
  'memory.parentMemoryPath',
  'memory.isWithinMemoryPath',
]);

describe('a sweep of hostile arguments over every function export', () => {
  const hostile: unknown[] = [undefined, null, 0, -1, Number.NaN, 'x', {}, [], [null], [{ role: 'user' }]];
  const second: unknown[] = [undefined, null, -1, 'x', { counter: null }];
  const modules = { root, session, summarizing, memory, node } as Record<string, Record<string, unknown>>;
  const functions = Object.entries(modules).flatMap(([module, exports]) =>
    Object.entries(exports)
      .filter(([name, value]) => typeof value === 'function' && /^[a-z]/.test(name))
      .map(([name, value]) => [`${module}.${name}`, value as (...args: unknown[]) => unknown] as const),
  );

  it.each(functions.filter(([name]) => !TRUSTED.has(name)))('%s throws only ctxkit errors', async (_name, fn) => {
    for (const first of hostile) {
      for (const other of second) {
        const error = await thrown(() => fn(first, other));
        if (error !== undefined) expect(ContextError.isInstance(error), `${String(error)}`).toBe(true);
      }
    }
  });
});
