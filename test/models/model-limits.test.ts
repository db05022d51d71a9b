import { describe, expect, it } from 'vitest';
import { ConfigError, getModelLimits, MODEL_LIMITS, type ModelLimits } from '../../src/index.js';

const limits = (contextWindow: number, maxOutputTokens: number): ModelLimits => ({ contextWindow, maxOutputTokens });

/** Model ids as hosts send them → the limits the providers document. */
const known: Array<[string, ModelLimits]> = [
  // OpenAI: plain, dated, aliases, snapshots that differ from their family
  ['gpt-4o', limits(128_000, 16_384)],
  ['gpt-4o-2024-08-06', limits(128_000, 16_384)],
  ['gpt-4o-2024-05-13', limits(128_000, 4_096)],
  ['gpt-4o-mini-2024-07-18', limits(128_000, 16_384)],
  ['chatgpt-4o-latest', limits(128_000, 16_384)],
  ['gpt-4', limits(8_192, 8_192)],
  ['gpt-4-0613', limits(8_192, 8_192)],
  ['gpt-4-32k', limits(32_768, 8_192)],
  ['gpt-4-0125-preview', limits(128_000, 4_096)],
  ['gpt-4-1106-preview', limits(128_000, 4_096)],
  ['gpt-4-turbo-2024-04-09', limits(128_000, 4_096)],
  ['gpt-3.5-turbo-0125', limits(16_385, 4_096)],
  ['gpt-35-turbo', limits(16_385, 4_096)],
  ['gpt-4.1-2025-04-14', limits(1_047_576, 32_768)],
  ['gpt-5', limits(400_000, 128_000)],
  ['gpt-5-mini-2025-08-07', limits(400_000, 128_000)],
  ['gpt-5-chat-latest', limits(128_000, 16_384)],
  ['gpt-5.1', limits(400_000, 128_000)],
  ['gpt-5.1-chat-latest', limits(128_000, 16_384)],
  ['o1', limits(200_000, 100_000)],
  ['o1-mini', limits(128_000, 65_536)],
  ['o1-mini-2024-09-12', limits(128_000, 65_536)],
  ['o1-preview', limits(128_000, 32_768)],
  ['o3-2025-04-16', limits(200_000, 100_000)],
  ['o3-mini', limits(200_000, 100_000)],
  ['o4-mini', limits(200_000, 100_000)],
  ['gpt-oss:20b', limits(131_072, 131_072)],
  ['openai/gpt-oss-120b', limits(131_072, 131_072)],
  // Anthropic: dated, Vertex `@`, Bedrock regions and vendor prefixes, OpenRouter `vendor/model` with dots
  ['claude-sonnet-4-5-20250929', limits(200_000, 64_000)],
  ['claude-sonnet-4-5@20250929', limits(200_000, 64_000)],
  ['claude-opus-4-1-20250805', limits(200_000, 32_000)],
  ['claude-3-7-sonnet-latest', limits(200_000, 64_000)],
  ['claude-3-5-sonnet-20241022', limits(200_000, 8_192)],
  ['claude-3-opus-20240229', limits(200_000, 4_096)],
  ['claude-3-sonnet-20240229', limits(200_000, 4_096)],
  ['claude-3-haiku-20240307', limits(200_000, 4_096)],
  ['anthropic.claude-3-5-sonnet-20240620-v1:0', limits(200_000, 8_192)],
  ['us.anthropic.claude-sonnet-4-20250514-v1:0', limits(200_000, 64_000)],
  ['eu.anthropic.claude-sonnet-4-5-20250929-v1:0', limits(200_000, 64_000)],
  ['apac.anthropic.claude-sonnet-4-20250514-v1:0', limits(200_000, 64_000)],
  ['global.anthropic.claude-sonnet-4-5-20250929-v1:0', limits(200_000, 64_000)],
  ['us-gov.anthropic.claude-3-5-sonnet-20240620-v1:0', limits(200_000, 8_192)],
  ['jp.anthropic.claude-haiku-4-5-20251001-v1:0', limits(200_000, 64_000)],
  ['anthropic.claude-3-haiku-20240307-v1:0:200k', limits(200_000, 4_096)],
  ['anthropic/claude-3.5-sonnet', limits(200_000, 8_192)],
  ['anthropic/claude-3.7-sonnet', limits(200_000, 64_000)],
  ['anthropic/claude-sonnet-4.5', limits(200_000, 64_000)],
  ['anthropic/claude-opus-4.1', limits(200_000, 32_000)],
  // Google
  ['models/gemini-2.5-pro', limits(1_048_576, 65_536)],
  ['gemini-2.5-flash-preview-05-20', limits(1_048_576, 65_536)],
  ['google/gemini-2.5-flash-lite', limits(1_048_576, 65_536)],
  ['gemini-2.0-flash-001', limits(1_048_576, 8_192)],
  ['gemini-1.5-pro-002', limits(2_097_152, 8_192)],
  ['gemini-3-pro-preview', limits(1_048_576, 65_536)],
  // xAI, Mistral
  ['grok-4-0709', limits(256_000, 64_000)],
  ['x-ai/grok-code-fast-1', limits(256_000, 10_000)],
  ['mistral-large-latest', limits(131_072, 8_192)],
  ['mistral.mistral-large-2407-v1:0', limits(131_072, 8_192)],
  ['codestral-2501', limits(256_000, 8_192)],
  ['codestral-2405', limits(32_768, 8_192)],
  ['open-mixtral-8x22b', limits(65_536, 8_192)],
  ['mistralai/Mixtral-8x7B-Instruct-v0.1', limits(32_768, 8_192)],
  ['open-mistral-nemo', limits(131_072, 8_192)],
  // Open models under their hosts' spellings
  ['llama-3.3-70b-versatile', limits(131_072, 8_192)],
  ['meta-llama/llama-3.1-405b-instruct', limits(131_072, 8_192)],
  ['meta-llama/Meta-Llama-3.1-8B-Instruct', limits(131_072, 8_192)],
  ['llama3.1:8b', limits(131_072, 8_192)],
  ['llama3.2:3b', limits(131_072, 8_192)],
  ['llama3:8b', limits(8_192, 8_192)],
  ['accounts/fireworks/models/llama-v3p1-70b-instruct', limits(131_072, 8_192)],
  ['meta.llama3-1-70b-instruct-v1:0', limits(131_072, 8_192)],
  ['meta.llama3-70b-instruct-v1:0', limits(8_192, 8_192)],
  ['us.meta.llama4-scout-17b-instruct-v1:0', limits(131_072, 8_192)],
  ['meta-llama/llama-4-maverick', limits(131_072, 8_192)],
  ['qwen2.5:7b', limits(32_768, 8_192)],
  ['Qwen/Qwen2.5-72B-Instruct', limits(32_768, 8_192)],
  ['qwen3:8b', limits(32_768, 8_192)],
  ['qwen/qwen3-coder', limits(262_144, 65_536)],
  ['deepseek-chat', limits(128_000, 8_192)],
  ['deepseek/deepseek-chat-v3.1', limits(128_000, 8_192)],
  ['deepseek-reasoner', limits(128_000, 64_000)],
  ['deepseek-ai/DeepSeek-V3', limits(128_000, 8_192)],
  ['deepseek-r1:7b', limits(128_000, 32_768)],
  ['deepseek/deepseek-r1:free', limits(128_000, 32_768)],
  ['gemma3:27b', limits(131_072, 8_192)],
  ['gemma3:1b', limits(32_768, 8_192)],
  ['google/gemma-2-9b-it', limits(8_192, 8_192)],
  ['moonshotai/kimi-k2-instruct', limits(131_072, 16_384)],
];

