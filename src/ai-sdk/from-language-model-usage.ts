import { expectObject, invalid } from '../internal/wire-object.js';
import type { Usage } from '../types.js';
import type { GenerateTextUsage, ProviderUsage } from './result-types.js';

function count(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    invalid('fromLanguageModelUsage', `usage.${field}`, 'must be a non-negative number');
  }
  return value;
}

/**
 * The AI SDK's usage as ctxkit's {@link Usage}, counting each token once. Both the SDK's
 * `inputTokens` (of `generateText`) and a provider's `inputTokens.total` (seen by a middleware)
 * include cached tokens, so the cache is subtracted once: `input = noCacheTokens` when the provider
 * reports it, else `inputTokens − cacheRead − cacheWrite`, where `cacheRead` is
 * `inputTokenDetails.cacheReadTokens` (or the deprecated `cachedInputTokens` when there are no
 * details, never both) and `cacheWrite` is `inputTokenDetails.cacheWriteTokens`. The prompt is then
 * `input + cacheRead + cacheWrite`, equal to the SDK's `inputTokens`.
 *
 * @param usage - `result.usage`, `step.usage`, or a provider's `LanguageModelV3Usage`.
 * @returns ctxkit's usage.
 * @throws `ContextError` `INPUT_INVALID` for a negative or non-numeric count.
 *
 * @example
 * ```ts
 * fromLanguageModelUsage({ inputTokens: 30_012, outputTokens: 80, inputTokenDetails: { noCacheTokens: 12, cacheReadTokens: 30_000, cacheWriteTokens: 0 } });
 * // { input: 12, output: 80, cacheRead: 30000, cacheWrite: 0, total: 30092 }
 * ```
 */
export function fromLanguageModelUsage(usage: GenerateTextUsage | ProviderUsage): Usage {
  expectObject(usage, 'fromLanguageModelUsage', 'usage');
  if (usage.inputTokens !== null && typeof usage.inputTokens === 'object') {
    expectObject(usage.inputTokens, 'fromLanguageModelUsage', 'usage.inputTokens');
    if (usage.outputTokens != null) expectObject(usage.outputTokens, 'fromLanguageModelUsage', 'usage.outputTokens');
  } else if ((usage as GenerateTextUsage).inputTokenDetails != null) {
    expectObject((usage as GenerateTextUsage).inputTokenDetails, 'fromLanguageModelUsage', 'usage.inputTokenDetails');
  }
  let total: number | undefined;
  let noCache: number | undefined;
  let cacheRead: number | undefined;
  let cacheWrite: number | undefined;
  let output: number | undefined;
  let reportedTotal: number | undefined;
  if (typeof usage.inputTokens === 'object' && usage.inputTokens !== null) {
    const provider = usage as ProviderUsage;
    total = count(provider.inputTokens.total, 'inputTokens.total');
    noCache = count(provider.inputTokens.noCache, 'inputTokens.noCache');
    cacheRead = count(provider.inputTokens.cacheRead, 'inputTokens.cacheRead');
    cacheWrite = count(provider.inputTokens.cacheWrite, 'inputTokens.cacheWrite');
    output = count(provider.outputTokens?.total, 'outputTokens.total');
  } else {
    const sdk = usage as GenerateTextUsage;
    const details = sdk.inputTokenDetails;
    total = count(sdk.inputTokens, 'inputTokens');
    noCache = count(details?.noCacheTokens, 'inputTokenDetails.noCacheTokens');
    cacheRead =
      count(details?.cacheReadTokens, 'inputTokenDetails.cacheReadTokens') ??
      count(sdk.cachedInputTokens, 'cachedInputTokens');
    cacheWrite = count(details?.cacheWriteTokens, 'inputTokenDetails.cacheWriteTokens');
    output = count(sdk.outputTokens, 'outputTokens');
    reportedTotal = count(sdk.totalTokens, 'totalTokens');
  }
  const input = noCache ?? Math.max(0, (total ?? 0) - (cacheRead ?? 0) - (cacheWrite ?? 0));
  const out = output ?? 0;
  if (!Number.isFinite(input + (cacheRead ?? 0) + (cacheWrite ?? 0) + out)) {
    invalid('fromLanguageModelUsage', 'usage', 'token counts must add up to a finite number');
  }
  return {
    input,
    output: out,
    ...(cacheRead === undefined ? {} : { cacheRead }),
    ...(cacheWrite === undefined ? {} : { cacheWrite }),
    total: reportedTotal ?? input + (cacheRead ?? 0) + (cacheWrite ?? 0) + out,
  };
}
