// The arrays a host holds between calls, driven at random: the history it received (pushed onto,
// edited, handed back), its own arrays, copies, `append`, older arrays it goes back to, manual
// compactions, overflow recovery, aborted calls and stats. Oracle: a second manager fed the same
// history, always as a fresh copy; and no array the host owns is ever written by the manager.
import { fc, test } from '@fast-check/vitest';
import { afterAll, expect } from 'vitest';
import {
  type CompactionResult,
  createContextManager,
  type Message,
  type PrepareResult,
  prepareModelMessages,
  referenceCounter,
  type Summarizer,
} from '../../src/index.js';
import { checkToolPairing, userMessage } from '../../src/testing/index.js';
import { hostStep, stepMessages } from './host-steps.js';

/** A deterministic summarizer that counts its calls, and rejects as aborted once when told to. */
function countingSummarizer() {
  const state = { calls: 0, abort: undefined as AbortController | undefined };
  const summarizer: Summarizer = {
    summarize: async (request) => {
      state.calls++;
      if (state.abort !== undefined) {
        state.abort.abort();
        throw request.signal?.reason ?? new Error('aborted');
      }
      return request.kind === 'tool_results' ? `tools: ${request.messages?.length ?? 0}` : '## Goal\ngo on';
    },
  };
  return { summarizer, state };
}

function createManager(events: string[]) {
  const { summarizer, state } = countingSummarizer();
  const manager = createContextManager({
    summarizer,
    contextWindow: 1_500,
    counter: referenceCounter,
    onEvent: (event) => events.push(event.type),
    config: {
      reserveTokens: 300,
      keepRecentTokens: 300,
      toolCallCutoff: 2,
      toolSummaryBatch: 1,
      toolOutput: { maxLines: 12, maxBytes: 600, maxChars: 600 },
    },
  });
  return { manager, state, events };
}
type Managed = ReturnType<typeof createManager>;

const step = hostStep({
  userWords: 600,
  answerWords: 200,
  calls: 2,
  // Lines of output: most fit, some are cut.
  lines: fc.oneof({ weight: 3, arbitrary: fc.nat({ max: 10 }) }, fc.nat({ max: 900 })),
});
const via = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom('prepare' as const, 'afterTurn' as const) },
  { weight: 1, arbitrary: fc.constant('recover' as const) },
  { weight: 2, arbitrary: fc.constant('abort' as const) },
);
const operation = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('pushReturned' as const), step, via }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('copyReturned' as const), step, via }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('pushOwn' as const), step, via }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('append' as const), step, pushOntoReturned: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('back' as const), pick: fc.nat(), step, via }) },
  // The array it passed last (its own, a copy it made, the history it received), pushed onto again.
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('pushLast' as const), step, via }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('edit' as const),
      pick: fc.nat(),
      at: fc.nat(),
      remove: fc.boolean(),
      via,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('compact' as const), pick: fc.nat(), adopt: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('stats' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('record' as const) }) },
);

type Operation = typeof operation extends fc.Arbitrary<infer T> ? T : never;

/**
 * Runs that once failed, kept so they are checked on every run whatever the random seed.
 * - seed -2120951001: after an overflow recovery, an `append` pushed onto the compacted history
 *   kept that history as a way in while a `prepare` of the host's own array dropped it, so going
 *   back to the compacted array continued it on one path and started over on the other (the tool
 *   summary then came before the answer on one and after it on the other).
 */
const regressions: [Operation[]][] = [
  [
    [
      { kind: 'pushOwn', step: { kind: 'answer', size: 27 }, via: 'prepare' },
      { kind: 'copyReturned', step: { kind: 'tool', calls: 1, lines: 5, early: false }, via: 'prepare' },
      { kind: 'pushReturned', step: { kind: 'tool', calls: 1, lines: 6, early: false }, via: 'recover' },
      { kind: 'append', step: { kind: 'tool', calls: 2, lines: 0, early: false }, pushOntoReturned: true },
      { kind: 'back', pick: 716547448, step: { kind: 'answer', size: 1 }, via: 'prepare' },
    ],
  ],
];

let serial = 0;
const seen = { compactions: 0, archives: 0, cuts: 0, aborts: 0, recoveries: 0, sharedHistory: 0 };
afterAll(() => {
  for (const [what, count] of Object.entries(seen)) expect(count, what).toBeGreaterThan(0);
});

const overflow = () => Object.assign(new Error('prompt is too long: 9000 tokens > 4000 maximum'), { status: 400 });

/** One whole-array call on a manager; `undefined` when it was aborted. */
async function call(
  { manager, state }: Managed,
  input: Message[],
  how: 'prepare' | 'afterTurn' | 'recover' | 'abort',
): Promise<{ history: Message[]; messages?: Message[]; result?: PrepareResult } | undefined> {
  if (how === 'recover') {
    let calls = 0;
    const outcome = await manager
      .runWithOverflowRecovery(input, async (messages) => {
        if (calls++ === 0) throw overflow();
        return messages;
      })
      .catch(() => undefined); // nothing to compact: unrecovered
    if (outcome === undefined) return undefined;
    if (outcome.recovered) seen.recoveries++;
    return { history: outcome.history, messages: outcome.result };
  }
  if (how === 'abort') {
    state.abort = new AbortController();
    const result = await manager.prepare(input, { signal: state.abort.signal }).catch(() => undefined);
    state.abort = undefined;
    return result;
  }
  const result = await (how === 'prepare' ? manager.prepare(input) : manager.afterTurn(input));
  return { history: result.history, messages: result.messages, result };
}

