import { countExtras } from '../counting/estimate-context-tokens.js';
import { estimateMessageTokens } from '../counting/estimate-message-tokens.js';
import { isAgentVisible } from '../counting/is-agent-visible.js';
import { CompactionError } from '../errors.js';
import { describeError } from '../internal/describe-error.js';
import type { CompactionResult } from '../pipeline/compact.js';
import { prepareModelMessages } from '../pipeline/prepare-model-messages.js';
import type { Message } from '../types.js';
import { chooseRecoveryLevel } from './compaction-levels.js';
import type { CallOptions, OverflowRecoveryResult, PrepareResult } from './context-manager-types.js';
import type { CompactionRungReport } from './events.js';
import { isAbort, isOverflowReply, shrinkFactor } from './internal/overflow-reply.js';
import type { ManagedHistory } from './managed-history.js';
import type { ManagerCompaction, PendingCompaction } from './manager-compaction.js';
import type { RecordedUsage } from './recorded-usage.js';
import { applyRung, CUTTING_RUNGS, requestTokens } from './recovery-ladder.js';

/** What {@link recoverFromOverflow} needs from the manager. @internal */
interface OverflowRecoveryParts {
  prepare: (input: readonly Message[], callOptions: CallOptions) => Promise<PrepareResult>;
  compaction: ManagerCompaction;
  state: ManagedHistory;
  reported: RecordedUsage;
  isOverflow: (value: unknown) => boolean;
  /** The host's turn (each user message starts one) and the last turn that recovered. */
  turns: { current: number; recovered: number };
}

/**
 * `runWithOverflowRecovery`: prepares, calls the provider, and on an overflow climbs the recovery
 * ladder (see {@link climbLadder}) and calls it once more; the result is adopted only when the
 * retry succeeds. Once per turn.
 *
 * @internal
 */
export async function recoverFromOverflow<T>(
  parts: OverflowRecoveryParts,
  input: readonly Message[],
  call: (messages: Message[]) => Promise<T>,
  callOptions: CallOptions,
): Promise<OverflowRecoveryResult<T>> {
  const { compaction, isOverflow, turns } = parts;
  const prepared = await parts.prepare(input, callOptions);
  let firstError: unknown;
  try {
    const result = await call(prepared.messages);
    if (!isOverflowReply(result, isOverflow)) return { result, history: prepared.history, recovered: false };
    firstError = result;
  } catch (error) {
    if (!isOverflow(error)) throw error;
    firstError = error;
  }
  if (turns.recovered === turns.current) {
    throw new CompactionError({
      message:
        'The provider rejected the request as too long, and this turn already recovered from an overflow once; recovery is attempted once per turn. The history is unchanged; shorten the kept tail or the tool output.',
      code: 'OVERFLOW_UNRECOVERED',
      cause: firstError,
    });
  }
  const recoveredBefore = turns.recovered;
  turns.recovered = turns.current;
  const pending = await climbLadder(compaction, prepared, firstError, callOptions);
  let result: T;
  try {
    result = await call(prepareModelMessages(pending.messages));
    if (isOverflowReply(result, isOverflow)) throw result;
  } catch (error) {
    // The recovery did not help: it is dropped, and neither the manager nor the store takes it.
    compaction.drop(pending, error);
    if (!isOverflow(error)) {
      // The retry failed for another reason (a 500, a 429, an abort): the recovery was dropped, so
      // it does not use up the turn's one recovery. A host or SDK that retries the call (the AI
      // SDK retries around its middleware) meets the same overflow and may recover again, instead
      // of being refused as a second overflow in the turn.
      turns.recovered = recoveredBefore;
      throw error;
    }
    throw new CompactionError({
      message: `The request overflowed the context window again after recovery (${describeRungs(pending.rungs)}); recovery is attempted once per turn. The history is unchanged; reduce the kept tail or the system prompt.`,
      code: 'OVERFLOW_UNRECOVERED',
      cause: { first: firstError, second: error },
    });
  }
  await compaction.adopt(pending);
  parts.reported.prepared(parts.state.projection);
  return { result, history: parts.state.history, recovered: true };
}

/**
 * The recovery ladder. The request that overflowed is made smaller rung by rung, each rung on top
 * of the ones before, until it fits a target by the counter: at most the token limit, and at least
 * a quarter smaller than the request that overflowed (more when the provider's error says by how
 * much it was over). The rungs: summarize what is older than the kept tail (one summarizer call;
 * skipped when nothing is older, or when it fails or would not shrink the context), drop the
 * thinking of all but the newest assistant turn, cut the kept tool results to 8 KiB, to 2 KiB, and
 * replace them by a one-line stub that says how to get the output again. It stops at the first rung
 * whose request fits the target; a request that no rung brings under the target is sent as the last
 * rung left it when it is within the limit (the provider's count of it is then beyond the counter's
 * reach; a second overflow ends the turn).
 *
 * Throws `OVERFLOW_UNRECOVERED` (before any summarizer call) when even the smallest request — the
 * system prompt, the tool definitions and the newest message — is over the limit, saying which part
 * is too large and by how much; and when the last rung still leaves the request over the limit. A
 * failure is reported through `compaction-end` (with the rungs climbed); the history is unchanged.
 * An abort is rethrown as it is.
 *
 * @internal
 */
