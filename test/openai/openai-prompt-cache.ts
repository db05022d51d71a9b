import type { PromptCacheRules } from 'ctxkit';
import { blockKey, PromptCacheEmulator } from '../../bench/prompt-cache.js';

// OpenAI's prompt cache, emulated for the loopback OpenAI server: a request is a list of blocks (the
// tool definitions, the instructions, then each message's header and each content part), and the
// cache holds prefixes of them by content, apart for each `prompt_cache_key` (OpenAI routes a key's
// requests to the machines that hold its prefixes; another key's are elsewhere).
//
// - automatic (`OPENAI_AUTOMATIC_CACHE`, the models before GPT-5.6): every prefix of 1,024 tokens and
//   more is stored; a request reads the longest stored prefix still alive, reported in steps of 128
//   tokens past the first 1,024; writes are free and not reported. The rules are bench/prompt-cache's
//   automatic mode (shared, not copied).
// - breakpoints (`OPENAI_EXPLICIT_CACHE`, GPT-5.6 and later): a prefix is stored where the request
//   marks `prompt_cache_breakpoint` (the latest three marks plus an implicit breakpoint at the end of
//   the input under `prompt_cache_options.mode: 'implicit'`, the default; the latest four marks and
//   nothing else under `'explicit'`, so no marks means no caching), from 1,024 tokens on. A request
//   reads the longest alive stored prefix with no lookback limit (unlike Anthropic's 20 blocks), among
//   the latest 80 breakpoints of its key; it is not rounded. What it stores past what it read is
//   reported as `cache_write_tokens`.

/** One block of a request: its content key, its tokens, and whether a breakpoint ends it. */
export interface OpenAICacheBlock {
  key: string;
  tokens: number;
  breakpoint?: boolean;
}

/** A request as the cache sees it. */
export interface OpenAICacheRequest {
  blocks: readonly OpenAICacheBlock[];
  /** `prompt_cache_key`. */
  key?: string | undefined;
  /** `prompt_cache_options.mode`. @default 'implicit' */
  mode?: 'implicit' | 'explicit' | undefined;
  /** When it is sent, in milliseconds. */
  at: number;
}

/** The input tokens by what the provider charges for them. */
export interface OpenAICacheUsage {
  /** Tokens read from the cache (`cached_tokens`). */
  cached: number;
  /** Tokens written to the cache (`cache_write_tokens`; always 0 with automatic caching). */
  written: number;
  /** All the request's tokens. */
  total: number;
}

/**
 * Cached tokens as automatic caching reports them: 0 below the minimum prefix, else the minimum and
 * whole steps of 128 tokens past it.
 */
export function automaticSteps(read: number, minPrefixTokens = 1_024): number {
  return read < minPrefixTokens ? 0 : minPrefixTokens + Math.floor((read - minPrefixTokens) / 128) * 128;
}

/** The breakpoints OpenAI keeps for matching, per key. */
const KEPT_BREAKPOINTS = 80;

interface Entry {
  tokens: number;
  expiresAt: number;
}

export class OpenAIPromptCache {
  private readonly automatic = new Map<string, PromptCacheEmulator>();
  private readonly explicit = new Map<string, Map<string, Entry>>();

  constructor(readonly rules: PromptCacheRules) {}

  send(request: OpenAICacheRequest): OpenAICacheUsage {
    const partition = request.key ?? '';
    const total = request.blocks.reduce((sum, block) => sum + block.tokens, 0);
    if (this.rules.mode === 'automatic') {
      let cache = this.automatic.get(partition);
      if (cache === undefined) {
        cache = new PromptCacheEmulator(this.rules);
        this.automatic.set(partition, cache);
      }
      const usage = cache.send({ blocks: request.blocks, at: request.at });
      return { cached: automaticSteps(usage.cacheRead ?? 0, this.rules.minPrefixTokens), written: 0, total };
    }
    let entries = this.explicit.get(partition);
    if (entries === undefined) {
      entries = new Map();
      this.explicit.set(partition, entries);
    }
    return this.sendExplicit(request, entries, total);
  }

  private sendExplicit(request: OpenAICacheRequest, entries: Map<string, Entry>, total: number): OpenAICacheUsage {
    const { blocks, at } = request;
    const { ttlMs, minPrefixTokens } = this.rules;
    const marks: number[] = [];
    blocks.forEach((block, index) => {
      if (block.breakpoint) marks.push(index);
    });
    const explicitOnly = request.mode === 'explicit';
    if (explicitOnly && marks.length === 0) return { cached: 0, written: 0, total };
    const writes = explicitOnly ? marks.slice(-4) : [...marks.slice(-3), blocks.length - 1];
    const prefixes: string[] = [];
    const cumulative: number[] = [];
    let hash = '';
    let sum = 0;
    for (const block of blocks) {
      hash = blockKey(`${hash}|${block.key}`);
      sum += block.tokens;
      prefixes.push(hash);
      cumulative.push(sum);
    }
    let readAt = -1;
    for (let index = blocks.length - 1; index >= 0; index--) {
      const entry = entries.get(prefixes[index]!);
      if (entry !== undefined && entry.expiresAt >= at) {
        readAt = index;
        entry.expiresAt = at + ttlMs;
        break;
      }
    }
    const read = readAt < 0 ? 0 : cumulative[readAt]!;
    let written = read;
    for (const index of new Set(writes)) {
      const tokens = cumulative[index];
      if (tokens === undefined || index <= readAt || tokens < minPrefixTokens) continue;
      entries.delete(prefixes[index]!);
      entries.set(prefixes[index]!, { tokens, expiresAt: at + ttlMs });
      written = Math.max(written, tokens);
    }
    // Only the latest breakpoints of a key are considered for matching.
    for (const key of entries.keys()) {
      if (entries.size <= KEPT_BREAKPOINTS) break;
      entries.delete(key);
    }
    return { cached: read, written: written - read, total };
  }
}
