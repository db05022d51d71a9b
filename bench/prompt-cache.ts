/**
 * A provider's prompt cache, emulated for `npm run bench:cost`: requests are lists of blocks (tools,
 * system prompt, each message), and the cache holds prefixes of them by content.
 *
 * - automatic (OpenAI, Gemini): every request's prefixes are stored; a request reads the longest
 *   stored prefix still alive (within the TTL, each read renewing it), if at least the minimum
 *   prefix; writing is free.
 * - breakpoints (Anthropic): a prefix is stored only where a request marks a breakpoint (at most
 *   the limit). A request reads the longest alive stored prefix that ends at one of its breakpoints
 *   or up to 20 blocks before one (the provider's lookback), writes (at the write price) from there
 *   to its last breakpoint, and pays full price for what follows the last breakpoint.
 *
 * It reports usage as the providers do: uncached input, cache reads and cache writes apart.
 */
import { createHash } from 'node:crypto';
import type { PromptCacheRules, Usage } from '../src/index.js';

/** One block of a request: a key for its content and its tokens. */
export interface CacheBlock {
  key: string;
  tokens: number;
}

/** A request as the cache sees it. */
export interface CachedRequest {
  blocks: readonly CacheBlock[];
  /** Indexes of the blocks that end with a breakpoint (breakpoints mode). */
  breakpoints?: readonly number[];
  /** When it is sent, in milliseconds. */
  at: number;
}

/** Blocks the provider looks back from a breakpoint for an earlier cached prefix. */
export const LOOKBACK_BLOCKS = 20;

interface Entry {
  tokens: number;
  expiresAt: number;
}

/** The key of a text block (a digest, so prefixes hash cheaply). */
export function blockKey(text: string): string {
  return createHash('sha1').update(text).digest('base64');
}

export class PromptCacheEmulator {
  private readonly entries = new Map<string, Entry>();

  constructor(readonly rules: PromptCacheRules) {}

  /** Sends a request: the usage the provider would report for its input (output is the caller's). */
  send(request: CachedRequest): Usage {
    const { blocks, at } = request;
    const prefixes: string[] = [];
    const cumulative: number[] = [];
    let hash = '';
    let total = 0;
    for (const block of blocks) {
      hash = blockKey(`${hash}|${block.key}`);
      total += block.tokens;
      prefixes.push(hash);
      cumulative.push(total);
    }
    const alive = (index: number) => {
      const entry = this.entries.get(prefixes[index]!);
      return entry !== undefined && entry.expiresAt >= at ? entry : undefined;
    };
    const { ttlMs, minPrefixTokens } = this.rules;
    if (this.rules.mode === 'automatic') {
      let read = 0;
      for (let index = blocks.length - 1; index >= 0; index--) {
        if (alive(index)) {
          read = cumulative[index]!;
          break;
        }
      }
      if (read < minPrefixTokens) read = 0;
      for (let index = 0; index < blocks.length; index++) {
        if (cumulative[index]! >= minPrefixTokens)
          this.entries.set(prefixes[index]!, { tokens: cumulative[index]!, expiresAt: at + ttlMs });
      }
      return { input: total - read, output: 0, cacheRead: read, cacheWrite: 0 };
    }
    const limit = this.rules.maxBreakpoints ?? Number.POSITIVE_INFINITY;
    const breakpoints = [...new Set(request.breakpoints ?? [])]
      .filter((index) => index >= 0 && index < blocks.length)
      .sort((a, b) => a - b);
    if (breakpoints.length > limit) throw new Error(`more than ${limit} cache breakpoints in one request`);
    let readAt = -1;
    for (const breakpoint of breakpoints) {
      for (let index = breakpoint; index >= Math.max(0, breakpoint - LOOKBACK_BLOCKS); index--) {
        if (index <= readAt) break;
        if (alive(index)) {
          readAt = index;
          break;
        }
      }
    }
    const read = readAt < 0 ? 0 : cumulative[readAt]!;
    if (readAt >= 0) this.entries.get(prefixes[readAt]!)!.expiresAt = at + ttlMs;
    let written = read;
    for (const breakpoint of breakpoints) {
      const tokens = cumulative[breakpoint]!;
      if (breakpoint <= readAt || tokens < minPrefixTokens) {
        const entry = alive(breakpoint);
        if (entry) entry.expiresAt = at + ttlMs;
        continue;
      }
      this.entries.set(prefixes[breakpoint]!, { tokens, expiresAt: at + ttlMs });
      written = tokens;
    }
    return { input: total - written, output: 0, cacheRead: read, cacheWrite: written - read };
  }
}