test.prop([fc.array(operation, { minLength: 1, maxLength: 40 })], { numRuns: 400, examples: regressions })(
  'whatever arrays a host passes, pushes onto, edits or goes back to, the manager answers as for a fresh copy of the same history and never writes an array the host owns',
  async (operations) => {
    serial = 0;
    const subject = createManager([]);
    const reference = createManager([]);
    /** The host's arrays: its own, the copies it made, and the histories it pushed onto or edited. */
    const owned: Message[][] = [];
    const own: Message[] = [];
    let returned: Message[] = [];
    /** The host's history as the reference receives it: what the host passed last, or appended to. */
    let logical: Message[] = [];
    /** The array the host passed last. */
    let last: Message[] = own;
    owned.push(own);
    /** The reference's own copy of each message the subject made (a cut output, a summary), to pass it its own. */
    const theirs = new Map<Message, Message>();
    const translate = (array: readonly Message[]) => array.map((message) => theirs.get(message) ?? message);
    const pair = (got: readonly Message[], expected: readonly Message[]) => {
      got.forEach((message, index) => {
        if (message !== expected[index]) theirs.set(message, expected[index]!);
      });
    };
    const check = async (input: Message[] | undefined, added: Message[], how: Parameters<typeof call>[2]) => {
      const snapshots = owned.map((array) => array.slice());
      let got: Awaited<ReturnType<typeof call>>;
      let expected: Awaited<ReturnType<typeof call>>;
      if (input === undefined) {
        got = await subject.manager.append(added);
        expected = await reference.manager.prepare(translate([...logical, ...added]));
        logical = [...logical, ...added];
      } else {
        got = await call(subject, input, how);
        expected = await call(reference, translate(input), how);
        if (how === 'abort' || how === 'recover') {
          expect(got === undefined).toBe(expected === undefined);
          if (got === undefined && how === 'abort') seen.aborts++;
          if (got === undefined) got = await call(subject, input, 'prepare');
          if (expected === undefined) expected = await call(reference, translate(input), 'prepare');
        }
        logical = input.slice();
        last = input;
      }
      owned.forEach((array, index) => {
        const before = snapshots[index]!;
        expect(array.length, 'an array the host owns').toBe(before.length);
        expect(
          array.every((message, at) => message === before[at]),
          'an array the host owns',
        ).toBe(true);
      });
      if (got === undefined || expected === undefined) throw new Error('only the aborted attempt may fail');
      expect(got.history).toEqual(expected.history);
      pair(got.history, expected.history);
      expect(got.messages).toEqual(expected.messages);
      expect(got.result?.usage).toEqual(expected.result?.usage);
      expect(got.result?.compacted === undefined).toBe(expected.result?.compacted === undefined);
      expect(subject.state.calls, 'summarizer calls').toBe(reference.state.calls);
      expect(subject.events).toEqual(reference.events);
      if (got.result !== undefined) {
        expect(got.result.messages).toEqual(prepareModelMessages(got.history));
        expect(checkToolPairing(got.result.messages, { allowPendingTail: true })).toEqual([]);
        if (got.result.compacted !== undefined) seen.compactions++;
      }
      if (got.history === input) seen.sharedHistory++;
      if (got.history.some((message) => message.meta?.kind === 'tool_summary')) seen.archives++;
      returned = got.history;
    };
    const pick = (index: number) => [...owned, returned][index % (owned.length + 1)]!;
    const adopt = (array: Message[]) => {
      if (!owned.includes(array)) owned.push(array);
      return array;
    };
    for (const item of operations) {
      if (item.kind === 'record') {
        const usage = { input: 1_000 + serial, output: 20 };
        subject.manager.recordUsage(usage);
        reference.manager.recordUsage(usage);
      } else if (item.kind === 'stats') {
        const array = pick(item.pick);
        const [got, expected] = [subject.manager.stats(array), reference.manager.stats(translate(array))];
        expect({ ...got, oldestMessageAge: 0 }).toEqual({ ...expected, oldestMessageAge: 0 });
      } else if (item.kind === 'compact') {
        const array = pick(item.pick);
        const snapshot = array.slice();
        const got = await subject.manager.compact(array).catch((error: unknown) => error);
        const expected = await reference.manager.compact(translate(array)).catch((error: unknown) => error);
        expect(array).toEqual(snapshot);
        expect(got).toEqual(expected);
        if (!(got instanceof Error)) pair((got as CompactionResult).messages, (expected as CompactionResult).messages);
        if (!(got instanceof Error)) logical = array.slice(); // the host goes on from what it passed
        if (item.adopt && !(got instanceof Error)) returned = (got as CompactionResult).messages;
      } else if (item.kind === 'append') {
        const added = stepMessages(item.step, serial++);
        if (item.pushOntoReturned) adopt(returned).push(...added);
        await check(undefined, added, 'prepare');
      } else if (item.kind === 'edit') {
        const array = pick(item.pick);
        if (array.length === 0) continue;
        adopt(array);
        if (item.remove) array.splice(item.at % array.length, 1);
        else array[item.at % array.length] = userMessage(`edited ${serial++}`);
        await check(array, [], item.via);
      } else {
        const added = stepMessages(item.step, serial++);
        if (added.some((message) => message.role === 'toolResult' && JSON.stringify(message).length > 700)) seen.cuts++;
        let input: Message[];
        if (item.kind === 'pushReturned') input = adopt(returned);
        else if (item.kind === 'copyReturned') input = adopt([...returned]);
        else if (item.kind === 'pushOwn') input = own;
        else if (item.kind === 'pushLast') input = last;
        else input = pick(item.pick);
        adopt(input).push(...added);
        await check(input, added, item.via);
      }
    }
  },
);
