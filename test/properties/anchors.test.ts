import { fc, test } from '@fast-check/vitest';
import { heuristicSummarizer, type Message } from 'ctxkit';
import { type Anchor, checkAnchors, extractAnchors, pinAnchors } from 'ctxkit/summarizing';
import { assistantMessage, toolCallMessage, toolResultMessage, userMessage } from 'ctxkit/testing';
import { describe, expect, it } from 'vitest';
import { normalizeForCheck } from '../../src/summarizing/anchors/normalize.js';
import { type DeclaredFact, fidelitySessions } from '../fixtures/fidelity-sessions.js';

/** A declared fact is found when an anchor of its category (a changed file counts as read) holds every key. */
function isFound(fact: DeclaredFact, anchors: readonly Anchor[]): boolean {
  return anchors.some(
    (anchor) =>
      (anchor.category === fact.category || (fact.category === 'file-read' && anchor.category === 'file-changed')) &&
      fact.keys.every((key) => normalizeForCheck(anchor.text).includes(normalizeForCheck(key))),
  );
}

const word = fc.constantFrom(
  'cache',
  'router',
  'ledger',
  'parser',
  'queue',
  'token',
  'session',
  'billing',
  'report',
  'upload',
);
const verb = fc.constantFrom('Add', 'Fix', 'Refactor', 'Document', 'Speed up', 'Harden');
const identifier = fc
  .tuple(word, word)
  .map(([left, right]) => `${left}${right[0]!.toUpperCase()}${right.slice(1)}Limit`);
const path = fc
  .tuple(word, word, fc.constantFrom('ts', 'py', 'rs', 'go'))
  .map(([folder, name, ext]) => `src/${folder}/${name}.${ext}`);

type Step =
  | { kind: 'read'; path: string }
  | { kind: 'edit'; path: string; ok: boolean }
  | { kind: 'tsc'; errors: { path: string; line: number; code: number }[] }
  | { kind: 'tap'; tests: string[] }
  | { kind: 'decision'; subject: string };

const step: fc.Arbitrary<Step> = fc.oneof(
  path.map((value) => ({ kind: 'read' as const, path: value })),
  fc.record({ kind: fc.constant('edit' as const), path, ok: fc.boolean() }),
  fc.record({
    kind: fc.constant('tsc' as const),
    errors: fc.array(
      fc.record({ path, line: fc.integer({ min: 1, max: 999 }), code: fc.integer({ min: 1000, max: 9999 }) }),
      {
        minLength: 1,
        maxLength: 20,
      },
    ),
  }),
  fc.record({
    kind: fc.constant('tap' as const),
    tests: fc.uniqueArray(
      fc.tuple(word, word).map(([left, right]) => `${left} handles ${right}`),
      { minLength: 1, maxLength: 12 },
    ),
  }),
  fc.record({ kind: fc.constant('decision' as const), subject: fc.tuple(word, word).map((pair) => pair.join(' ')) }),
);

