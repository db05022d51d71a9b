import { fc, test } from '@fast-check/vitest';
import { OPENAI_AUTOMATIC_CACHE, OPENAI_EXPLICIT_CACHE } from 'ctxkit';
import { describe, expect, it } from 'vitest';
import { type OpenAICacheBlock, OpenAIPromptCache } from './openai-prompt-cache.js';

// The loopback server's emulation of OpenAI's prompt cache, by its rules.

const blocks = (count: number, tokens = 100, marks: number[] = []): OpenAICacheBlock[] =>
  Array.from({ length: count }, (_, index) => ({ key: `b${index}`, tokens, breakpoint: marks.includes(index) }));

describe('automatic caching', () => {
  it('reads the longest live prefix from 1,024 tokens, in steps of 128, apart for each key, until the TTL', () => {
    const cache = new OpenAIPromptCache(OPENAI_AUTOMATIC_CACHE);
    expect(cache.send({ blocks: blocks(30), key: 'a', at: 0 })).toEqual({ cached: 0, written: 0, total: 3_000 });
    // The same 30 blocks and 5 more: 3,000 tokens read, reported as 1,024 + 15 × 128.
    expect(cache.send({ blocks: blocks(35), key: 'a', at: 1_000 })).toEqual({
      cached: 2_944,
      written: 0,
      total: 3_500,
    });
    expect(cache.send({ blocks: blocks(35), key: 'b', at: 2_000 }).cached).toBe(0);
    expect(cache.send({ blocks: blocks(35), key: 'a', at: 1_000 + OPENAI_AUTOMATIC_CACHE.ttlMs + 1 }).cached).toBe(0);
    const small = new OpenAIPromptCache(OPENAI_AUTOMATIC_CACHE);
    small.send({ blocks: blocks(10), at: 0 });
    expect(small.send({ blocks: blocks(10), at: 1 }).cached).toBe(0);
  });
});

describe('explicit breakpoints (GPT-5.6)', () => {
  it('writes at the marks and the implicit end, reads with no lookback limit, and caches nothing unmarked in explicit mode', () => {
    const cache = new OpenAIPromptCache(OPENAI_EXPLICIT_CACHE);
    // Implicit mode: the end of the input is a breakpoint; 2,000 tokens written.
    expect(cache.send({ blocks: blocks(20), at: 0 })).toEqual({ cached: 0, written: 2_000, total: 2_000 });
    // 40 blocks later, unmarked: the 2,000 are read back (Anthropic would look back 20 blocks only).
    expect(cache.send({ blocks: blocks(60), at: 1 })).toEqual({ cached: 2_000, written: 4_000, total: 6_000 });
    const explicit = new OpenAIPromptCache(OPENAI_EXPLICIT_CACHE);
    expect(explicit.send({ blocks: blocks(20), mode: 'explicit', at: 0 })).toEqual({
      cached: 0,
      written: 0,
      total: 2_000,
    });
    // The latest four marks are written: 11 and 15 (1,200 and 1,600 tokens); 5 is below the minimum.
    expect(explicit.send({ blocks: blocks(20, 100, [5, 11, 15]), mode: 'explicit', at: 1 })).toEqual({
      cached: 0,
      written: 1_600,
      total: 2_000,
    });
    expect(explicit.send({ blocks: blocks(20), mode: 'explicit', at: 2 })).toEqual({
      cached: 0,
      written: 0,
      total: 2_000,
    });
    expect(explicit.send({ blocks: blocks(20, 100, [19]), mode: 'explicit', at: 3 })).toEqual({
      cached: 1_600,
      written: 400,
      total: 2_000,
    });
  });
});

const request = fc.record({
  length: fc.integer({ min: 1, max: 40 }),
  tokens: fc.integer({ min: 1, max: 600 }),
  marks: fc.array(fc.integer({ min: 0, max: 39 }), { maxLength: 6 }),
  key: fc.constantFrom(undefined, 'a', 'b'),
  mode: fc.constantFrom(undefined, 'implicit' as const, 'explicit' as const),
  gap: fc.integer({ min: 0, max: 3_600_000 }),
});

test.prop([fc.boolean(), fc.array(request, { minLength: 1, maxLength: 12 })])(
  'reads and writes never pass the request, and automatic reads come in steps of 128 past 1,024',
  (automatic, requests) => {
    const cache = new OpenAIPromptCache(automatic ? OPENAI_AUTOMATIC_CACHE : OPENAI_EXPLICIT_CACHE);
    let at = 0;
    for (const sent of requests) {
      at += sent.gap;
      const usage = cache.send({
        blocks: blocks(sent.length, sent.tokens, sent.marks),
        key: sent.key,
        mode: sent.mode,
        at,
      });
      expect(usage.total).toBe(sent.length * sent.tokens);
      expect(usage.cached).toBeGreaterThanOrEqual(0);
      expect(usage.written).toBeGreaterThanOrEqual(0);
      expect(usage.cached + usage.written).toBeLessThanOrEqual(usage.total);
      if (automatic) {
        expect(usage.written).toBe(0);
        if (usage.cached > 0) expect((usage.cached - 1_024) % 128).toBe(0);
      }
    }
  },
);
