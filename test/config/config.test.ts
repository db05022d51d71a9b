import { describe, expect, it } from 'vitest';
import { effectiveKeepRecentTokens } from '../../src/config/index.js';
import {
  CompactionError,
  ConfigError,
  ContextError,
  DEFAULT_CONFIG,
  effectiveTokenLimit,
  resolveConfig,
  SessionError,
  StoreError,
  shouldCompact,
} from '../../src/index.js';

describe('resolveConfig', () => {
  it('fills in the reference defaults', () => {
    const config = resolveConfig();
    expect(config).toMatchObject({
      maxMessages: 50,
      maxTokens: 8000,
      keepRecent: 5,
      keepRecentTokens: 20_000,
      reserveTokens: 16_384,
      toolCallCutoff: 10,
      toolSummaryStrategy: 'llm',
      autoCompact: true,
      warningThreshold: 0.8,
    });
    expect(config.contextWindow).toBeUndefined();
    expect(config.toolOutput).toEqual({
      maxLines: 2000,
      maxBytes: 51_200,
      maxChars: 204_800,
      largeOutputThreshold: 204_800,
      truncateMode: 'head_tail',
    });
    expect(DEFAULT_CONFIG.maxTokens).toBe(8000);
  });

  it('merges a partial tool output config over the defaults', () => {
    expect(resolveConfig({ toolOutput: { maxLines: 10 } }).toolOutput).toMatchObject({
      maxLines: 10,
      maxBytes: 51_200,
    });
  });

  it.each([
    [{ maxTokens: -1 }, 'maxTokens'],
    [{ keepRecentTokens: Number.NaN }, 'keepRecentTokens'],
    [{ reserveTokens: Number.POSITIVE_INFINITY }, 'reserveTokens'],
    [{ contextWindow: 0 }, 'contextWindow'],
    [{ warningThreshold: 1.5 }, 'warningThreshold'],
    [{ toolOutput: { maxLines: 0 } }, 'toolOutput.maxLines'],
    [{ toolSummaryStrategy: 'magic' }, 'toolSummaryStrategy'],
    [{ contextWindow: 8000, reserveTokens: 16_384 }, 'reserveTokens'],
    [{ contextWindow: 100_000, warningThreshold: 0.95, compactionThreshold: 0.9 }, 'warningThreshold'],
    [{ compactionThreshold: 0.9 }, 'compactionThreshold'],
  ])('rejects %j naming %s', (input, field) => {
    let caught: unknown;
    try {
      resolveConfig(input as never);
    } catch (error) {
      caught = error;
    }
    expect(ConfigError.isInstance(caught)).toBe(true);
    expect(ContextError.isInstance(caught)).toBe(true);
    expect((caught as ConfigError).field).toBe(field);
    expect((caught as ConfigError).message).toContain(field.split('.').pop());
    expect((caught as ConfigError).code).toBe('CONFIG_INVALID');
  });

  it.each([
    [
      { contextWindow: 16_385, reserveTokens: 16_384 },
      /limit of only 1 token in contextWindow \(16385\).*at most 15361/,
    ],
    [{ contextWindow: 32_000, reserveTokens: 31_500 }, /limit of only 500 tokens.*at least 1024/],
    [
      { contextWindow: 100_000, compactionThreshold: 0.005 },
      /compactionThreshold \(0.005\).*only 500 tokens.*at least 0.011/,
    ],
  ])('rejects %j: a limit of a few hundred tokens is an error, not a silent clamp', (input, message) => {
    let caught: unknown;
    try {
      resolveConfig(input);
    } catch (error) {
      caught = error;
    }
    expect(ConfigError.isInstance(caught)).toBe(true);
    expect((caught as ConfigError).field).toBe('reserveTokens' in input ? 'reserveTokens' : 'compactionThreshold');
    expect((caught as ConfigError).message).toMatch(message);
  });

  it('scales an unset reserve to a quarter of a small window, and keeps 16,384 from 65,536 up', () => {
    const cases: [number, number, number][] = [
      [16_385, 4_096, 12_289], // gpt-3.5-turbo: the reference reserve would leave a limit of 1
      [8_192, 2_048, 6_144],
      [65_536, 16_384, 49_152],
      [128_000, 16_384, 111_616],
    ];
    for (const [contextWindow, reserveTokens, limit] of cases) {
      const config = resolveConfig({ contextWindow });
      expect(config.reserveTokens).toBe(reserveTokens);
      expect(effectiveTokenLimit(config)).toBe(limit);
    }
    expect(shouldCompact([{ role: 'user', content: 'hello' }], { config: { contextWindow: 16_385 } })).toBe(false);
    expect(resolveConfig().reserveTokens).toBe(16_384);
    // A reserve the host sets is used as given.
    expect(resolveConfig({ contextWindow: 16_385, reserveTokens: 8_000 }).reserveTokens).toBe(8_000);
  });

  it('lowers a defaulted warning threshold below the limit instead of failing', () => {
    const config = resolveConfig({ contextWindow: 100_000, compactionThreshold: 0.7 });
    expect(config.warningThreshold).toBeLessThan(0.7);
    expect(config.warningThreshold).toBeGreaterThan(0.5);
    // 80% of a 16,385-token window is past its limit (75%): the warning comes first.
    expect(resolveConfig({ contextWindow: 16_385 }).warningThreshold).toBeLessThan(12_289 / 16_385);
    expect(resolveConfig({ contextWindow: 128_000 }).warningThreshold).toBe(0.8);
    expect(resolveConfig({ contextWindow: 200_000, compactionThreshold: 0.9 }).warningThreshold).toBe(0.8);
    expect(() => resolveConfig({ contextWindow: 100_000, compactionThreshold: 0.7, warningThreshold: 0.8 })).toThrow(
      /warningThreshold \(0.8\) is above compactionThreshold \(0.7\)/,
    );
  });

  it('freezes the resolved config, deeply', () => {
    const config = resolveConfig();
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.toolOutput)).toBe(true);
    expect(() => {
      (config as { maxTokens: number }).maxTokens = -50;
    }).toThrow(TypeError);
    expect(config.maxTokens).toBe(8000);
    expect(resolveConfig({ ...config, maxTokens: 4000 }).maxTokens).toBe(4000);
  });

  it('rejects unknown keys so typos surface', () => {
    expect(() => resolveConfig({ maxTokes: 5 } as never)).toThrow(/maxTokes/);
  });
});