/** A session and the facts it states. */
const sessions = fc
  .record({ verb, subject: word, constraintOn: identifier, steps: fc.array(step, { maxLength: 12 }) })
  .map(({ verb: action, subject, constraintOn, steps }) => {
    const messages: Message[] = [];
    const facts: DeclaredFact[] = [];
    const goal = `${action} the ${subject} module so it handles retries.`;
    messages.push(userMessage(`${goal} Never change ${constraintOn} without asking.`));
    facts.push({ category: 'goal', keys: [goal.slice(0, -1)] });
    facts.push({ category: 'constraint', keys: [`Never change ${constraintOn} without asking`] });
    facts.push({ category: 'identifier', keys: [constraintOn] });
    const changed = new Set<string>();
    const supersede = (category: DeclaredFact['category']) => {
      for (let index = facts.length - 1; index >= 0; index--)
        if (facts[index]!.category === category) facts.splice(index, 1);
    };
    steps.forEach((entry, index) => {
      const id = `call_${index}`;
      const push = (name: string, args: Record<string, unknown>, output: string, isError = false) => {
        messages.push(
          toolCallMessage([{ id, name, arguments: args }]),
          toolResultMessage(id, output, { toolName: name, isError }),
        );
      };
      if (entry.kind === 'read') {
        push('read', { path: entry.path }, 'contents');
        facts.push({ category: 'file-read', keys: [entry.path] });
      } else if (entry.kind === 'edit') {
        push(
          'edit',
          { path: entry.path, old_string: 'a', new_string: 'b' },
          entry.ok ? 'Edited.' : 'old_string not found',
          !entry.ok,
        );
        if (entry.ok) changed.add(entry.path);
        facts.push({
          category: entry.ok || changed.has(entry.path) ? 'file-changed' : 'file-read',
          keys: [entry.path],
        });
      } else if (entry.kind === 'tsc') {
        const lines = entry.errors.map(
          (error) => `${error.path}(${error.line},5): error TS${error.code}: Something is wrong here.`,
        );
        push('bash', { command: 'npx tsc --noEmit' }, `${lines.join('\n')}\n\nexit code 2`, true);
        // Each run states the command's errors afresh: an earlier run's are resolved.
        supersede('error');
        for (const error of entry.errors)
          facts.push({ category: 'error', keys: [`TS${error.code}`, `${error.path}:${error.line}:5`] });
        facts.push({ category: 'command', keys: ['npx tsc --noEmit'] });
      } else if (entry.kind === 'tap') {
        const body = entry.tests.map((name, number) => `not ok ${number + 1} - ${name}\n  ---\n  error: 'nope'\n  ...`);
        push(
          'bash',
          { command: 'node --test' },
          `TAP version 13\n${body.join('\n')}\n# fail ${entry.tests.length}\n\nexit code 1`,
          true,
        );
        supersede('failing-test');
        for (const name of entry.tests) facts.push({ category: 'failing-test', keys: [name] });
      } else {
        messages.push(assistantMessage(`We decided to rewrite the ${entry.subject} layer.`));
        facts.push({ category: 'decision', keys: [`decided to rewrite the ${entry.subject} layer`] });
      }
    });
    return { messages, facts, changed };
  });

describe('anchor extraction', () => {
  test.prop([sessions])('finds every declared fact', ({ messages, facts }) => {
    const anchors = extractAnchors(messages);
    for (const fact of facts) expect(isFound(fact, anchors), JSON.stringify(fact)).toBe(true);
  });

  test.prop([sessions])('never lists as changed a file no write or edit changed', ({ messages, changed }) => {
    for (const anchor of extractAnchors(messages)) {
      if (anchor.category === 'file-changed') expect(changed.has(anchor.keys[0]!)).toBe(true);
    }
  });

  test.prop([sessions])(
    'a heuristic checkpoint never lists as modified a file no write or edit changed',
    async ({ messages, changed }) => {
      const answer = await heuristicSummarizer.summarize({
        kind: 'compaction',
        messages,
        text: '',
        maxOutputTokens: 4_000,
      });
      const text = typeof answer === 'string' ? answer : answer.text;
      for (const match of text.matchAll(/(\S+) \(modified\)/g)) expect(changed.has(match[1]!)).toBe(true);
    },
  );

  it('finds every declared fact of the benchmark sessions', () => {
    for (const session of fidelitySessions()) {
      const anchors = extractAnchors(session.rounds.flatMap((round) => round.messages));
      for (const fact of session.rounds.flatMap((round) => round.facts))
        expect(isFound(fact, anchors), `${session.name}: ${JSON.stringify(fact)}`).toBe(true);
    }
  });
});

describe('pinning', () => {
  const summaries = fc.oneof(
    fc.string({ maxLength: 400 }),
    fc.string({ unit: 'grapheme', maxLength: 300 }),
    fc.constant(''),
  );

  test.prop([sessions, summaries, fc.integer({ min: 0, max: 6000 })])(
    'never exceeds the summary budget, keeps the required facts whenever they fit, and is idempotent',
    ({ messages }, summary, maxChars) => {
      const anchors = extractAnchors(messages);
      const result = pinAnchors(summary, anchors, { maxChars });
      expect([...result.text].length).toBeLessThanOrEqual(maxChars);
      const required = anchors.filter((anchor) => anchor.required);
      const requiredSize =
        [...required.map((anchor) => `- ${anchor.category}!: ${anchor.keys.join(' ')}`).join('\n')].length + 20;
      if (maxChars >= requiredSize) expect(checkAnchors(result.text, required).lost).toEqual([]);
      expect(checkAnchors(result.text, anchors).lost).toEqual(result.lost);
    },
  );
});
