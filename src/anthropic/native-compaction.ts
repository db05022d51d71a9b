import { invalid } from '../internal/wire-object.js';
import type { CompactionUsage } from '../native-compaction.js';

// Anthropic's server-side compaction: the request options of the `compact_20260112` context edit,
// and the cost of the compaction step, which the response reports in `usage.iterations[]` only.

/**
 * Options of {@link anthropicCompactionParams}.
 *
 * @example
 * ```ts
 * const options: AnthropicCompactionOptions = { threshold: manager.nativeCompaction(target)!.threshold };
 * ```
 */
export interface AnthropicCompactionOptions {
  /** The input tokens at which the API compacts (at least 50,000): the manager's `nativeCompaction(target).threshold`. */
  threshold: number;
  /** Replaces the API's summarization instructions. @default the API's own */
  instructions?: string;
  /** End the turn after compacting (`stop_reason: 'compaction'`) so the host sends it again. @default false */
  pauseAfterCompaction?: boolean;
}

/**
 * The request options that turn on Anthropic's server-side compaction, to spread into
 * `client.beta.messages.create`: the `compact-2026-01-12` beta and a `compact_20260112` context edit
 * whose trigger is `threshold` input tokens. The response then starts with a `compaction` block
 * whenever the API compacted; `fromAnthropicMessage` keeps it, and a manager with
 * `compaction: nativeCompaction()` takes it in.
 *
 * @param options - The trigger, and optional instructions and pause.
 * @returns `{ betas, context_management }`.
 * @throws `ContextError` with code `INPUT_INVALID` when `threshold` is not a whole number of at least 50,000.
 *
 * @example
 * ```ts
 * const native = manager.nativeCompaction(target);
 * const response = await client.beta.messages.create({
 *   model, max_tokens: 4096, system, messages, tools,
 *   ...(native ? anthropicCompactionParams({ threshold: native.threshold }) : {}),
 * });
 * ```
 */
export function anthropicCompactionParams(options: AnthropicCompactionOptions): {
  betas: string[];
  // Spelled out (not `Record<string, unknown>`) so the result spreads into the SDK's typed beta params.
  context_management: {
    edits: {
      type: 'compact_20260112';
      trigger: { type: 'input_tokens'; value: number };
      instructions?: string;
      pause_after_compaction?: boolean;
    }[];
  };
} {
  const threshold = options?.threshold;
  if (!Number.isSafeInteger(threshold) || threshold < 50_000) {
    invalid(
      'anthropicCompactionParams',
      'options.threshold',
      'must be a whole number of input tokens of at least 50,000 (the API refuses a lower trigger)',
    );
  }
  if (options.instructions !== undefined && typeof options.instructions !== 'string') {
    invalid('anthropicCompactionParams', 'options.instructions', 'must be a string');
  }
  return {
    betas: ['compact-2026-01-12'],
    context_management: {
      edits: [
        {
          type: 'compact_20260112',
          trigger: { type: 'input_tokens', value: threshold },
          ...(options.instructions ? { instructions: options.instructions } : {}),
          ...(options.pauseAfterCompaction ? { pause_after_compaction: true } : {}),
        },
      ],
    },
  };
}

/**
 * The compaction iterations of a response's `usage.iterations[]`, summed: what Anthropic's
 * compaction step cost, which the top-level usage leaves out. `undefined` when the response did
 * not compact. @internal
 */
export function compactionIterations(iterations: unknown): CompactionUsage | undefined {
  if (!Array.isArray(iterations)) return undefined;
  let found = false;
  const sum = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  for (const iteration of iterations) {
    if (typeof iteration !== 'object' || iteration === null) continue;
    const entry = iteration as Record<string, unknown>;
    if (entry['type'] !== 'compaction') continue;
    found = true;
    sum.input += count(entry['input_tokens']);
    sum.output += count(entry['output_tokens']);
    sum.cacheRead += count(entry['cache_read_input_tokens']);
    sum.cacheWrite += count(entry['cache_creation_input_tokens']);
  }
  if (!found) return undefined;
  return {
    input: sum.input,
    output: sum.output,
    ...(sum.cacheRead > 0 ? { cacheRead: sum.cacheRead } : {}),
    ...(sum.cacheWrite > 0 ? { cacheWrite: sum.cacheWrite } : {}),
  };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}