describe('effective limits', () => {
  it('uses contextWindow - reserveTokens when a window is set', () => {
    expect(effectiveTokenLimit(resolveConfig({ contextWindow: 128_000 }))).toBe(128_000 - 16_384);
  });

  it('uses the smaller of the reserve limit and the compaction threshold', () => {
    expect(effectiveTokenLimit(resolveConfig({ contextWindow: 200_000, compactionThreshold: 0.8 }))).toBe(160_000);
    expect(effectiveTokenLimit(resolveConfig({ contextWindow: 200_000, compactionThreshold: 0.95 }))).toBe(
      200_000 - 16_384,
    );
  });

  it('falls back to maxTokens, then to none', () => {
    expect(effectiveTokenLimit(resolveConfig())).toBe(8000);
    expect(effectiveTokenLimit(resolveConfig({ maxTokens: 0 }))).toBeUndefined();
  });

  it('clamps keepRecentTokens to half the limit', () => {
    expect(effectiveKeepRecentTokens(resolveConfig())).toBe(4000);
    expect(effectiveKeepRecentTokens(resolveConfig({ contextWindow: 128_000 }))).toBe(20_000);
    expect(effectiveKeepRecentTokens(resolveConfig({ contextWindow: 30_000, reserveTokens: 16_384 }))).toBe(
      Math.floor((30_000 - 16_384) / 2),
    );
    expect(effectiveKeepRecentTokens(resolveConfig({ contextWindow: 30_000 }))).toBe(Math.floor((30_000 - 7_500) / 2));
    expect(effectiveKeepRecentTokens(resolveConfig({ maxTokens: 0 }))).toBe(20_000);
  });
});

describe('errors', () => {
  it('recognises errors across copies of the package by their Symbol.for markers, not prototype', () => {
    const error = new ConfigError({ message: 'bad', field: 'field', cause: 'why' });
    const foreign = Object.assign(new Error('bad'), {
      [Symbol.for('ctxkit.ConfigError')]: true,
      [Symbol.for('ctxkit.ContextError')]: true,
    });
    expect(ConfigError.isInstance(foreign)).toBe(true);
    expect(ContextError.isInstance(foreign)).toBe(true);
    expect(StoreError.isInstance(foreign)).toBe(false);
    expect(ConfigError.isInstance(new Error('x'))).toBe(false);
    expect(ConfigError.isInstance(null)).toBe(false);
    expect(error.name).toBe('ConfigError');
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.field).toBe('field');
    expect(error.cause).toBe('why');
    expect(ContextError.isInstance(error)).toBe(true);
    expect(error).toBeInstanceOf(Error);
  });

  it('gives each class its own name and marker', () => {
    const store = new StoreError({ message: 'disk full', code: 'STORE_FAILED' });
    const session = new SessionError({ message: 'no such session', code: 'SESSION_NOT_FOUND' });
    const compaction = new CompactionError({ message: 'not smaller', code: 'NOT_SMALLER' });
    expect([store.name, session.name, compaction.name]).toEqual(['StoreError', 'SessionError', 'CompactionError']);
    expect(StoreError.isInstance(store)).toBe(true);
    expect(SessionError.isInstance(store)).toBe(false);
    expect(CompactionError.isInstance(compaction)).toBe(true);
    expect(ConfigError.isInstance(compaction)).toBe(false);
    expect(ContextError.isInstance(session)).toBe(true);
    expect('cause' in store).toBe(false);
  });
});
