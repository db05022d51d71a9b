import { abortReason, raceAbort } from '../internal/race-abort.js';
import type { Summarizer, SummaryOutput, SummaryRequest } from '../summarizing/index.js';
import { assertOptionalObjectArgument, invalidArgument } from '../validation/assert-argument.js';

/**
 * One scripted answer of a {@link createScriptedSummarizer} summarizer:
 * - a string or `{ text, stopReason }` — returned as the summary;
 * - an `Error` — thrown (the call rejects with it);
 * - a function of the request — called, and its result (or rejection) used. A function that returns
 *   a promise which never settles models a hung model call, to be ended by the abort signal.
 *
 * @example
 * ```ts
 * const steps: ScriptStep[] = [
 *   'first summary',
 *   new Error('provider down'),
 *   { text: 'cut off', stopReason: 'length' },
 *   (request) => `summary of ${request.messages.length} messages`,
 * ];
 * ```
 */
export type ScriptStep = SummaryOutput | Error | ((request: SummaryRequest) => SummaryOutput | Promise<SummaryOutput>);

/**
 * A {@link Summarizer} that answers from a script and records what it was asked.
 *
 * @example
 * ```ts
 * const summarizer: ScriptedSummarizer = createScriptedSummarizer(['summary']);
 * await compact(messages, { summarizer });
 * expect(summarizer.requests[0]?.kind).toBe('compaction');
 * ```
 */
export interface ScriptedSummarizer extends Summarizer {
  /** Every request received, in order, including ones that were aborted or found the script empty. */
  readonly requests: SummaryRequest[];
  /** Steps not used yet. */
  readonly remaining: number;
}

/**
 * Options of {@link createScriptedSummarizer}.
 *
 * @example
 * ```ts
 * const options: CreateScriptedSummarizerOptions = { afterScript: (request) => `summary of ${request.messages.length}` };
 * ```
 */
export interface CreateScriptedSummarizerOptions {
  /**
   * The step used for every request once the script is used up, so a test that summarizes an
   * unknown number of times can record them all. @default none: a used-up script rejects
   */
  afterScript?: ScriptStep;
}

/**
 * Creates a summarizer that returns scripted outputs in order, for deterministic tests of code that
 * summarizes (compaction, tool-result summaries, overflow recovery).
 *
 * Each call records its request in `requests`, then:
 * - rejects with the signal's reason, without using a step, when `request.signal` is already aborted;
 * - when the script is used up: takes `options.afterScript` if given, else rejects with a clear
 *   error naming how many steps the script had;
 * - otherwise takes the next step (see {@link ScriptStep}); while a function step is pending, an
 *   abort rejects the call at once with the signal's reason.
 *
 * @param script - The answers, in the order they are given.
 * @param options - `afterScript`: the answer once the script is used up.
 * @returns The summarizer, with `requests` and `remaining`.
 *
 * @example
 * ```ts
 * const summarizer = createScriptedSummarizer(['## Goal\nShip it', new Error('rate limited')]);
 * await compact(messages, { summarizer }); // uses the first step
 * await expect(compact(messages, { summarizer })).rejects.toThrow(); // the second step throws
 * ```
 */
export function createScriptedSummarizer(
  script: readonly ScriptStep[],
  options: CreateScriptedSummarizerOptions = {},
): ScriptedSummarizer {
  if (!Array.isArray(script)) throw invalidArgument('createScriptedSummarizer', 'script', 'an array of steps', script);
  assertOptionalObjectArgument(options, 'createScriptedSummarizer', 'options');
  const steps = [...script];
  const requests: SummaryRequest[] = [];
  let next = 0;
  return {
    requests,
    get remaining() {
      return steps.length - next;
    },
    async summarize(request) {
      requests.push(request);
      const signal = request.signal;
      if (signal?.aborted) throw abortReason(signal);
      const after = next >= steps.length ? options.afterScript : undefined;
      if (next >= steps.length && after === undefined) {
        throw new Error(
          `Scripted summarizer: the script has ${steps.length} step(s), but request ${requests.length} (kind "${request.kind}") asked for another. Add a step to the script, or check why the code under test summarizes more often than expected.`,
        );
      }
      const step = after ?? steps[next++]!;
      if (step instanceof Error) throw step;
      if (typeof step === 'function')
        return raceAbort(
          Promise.resolve().then(() => step(request)),
          signal,
        );
      return step;
    },
  };
}
