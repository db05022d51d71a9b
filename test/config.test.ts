import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  ContextError,
  DEFAULT_CONFIG,
  effectiveKeepRecentTokens,
  effectiveTokenLimit,
  resolveConfig,
} from '../src/index.js';

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
    expect(effectiveKeepRecentTokens(resolveConfig({ contextWindow: 30_000 }))).toBe(Math.floor((30_000 - 16_384) / 2));
    expect(effectiveKeepRecentTokens(resolveConfig({ maxTokens: 0 }))).toBe(20_000);
  });
});

describe('errors', () => {
  it('recognises errors across copies of the package by marker, not prototype', () => {
    const error = new ConfigError('bad', 'field');
    const foreign = Object.assign(new Error('bad'), { [Symbol.for('ctxkit.error')]: ['ConfigError', 'ContextError'] });
    expect(ConfigError.isInstance(foreign)).toBe(true);
    expect(ConfigError.isInstance(new Error('x'))).toBe(false);
    expect(error.name).toBe('ConfigError');
    expect(error).toBeInstanceOf(Error);
  });
});
