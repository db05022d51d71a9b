import { anthropicCompactionParams, fromAnthropicMessage, fromAnthropicUsage } from 'ctxkit/anthropic';
import { openaiCompactionParams } from 'ctxkit/openai';
import { describe, expect, it } from 'vitest';

describe('native compaction request options', () => {
  it("writes Anthropic's beta and compact_20260112 edit, refusing a trigger under 50,000", () => {
    expect(anthropicCompactionParams({ threshold: 120_000, instructions: 'Keep file paths.' })).toEqual({
      betas: ['compact-2026-01-12'],
      context_management: {
        edits: [
          {
            type: 'compact_20260112',
            trigger: { type: 'input_tokens', value: 120_000 },
            instructions: 'Keep file paths.',
          },
        ],
      },
    });
    expect(() => anthropicCompactionParams({ threshold: 49_999 })).toThrow(/options\.threshold .*50,000/);
  });

  it("writes OpenAI's context_management, refusing a threshold that is not a positive whole number", () => {
    expect(openaiCompactionParams({ threshold: 90_000 })).toEqual({
      context_management: [{ type: 'compaction', compact_threshold: 90_000 }],
    });
    expect(() => openaiCompactionParams({ threshold: 0.5 })).toThrow(/options\.threshold/);
  });
});

describe("Anthropic's usage.iterations", () => {
  it('sums the compaction steps into usage.compaction, leaving the context measure as the top-level fields', () => {
    const usage = fromAnthropicUsage({
      input_tokens: 3_000,
      output_tokens: 200,
      iterations: [
        { type: 'compaction', input_tokens: 150_000, output_tokens: 2_500, cache_read_input_tokens: 10 },
        { type: 'message', input_tokens: 3_000, output_tokens: 200 },
      ],
    });
    expect(usage).toEqual({
      input: 3_000,
      output: 200,
      total: 3_200,
      compaction: { input: 150_000, output: 2_500, cacheRead: 10 },
    });
    expect(fromAnthropicUsage({ input_tokens: 1, output_tokens: 1, iterations: null }).compaction).toBeUndefined();
  });

  it("knows stop_reason 'compaction' (paused after compacting) without a warning", () => {
    const { stopReason, warnings } = fromAnthropicMessage({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-6',
      content: [{ type: 'compaction', content: 'summary', encrypted_content: 'Eq.x' }],
      stop_reason: 'compaction',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    } as never);
    expect(stopReason).toBe('stop');
    expect(warnings).toEqual([]);
  });
});
