import { fc, test } from '@fast-check/vitest';
import { afterAll, expect } from 'vitest';
import { createContextManager, type Message, referenceCounter, type Summarizer } from '../../src/index.js';
import { checkToolPairing } from '../../src/testing/index.js';
import { hostStep, stepMessages } from './host-steps.js';

/** A deterministic summarizer: the same requests give the same summaries in both managers. */
const summarizer: Summarizer = {
  summarize: async (request) =>
    request.kind === 'tool_results'
      ? `tools: ${request.messages?.length ?? 0}`
      : '## Goal\nkeep going\n## Progress\n- done: steps',
};

function createManager() {
  return createContextManager({
    summarizer,
    contextWindow: 3_000,
    counter: referenceCounter,
    config: {
      reserveTokens: 500,
      keepRecentTokens: 600,
      toolCallCutoff: 3,
      toolSummaryBatch: 2,
      toolOutput: { maxLines: 20, maxBytes: 2_000, maxChars: 2_000 },
    },
  });
}

/** One host step: what it adds to its history. A result may come before its call (`early`). */
const stepArbitrary = hostStep({
  userWords: 1_500,
  answerWords: 400,
  calls: 3,
  lines: fc.integer({ min: 1, max: 301 }),
  early: true,
});

let serial = 0;
/** What the runs went through: the property must have met both archiving and compaction. */
const seen = { compactions: 0, archives: 0, appends: 0 };
afterAll(() => {
  expect(seen.compactions).toBeGreaterThan(0);
  expect(seen.archives).toBeGreaterThan(0);
  expect(seen.appends).toBeGreaterThan(0);
});
/** How the host keeps its history between calls when it calls `prepare`. */
const hostArbitrary = fc.constantFrom(
  'own array' as const, // its own array, of the messages it wrote
  'copy of history' as const, // `[...history, ...new]`, as the README's loop does
  'push onto history' as const, // the history the manager returned, with the new messages pushed onto it
);

test.prop(
  [hostArbitrary, fc.array(fc.record({ step: stepArbitrary, append: fc.boolean() }), { minLength: 1, maxLength: 40 })],
  {
    numRuns: 80,
  },
)(
  'append(new) gives what prepare(whole history) gives, mixed with prepare, through archiving and compaction',
  async (host, steps) => {
    serial = 0;
    const reference = createManager();
    const appending = createManager();
    const whole: Message[] = [];
    let own: Message[] = [];
    let history: Message[] = [];
    // A host keeps its own array, or the history the manager returns; it calls append or prepare
    // at each step.
    for (const { step, append } of steps) {
      const added = stepMessages(step, serial++);
      whole.push(...added);
      own.push(...added);
      const expected = await reference.prepare(whole);
      let input: Message[] | undefined;
      if (!append) {
        if (host === 'own array') input = own;
        else if (host === 'copy of history') input = [...history, ...added];
        else input = history;
        if (host === 'push onto history') input.push(...added);
      }
      const before = input?.slice();
      const prepared = input === undefined ? await appending.append(added) : await appending.prepare(input);
      if (before !== undefined) expect(input).toEqual(before); // the host's array is left as it was
      // A host that keeps its own array goes on from the history once the manager compacted.
      if (prepared.compacted !== undefined) own = [...prepared.history];
      if (prepared.compacted !== undefined) seen.compactions++;
      if (prepared.history.some((message) => message.meta?.kind === 'tool_summary')) seen.archives++;
      if (append) seen.appends++;
      history = prepared.history;
      expect(prepared.compacted === undefined).toBe(expected.compacted === undefined);
      expect(prepared.messages).toEqual(expected.messages);
      expect(prepared.history).toEqual(expected.history);
      expect(prepared.usage).toEqual(expected.usage);
      checkToolPairing(prepared.messages);
    }
  },
);
