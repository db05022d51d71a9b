import type { ContextConfig, ContextConfigInput } from '../config/index.js';
import type { TokenCounter } from '../counting/token-counter.js';
import type { Anchor } from '../summarizing/anchors/anchor.js';
import type { Summarizer } from '../summarizing/summarizer-types.js';
import type { Message } from '../types.js';
import { compact } from './compact.js';

/**
 * Stands after the span so `compact`, which always keeps at least one message verbatim, keeps this
 * one and summarizes every message of the span: the portable summary must stand for all of it (the
 * span of a compaction the host asked for by `POST /responses/compact` ends with the user's request).
 */
const SPAN_END: Message = { role: 'user', content: '(end of the compacted span)' };

/**
 * The portable summary of a span a provider compacted natively: the whole span summarized by
 * `compact` (an earlier summary at its start updated, its facts anchored and pinned), with the
 * anchors the text keeps. Shared by the manager and `compactSession`.
 *
 * @internal
 */
export async function portableSummary(
  span: readonly Message[],
  options: {
    summarizer: Summarizer;
    config?: ContextConfig | ContextConfigInput | undefined;
    counter?: TokenCounter | undefined;
    signal?: AbortSignal | undefined;
  },
): Promise<{ summary: string; anchors: Anchor[] }> {
  const result = await compact([...span, SPAN_END], {
    summarizer: options.summarizer,
    config: { ...options.config, keepRecent: 1, keepRecentTokens: 0 },
    ...(options.counter ? { counter: options.counter } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    requireSmaller: false,
  });
  const anchors = result.anchors ? [...result.anchors.kept, ...result.anchors.pinned] : [];
  return { summary: result.summary, anchors };
}