describe('getModelLimits', () => {
  it.each(known)('%s', (modelId, expected) => {
    expect(getModelLimits(modelId)).toEqual(expected);
  });

  it('includes every model of the seed table', () => {
    const seed: Record<string, number> = {
      'gpt-4': 8_192,
      'gpt-4-turbo': 128_000,
      'gpt-4o': 128_000,
      'claude-3-opus': 200_000,
      'claude-3-sonnet': 200_000,
      'claude-3-haiku': 200_000,
    };
    for (const [modelId, contextWindow] of Object.entries(seed)) {
      expect(getModelLimits(modelId)?.contextWindow, modelId).toBe(contextWindow);
    }
    // The seed rounds these; the providers document the exact numbers.
    expect(getModelLimits('gemini-1.5-pro')?.contextWindow).toBe(2_097_152);
    expect(getModelLimits('gemini-1.5-flash')?.contextWindow).toBe(1_048_576);
  });

  it('does not match a prefix that continues the name or the version', () => {
    expect(getModelLimits('o1x')).toBeUndefined();
    expect(getModelLimits('gpt-4x')).toBeUndefined();
    expect(getModelLimits('gpt-4.5-preview')).toBeUndefined();
    expect(getModelLimits('unknown-model')).toBeUndefined();
    expect(getModelLimits('')).toBeUndefined();
  });

  it('keeps every table key in the normalized form, so each one is reachable by its own name', () => {
    for (const [key, value] of Object.entries(MODEL_LIMITS)) {
      expect(getModelLimits(key), key).toEqual(value);
      expect(value.maxOutputTokens, key).toBeLessThanOrEqual(value.contextWindow);
    }
  });

  describe('overrides', () => {
    const small = limits(32_000, 4_096);

    it('apply to the key and the ids it prefixes', () => {
      const overrides = { 'gpt-4o': small, llama3: limits(8_192, 2_048) };
      expect(getModelLimits('gpt-4o', { overrides })).toEqual(small);
      expect(getModelLimits('gpt-4o-2024-11-20', { overrides })).toEqual(small);
      expect(getModelLimits('llama3:8b', { overrides })?.maxOutputTokens).toBe(2_048);
    });

    it('do not take over a more specific model the table knows', () => {
      const overrides = { 'gpt-4o': small };
      expect(getModelLimits('gpt-4o-mini', { overrides })).toEqual(limits(128_000, 16_384));
      expect(getModelLimits('gpt-4o-mini-2024-07-18', { overrides })).toEqual(limits(128_000, 16_384));
      expect(getModelLimits('gpt-4', { overrides: { gpt: small } })).toEqual(limits(8_192, 8_192));
    });

    it('win over the table when they are as specific or more', () => {
      const overrides = { 'gpt-4o-mini-2024-07-18': small, 'claude-sonnet-4-5': limits(1_000_000, 64_000) };
      expect(getModelLimits('gpt-4o-mini-2024-07-18', { overrides })).toEqual(small);
      expect(getModelLimits('gpt-4o-mini', { overrides })).toEqual(limits(128_000, 16_384));
      expect(getModelLimits('us.anthropic.claude-sonnet-4-5-20250929-v1:0', { overrides })?.contextWindow).toBe(
        1_000_000,
      );
    });

    it('match keys with slashes and provider prefixes, normalized like ids', () => {
      const fireworks = 'accounts/fireworks/models/llama-v3p1-70b-instruct';
      expect(getModelLimits(fireworks, { overrides: { [fireworks]: small } })).toEqual(small);
      expect(getModelLimits('openrouter/foo', { overrides: { 'openrouter/foo': small } })).toEqual(small);
      expect(getModelLimits('us.anthropic.my-custom', { overrides: { 'us.anthropic.my-custom': small } })).toEqual(
        small,
      );
      expect(getModelLimits('my-finetune:latest', { overrides: { 'MY-FINETUNE': small } })).toEqual(small);
    });

    it('given as the exact id always win', () => {
      const overrides = { 'gpt-4o': limits(64_000, 4_096), 'openai/gpt-4o': small };
      expect(getModelLimits('openai/gpt-4o', { overrides })).toEqual(small);
      expect(getModelLimits('gpt-4o', { overrides })).toEqual(limits(64_000, 4_096));
    });

    it('are validated', () => {
      const bad = { x: { contextWindow: -1, maxOutputTokens: 1 } };
      expect(() => getModelLimits('x', { overrides: bad })).toThrow(ConfigError);
      expect(() => getModelLimits('x', { overrides: bad })).toThrow(
        'getModelLimits: options.overrides.x.contextWindow must be a whole number ≥ 1 (got -1)',
      );
    });
  });

  it('returns copies the caller cannot use to change the table', () => {
    const found = getModelLimits('gpt-4o')!;
    found.contextWindow = 1;
    expect(getModelLimits('gpt-4o')?.contextWindow).toBe(128_000);
  });
});
