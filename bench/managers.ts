/** The managers the benchmarks drive: the default settings, a summarizer that answers at once and counts its calls. */
import {
  type ContextConfigInput,
  type ContextManager,
  createContextManager,
  type Summarizer,
  type TokenCounter,
} from '../src/index.js';

export const SYSTEM_PROMPT = 'You are a coding agent. Work in small steps, run the tests after each change.';

/** A model summarizer that answers at once (so the bench measures ctxkit, not a model), counting its calls by kind. */
export function countingSummarizer(): Summarizer & { calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  return {
    calls,
    async summarize(request) {
      calls[request.kind] = (calls[request.kind] ?? 0) + 1;
      if (request.kind === 'tool_results')
        return 'Ran the tests and read the parser; 2 tests fail in test/parser.test.ts.';
      return [
        '## Goal',
        'Fix the failing parser tests.',
        '## Progress',
        '- Done: read src/parser.ts; fixed the token loop.',
        '## Next Steps',
        '- Run the suite again.',
      ].join('\n');
    },
  };
}

/**
 * A manager with the default settings (tool summaries by the model summarizer, cutoff and batching
 * as configured by default), a window large enough that no compaction is due at any size measured,
 * and the cost-aware policy off: with it on, a history of 100k messages is worth compacting every
 * few tool steps whatever the window, and the per-call rows would time compactions.
 */
export function defaultManager(
  counter: TokenCounter,
  summarizer: Summarizer = countingSummarizer(),
  config: ContextConfigInput = {},
): ContextManager {
  return createContextManager({
    summarizer,
    contextWindow: 100_000_000,
    counter,
    config,
    systemPrompt: SYSTEM_PROMPT,
    costAware: false,
  });
}
