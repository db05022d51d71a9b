// Property (issue 22): for generated sessions in which tests fail and pass again, type errors come
// and go and TODOs are opened and done, compacted after every round, the checkpoint lists only the
// current state: what still fails, still errs, is still open and is still found by grep, and nothing
// that was resolved.
import { fc, test } from '@fast-check/vitest';
import { compact, heuristicSummarizer, type Message, type Summarizer } from 'ctxkit';
import { assistantMessage, userMessage } from 'ctxkit/testing';
import { expect } from 'vitest';
import { commandRun } from '../helpers/tool-runs.js';

const TESTS = [
  'rounds-half-up',
  'keeps-whole-numbers',
  'parses-empty-header',
  'refills-bucket',
  'formats-retry-after',
  'rejects-negative-deposit',
];
const ERRORS = [
  { code: 'TS2322', location: 'src/quota.ts:2:9' },
  { code: 'TS2339', location: 'src/clock.ts:3:36' },
  { code: 'TS2551', location: 'src/server.ts:6:15' },
  { code: 'TS2307', location: 'src/server.ts:2:25' },
  { code: 'TS7006', location: 'src/ledger.ts:5:48' },
];
const SUBJECTS = ['alpha', 'bravo', 'charlie', 'delta'];
/** Places a `grep -rn TODO src` finds (none the start of another). */
const MATCHES = ['src/quota.ts:14', 'src/clock.ts:27', 'src/server.ts:33', 'src/ledger.ts:41'];

/** A scripted model that paraphrases: it keeps no test name, code, path or item of its own. */
const paraphrasing: Summarizer = {
  async summarize() {
    return 'The assistant kept working on the limiter: some checks still fail, some were fixed.';
  },
};

const round = fc.record({
  failing: fc.subarray(TESTS),
  errors: fc.subarray(ERRORS),
  opened: fc.subarray(SUBJECTS, { maxLength: 2 }),
  done: fc.subarray(SUBJECTS, { maxLength: 2 }),
  matches: fc.subarray(MATCHES, { minLength: 1 }),
});

function tapRun(failing: readonly string[]): string {
  const lines = TESTS.map((name, index) =>
    failing.includes(name)
      ? `not ok ${index + 1} - ${name}\n  ---\n  error: |-\n    Expected values to be strictly equal\n  code: 'ERR_ASSERTION'\n  ...`
      : `ok ${index + 1} - ${name}\n  ---\n  duration_ms: 0.2\n  ...`,
  );
  return `TAP version 13\n${lines.join('\n')}\n1..${TESTS.length}\n# tests ${TESTS.length}\n# pass ${TESTS.length - failing.length}\n# fail ${failing.length}`;
}

function tscRun(errors: readonly { code: string; location: string }[]): string {
  return errors
    .map(({ code, location }) => {
      const [path, line, column] = location.split(':');
      return `${path}(${line},${column}): error ${code}: Something does not fit here.`;
    })
    .join('\n');
}

function grepRun(matches: readonly string[]): string {
  return matches.map((place) => `${place}:  // TODO: handle the ${place.split('/')[1]!.split('.')[0]} case`).join('\n');
}

function run(id: string, command: string, output: string, failed: boolean): Message[] {
  return commandRun(id, command, output, { exitCode: failed ? 1 : 0 });
}

test.prop(
  [
    fc.array(round, { minLength: 2, maxLength: 4 }),
    fc.constantFrom('heuristic', 'paraphrasing'),
    fc.constantFrom(400, 2_000),
  ],
  {
    numRuns: 40,
  },
)('the checkpoint lists only the current state of tests, errors and TODOs', async (rounds, which, budget) => {
  const summarizer = which === 'heuristic' ? heuristicSummarizer : paraphrasing;
  let messages: Message[] = [userMessage('Make the limiter build and its tests pass.')];
  const open = new Set<string>();
  let summary = '';
  let last = rounds[0]!;
  for (const [index, state] of rounds.entries()) {
    // Reading the design notes gives every round enough to compact.
    messages.push(
      ...run(
        `r${index}`,
        `cat docs/notes-${index}.md`,
        'The limiter refills its bucket once a second. '.repeat(50),
        false,
      ),
    );
    messages.push(...run(`t${index}`, 'node --test', tapRun(state.failing), state.failing.length > 0));
    messages.push(...run(`c${index}`, 'npx tsc --noEmit', tscRun(state.errors), state.errors.length > 0));
    messages.push(...run(`g${index}`, 'grep -rn TODO src', grepRun(state.matches), false));
    for (const subject of state.opened) {
      messages.push(assistantMessage(`TODO: add a test for the ${subject} header.`));
      open.add(subject);
    }
    for (const subject of state.done) {
      if (!open.has(subject)) continue;
      messages.push(assistantMessage(`Added a test for the ${subject} header; it passes.`));
      open.delete(subject);
    }
    messages.push(userMessage(`Round ${index + 1} is over; carry on.`));
    const result = await compact(messages, {
      summarizer,
      config: { keepRecent: 1, keepRecentTokens: 0 },
      maxOutputTokens: budget,
    });
    messages = result.messages;
    summary = result.summary;
    last = state;
  }
  for (const name of TESTS) {
    if (last.failing.includes(name)) expect(summary, `${name} still fails`).toContain(name);
    else expect(summary, `${name} passes now`).not.toContain(name);
  }
  for (const { code, location } of ERRORS) {
    if (last.errors.some((error) => error.location === location)) {
      expect(summary).toContain(code);
      expect(summary).toContain(location);
    } else expect(summary, `${location} is fixed`).not.toContain(location);
  }
  for (const place of MATCHES) {
    if (last.matches.includes(place)) expect(summary, `grep still finds ${place}`).toContain(place);
    else expect(summary, `grep no longer finds ${place}`).not.toContain(place);
  }
  for (const subject of SUBJECTS) {
    const todo = new RegExp(`TODO[^\\n]*${subject}`);
    if (open.has(subject)) expect(summary).toMatch(todo);
    else expect(summary, `the ${subject} TODO is done or never opened`).not.toMatch(todo);
  }
});