async function climbLadder(
  compaction: ManagerCompaction,
  prepared: PrepareResult,
  firstError: unknown,
  callOptions: CallOptions,
): Promise<PendingCompaction> {
  const { counter, options, config, levels, summaryRoom, calibration } = compaction.parts;
  // Cached per message object: the rungs count the same kept messages again and again.
  const count = (message: Message) => estimateMessageTokens(message, counter);
  const extras = countExtras(options, counter);
  const limit = compaction.parts.limit ?? config.contextWindow ?? Number.POSITIVE_INFINITY;
  const history = prepared.history;
  let tokens = extras;
  for (const message of prepared.messages) tokens += count(message);
  // The ladder counts with the counter: the limit as the counter would see it, by the calibration.
  const target = Math.min(Math.floor(limit / calibration.ratio), Math.floor(tokens * shrinkFactor(firstError)));
  checkSmallestRequest(history, { counter, count, options, limit, cause: firstError });

  const started = compaction.begin(history, 'overflow');
  const rungs: CompactionRungReport[] = [];
  const fail = (error: unknown): never => {
    compaction.drop({ ...started, rungs, result: undefined, messages: history }, error);
    throw error;
  };
  let current: readonly Message[] = history;
  let result: CompactionResult | undefined;
  let summaryError: unknown;
  let summarizerError: unknown;
  const choice = chooseRecoveryLevel(history, levels, { counter, count, target, extras, summaryRoom });
  if (choice.summarize) {
    try {
      const summarized = await compaction.summarize(
        history,
        { ...choice, target: calibration.scale(target) },
        callOptions,
      );
      ({ result, summarizerError } = summarized);
      const after = requestTokens(result.messages, count, extras);
      rungs.push({ rung: 'summarize', tokensBefore: tokens, tokensAfter: after });
      current = result.messages;
      tokens = after;
    } catch (error) {
      if (isAbort(error)) fail(error);
      // A summary that failed or would not shrink the context: the cutting rungs may still do.
      summaryError = error;
    }
  }
  const original = current;
  for (const rung of CUTTING_RUNGS) {
    if (tokens <= target) break;
    const next = applyRung(rung, current, original);
    if (next === current) continue;
    const after = requestTokens(next, count, extras);
    rungs.push({ rung, tokensBefore: tokens, tokensAfter: after });
    current = next;
    tokens = after;
  }
  if (tokens > limit) {
    const failed = summaryError === undefined ? '' : `; the summary failed (${describeError(summaryError)})`;
    fail(
      new CompactionError({
        message: `The provider rejected the request as too long, and recovery could not bring it within the limit: after every rung (${describeRungs(rungs)}) it is still ${tokens} tokens, ${tokens - limit} over the limit of ${limit}${failed}. The history is unchanged; shorten the kept tail, the tool output or the system prompt.`,
        code: 'OVERFLOW_UNRECOVERED',
        cause: summaryError ?? firstError,
      }),
    );
  }
  return {
    ...started,
    rungs,
    result,
    messages: current,
    ...(summarizerError === undefined ? {} : { summarizerError }),
  };
}

/**
 * Throws `OVERFLOW_UNRECOVERED` when the smallest request recovery could send — the system prompt,
 * the tool definitions and the newest message (a tool step's newest message is its calls, with
 * one-line results) — is over the limit, naming the largest part and by how much it is over.
 */
function checkSmallestRequest(
  history: readonly Message[],
  context: {
    counter: ManagerCompaction['parts']['counter'];
    count: (message: Message) => number;
    options: ManagerCompaction['parts']['options'];
    limit: number;
    cause: unknown;
  },
): void {
  const { counter, count, options, limit } = context;
  let newest = history.length - 1;
  while (newest >= 0 && !isAgentVisible(history[newest]!)) newest--;
  // The newest message and, for tool results, the turn that called them, at their smallest.
  let from = newest;
  while (from > 0 && history[from]!.role === 'toolResult') from--;
  const kept = history.slice(Math.max(from, 0), newest + 1);
  let smallest: readonly Message[] = kept;
  for (const rung of CUTTING_RUNGS) smallest = applyRung(rung, smallest, kept);
  const parts = [
    { name: 'the system prompt', tokens: countExtras({ systemPrompt: options.systemPrompt }, counter) },
    { name: 'the tool definitions', tokens: countExtras({ tools: options.tools }, counter) },
    { name: 'the newest message', tokens: requestTokens(smallest, count, 0) },
  ];
  const total = parts.reduce((sum, part) => sum + part.tokens, 0);
  if (total <= limit) return;
  const largest = parts.reduce((a, b) => (b.tokens > a.tokens ? b : a));
  const listed = parts.map((part) => `${part.name} ${part.tokens}`).join(', ');
  throw new CompactionError({
    message: `The provider rejected the request as too long, and even the smallest request cannot fit: ${listed} tokens make ${total}, ${total - limit} over the limit of ${limit}. ${largest.name[0]!.toUpperCase()}${largest.name.slice(1)} is the largest part (${largest.tokens} tokens); shorten it. The history is unchanged.`,
    code: 'OVERFLOW_UNRECOVERED',
    cause: context.cause,
  });
}

function describeRungs(rungs: readonly CompactionRungReport[] | undefined): string {
  if (rungs === undefined || rungs.length === 0) return 'no rung';
  return rungs.map((rung) => `${rung.rung} ${rung.tokensBefore} → ${rung.tokensAfter}`).join(', ');
}
