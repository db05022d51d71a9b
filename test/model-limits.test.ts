import { describe, expect, it } from 'vitest';
import { ConfigError, getModelLimits, MODEL_LIMITS } from '../src/index.js';

describe('getModelLimits', () => {
  it('knows current models', () => {
    expect(getModelLimits('gpt-4o')).toEqual({ contextWindow: 128_000, maxOutputTokens: 16_384 });
    expect(getModelLimits('claude-sonnet-4-5')).toEqual({ contextWindow: 200_000, maxOutputTokens: 64_000 });
    expect(getModelLimits('gemini-2.5-pro')?.contextWindow).toBe(1_048_576);
  });

  it('matches dated, suffixed and provider-prefixed ids by the longest prefix', () => {
    expect(getModelLimits('gpt-4o-2024-08-06')).toEqual(MODEL_LIMITS['gpt-4o']);
    expect(getModelLimits('gpt-4o-mini-2024-07-18')).toEqual(MODEL_LIMITS['gpt-4o-mini']);
    expect(getModelLimits('claude-sonnet-4-5-20250929')).toEqual(MODEL_LIMITS['claude-sonnet-4-5']);
    expect(getModelLimits('claude-sonnet-4-20250514')).toEqual(MODEL_LIMITS['claude-sonnet-4']);
    expect(getModelLimits('openai/gpt-4.1-mini')).toEqual(MODEL_LIMITS['gpt-4.1-mini']);
    expect(getModelLimits('us.anthropic.claude-3-5-sonnet-20240620-v1:0')).toEqual(MODEL_LIMITS['claude-3-5-sonnet']);
    expect(getModelLimits('GPT-4O')).toEqual(MODEL_LIMITS['gpt-4o']);
  });

  it('does not match a prefix without a separator', () => {
    expect(getModelLimits('o1x')).toBeUndefined();
    expect(getModelLimits('gpt-4')).toBeUndefined();
    expect(getModelLimits('unknown-model')).toBeUndefined();
  });

  it('prefers host overrides and validates them', () => {
    const overrides = {
      'gpt-4o': { contextWindow: 64_000, maxOutputTokens: 4_096 },
      llama3: { contextWindow: 8_192, maxOutputTokens: 2_048 },
    };
    expect(getModelLimits('gpt-4o-2024-11-20', { overrides })?.contextWindow).toBe(64_000);
    expect(getModelLimits('llama3:8b', { overrides })?.contextWindow).toBe(8_192);
    expect(() => getModelLimits('x', { overrides: { x: { contextWindow: -1, maxOutputTokens: 1 } } })).toThrow(
      ConfigError,
    );
    expect(() => getModelLimits('x', { overrides: { x: { contextWindow: -1, maxOutputTokens: 1 } } })).toThrow(
      /modelLimits\.x\.contextWindow/,
    );
  });

  it('returns copies the caller cannot use to change the table', () => {
    const limits = getModelLimits('gpt-4o')!;
    limits.contextWindow = 1;
    expect(getModelLimits('gpt-4o')?.contextWindow).toBe(128_000);
  });
});
