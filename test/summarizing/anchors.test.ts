import { readFileSync } from 'node:fs';
import type { Message } from 'ctxkit';
import { type Anchor, checkAnchors, extractAnchors, PINNED_HEADING, pinAnchors } from 'ctxkit/summarizing';
import { describe, expect, it } from 'vitest';
import { toolRun } from '../helpers/tool-runs.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/tool-outputs/${name}`, import.meta.url), 'utf8');

const session: Message[] = [
  {
    role: 'user',
    content:
      'Add rate limiting to the public API so one client cannot exceed 120 requests per minute. Do not add new dependencies. The limit must be configurable through RATE_LIMIT_MAX.',
  },
  ...toolRun('c1', 'read', { path: 'src/server.ts' }, 'import express from "express";'),
  ...toolRun('c2', 'edit', { path: 'src/server.ts', old_string: 'a', new_string: 'b' }, 'Edited.'),
  ...toolRun(
    'c3',
    'edit',
    { file_path: 'src/routes.ts', old_string: 'x', new_string: 'y' },
    'old_string not found',
    true,
  ),
  ...toolRun('c4', 'bash', { command: 'npx tsc --noEmit' }, `${fixture('tsc.txt')}\nexit code 2`),
  {
    role: 'assistant',
    content: [
      {
        type: 'text',
        text: 'We decided to use a sliding window instead of a fixed bucket. TODO: test the reset header.',
      },
    ],
  },
  ...toolRun('c5', 'bash', { command: 'node --test' }, `${fixture('node-test-tap.txt')}\nexit code 1`),
];

const keysOf = (anchors: readonly Anchor[], category: Anchor['category']) =>
  anchors.filter((anchor) => anchor.category === category).map((anchor) => anchor.keys.join(' '));

describe('extractAnchors', () => {
  const anchors = extractAnchors(session);

  it("keeps the user's goal and constraints in their own words, as required anchors", () => {
    const goal = anchors.find((anchor) => anchor.category === 'goal')!;
    expect(goal.required).toBe(true);
    expect(goal.text.startsWith('Add rate limiting to the public API')).toBe(true);
    expect(keysOf(anchors, 'constraint')).toEqual([
      'Do not add new dependencies.',
      'The limit must be configurable through RATE_LIMIT_MAX.',
    ]);
    expect(anchors.filter((anchor) => anchor.category === 'constraint').every((anchor) => anchor.required)).toBe(true);
  });

  it('takes identifiers and numbers from what the user wrote', () => {
    expect(keysOf(anchors, 'identifier')).toEqual(expect.arrayContaining(['RATE_LIMIT_MAX', '120']));
  });

  it('lists a file as changed only when a write or edit succeeded', () => {
    expect(keysOf(anchors, 'file-changed')).toEqual(['src/server.ts']);
    expect(keysOf(anchors, 'file-read')).toEqual(['src/routes.ts']);
  });

  it('keeps every error code with its location, and every failing test', () => {
    const errors = keysOf(anchors, 'error');
    // 16 from tsc, and the failed edit's own message.
    expect(errors).toHaveLength(17);
    expect(errors).toContain('old_string not found');
    // The code, the place and the message, each a key: a summary that drops the message has not kept it.
    expect(anchors.find((anchor) => anchor.keys.includes('src/server/routes.ts:8:10'))?.keys).toEqual([
      'TS2305',
      'src/server/routes.ts:8:10',
      "Module '\"./handlers.js\"' has no exported member 'deleteUser'.",
    ]);
    const failing = anchors.filter((anchor) => anchor.category === 'failing-test');
    expect(failing).toHaveLength(10);
    expect(failing.map((anchor) => anchor.keys[0])).toContain('fromISO parses PT1H');
    // A failing test's keys are its name, where it failed and its assertion, as its line writes them.
    for (const anchor of failing) for (const key of anchor.keys) expect(anchor.text).toContain(key);
    expect(failing.every((anchor) => anchor.keys.length === 3)).toBe(true);
  });

  it('keeps commands with their exit status, decisions, and open items', () => {
    expect(anchors.filter((anchor) => anchor.category === 'command').map((anchor) => anchor.text)).toEqual([
      '`npx tsc --noEmit` → failed (exit 2): 16 errors in 6 files',
      '`node --test` → failed (exit 1): # tests 12; # suites 2; # pass 2; # fail 10',
    ]);
    // The exit status and the counts are keys: a summary naming the command alone has not kept them.
    expect(anchors.find((anchor) => anchor.category === 'command')?.keys).toEqual([
      'npx tsc --noEmit',
      'exit 2',
      '16 errors in 6 files',
    ]);
    expect(keysOf(anchors, 'decision')[0]).toMatch(/^We decided to use a sliding window/);
    expect(keysOf(anchors, 'open-item')).toEqual(['TODO: test the reset header.', 'npx tsc --noEmit', 'node --test']);
  });

  it('resolves the errors of a tool that runs no shell command when it runs again on the same files', () => {
    const typecheck = (id: string, output: string) =>
      toolRun(id, 'typecheck', { turn: Number(id.slice(1)) }, output, output.includes('error'));
    const later = extractAnchors([
      ...typecheck('t1', 'src/a.ts(1,5): error TS2345: Nope.\nsrc/b.ts(2,3): error TS2322: Also nope.'),
      ...typecheck('t2', 'src/b.ts(2,3): error TS2322: Also nope.'),
      ...toolRun('r1', 'read', { path: 'src/c.ts' }, 'ENOENT: no such file or directory, open src/c.ts', true),
      ...toolRun('r2', 'read', { path: 'src/d.ts' }, 'ENOENT: no such file or directory, open src/d.ts', true),
      ...toolRun('r3', 'read', { path: 'src/c.ts' }, 'export const c = 1;'),
    ]);
    const errors = later.filter((anchor) => anchor.category === 'error');
    // The typecheck tool's second run no longer reports src/a.ts; the read of src/c.ts succeeded.
    expect(errors.map((anchor) => anchor.keys[0])).toEqual([
      'TS2322',
      'ENOENT: no such file or directory, open src/d.ts',
    ]);
    expect(errors.map((anchor) => anchor.sources)).toEqual([['typecheck'], ['read src/d.ts']]);
  });

  it('keeps a file the agent wrote as changed after git reports it and then no longer does', () => {
    // The write is in an earlier checkpoint; git status then lists the file, and its next run (after
    // a commit) does not.
    const previous = extractAnchors(
      toolRun('w1', 'write', { path: 'src/middleware/rate-limit.ts', content: 'x' }, 'Wrote 1 line.'),
    );
    const later = extractAnchors(
      [
        ...toolRun('g1', 'bash', { command: 'git status' }, fixture('git-status.txt')),
        ...toolRun('g2', 'bash', { command: 'git status' }, 'On branch main\nnothing to commit, working tree clean'),
      ],
      { previous },
    );
    expect(keysOf(later, 'file-changed')).toContain('src/middleware/rate-limit.ts');
    // What only git reported leaves with git's next run.
    expect(keysOf(later, 'file-changed')).not.toContain('src/server.ts');
  });

  it('clears a "still failing" item once the same command passes', () => {
    const later = extractAnchors([
      ...session,
      ...toolRun('c6', 'bash', { command: 'node --test' }, '# pass 12\n# fail 0'),
    ]);
    expect(keysOf(later, 'open-item')).toEqual(['TODO: test the reset header.', 'npx tsc --noEmit']);
    expect(later.find((anchor) => anchor.category === 'command' && anchor.keys[0] === 'node --test')?.text).toBe(
      '`node --test` → ok',
    );
  });

  it('carries anchors of an earlier checkpoint: given, on its message, or in its pinned lines', () => {
    const previous = extractAnchors(session);
    const next = extractAnchors([{ role: 'user', content: 'Now document it.' }], { previous });
    expect(next.filter((anchor) => anchor.category === 'goal').map((anchor) => anchor.required ?? false)).toEqual([
      true,
      false,
    ]);
    const pinned = pinAnchors('Short summary.', previous, { maxChars: 100_000 }).text;
    const fromText = extractAnchors([
      { role: 'user', content: `[Previous conversation summary]\n${pinned}`, meta: { kind: 'compaction_summary' } },
    ]);
    // One pinned line per anchor, less those another pinned line states verbatim (a "still failing"
    // item beside its command's line): every earlier anchor is still kept by the pinned text.
    expect(fromText.length).toBeGreaterThan(0);
    expect(fromText.length).toBeLessThanOrEqual(previous.length);
    expect(checkAnchors(pinned, previous).lost).toEqual([]);
    expect(checkAnchors(pinned, fromText).lost).toEqual([]);
  });

  it('is deterministic and leaves its input alone', () => {
    const copy = structuredClone(session);
    expect(extractAnchors(session)).toEqual(extractAnchors(copy));
    expect(session).toEqual(copy);
  });
});

describe('checkAnchors', () => {
  it('finds keys without regard to case, quotes, backticks or spacing', () => {
    const anchors: Anchor[] = [
      { category: 'identifier', text: 'RATE_LIMIT_MAX', keys: ['RATE_LIMIT_MAX'] },
      { category: 'command', text: '`npm test` → ok', keys: ['npm   test'] },
      { category: 'error', text: 'TS2345 at a.ts:1:2', keys: ['TS2345', 'a.ts:1:2'] },
    ];
    const { kept, lost } = checkAnchors('Ran `NPM TEST`; set **rate_limit_max**. TS2345 remains.', anchors);
    expect(kept.map((anchor) => anchor.category)).toEqual(['identifier', 'command']);
    expect(lost.map((anchor) => anchor.category)).toEqual(['error']);
  });
});

describe('pinAnchors', () => {
  const anchors = extractAnchors(session);

  it('pins what the summary lost, so everything is kept when the budget allows', () => {
    const result = pinAnchors('## Goal\n- Rate limiting', anchors, { maxChars: 20_000 });
    expect(result.text).toContain(PINNED_HEADING);
    expect(result.lost).toEqual([]);
    expect(checkAnchors(result.text, anchors).lost).toEqual([]);
  });

  it('is idempotent: pinning a pinned summary rewrites the same section', () => {
    const once = pinAnchors('## Goal\n- Rate limiting', anchors, { maxChars: 20_000 }).text;
    expect(pinAnchors(once, anchors, { maxChars: 20_000 }).text).toBe(once);
  });

  it('pins nothing when the summary itself kept every anchor', () => {
    const body = anchors.map((anchor) => anchor.text).join('\n');
    expect(pinAnchors(body, anchors, { maxChars: 20_000 })).toMatchObject({ text: body, pinned: [], lost: [] });
  });

  it('drops the lowest-priority anchors first and never the goal or constraints', () => {
    for (const maxChars of [3000, 1200, 600, 400]) {
      const result = pinAnchors('## Goal\n- Rate limiting\n'.repeat(10), anchors, { maxChars });
      expect([...result.text].length).toBeLessThanOrEqual(maxChars);
      const lost = checkAnchors(result.text, anchors).lost;
      expect(lost.filter((anchor) => anchor.required)).toEqual([]);
      const priorities = [
        'goal',
        'constraint',
        'error',
        'failing-test',
        'file-changed',
        'identifier',
        'decision',
        'open-item',
        'command',
        'file-read',
      ];
      const kept = checkAnchors(result.text, anchors).kept.map((anchor) => priorities.indexOf(anchor.category));
      const dropped = lost.map((anchor) => priorities.indexOf(anchor.category));
      if (dropped.length > 0) expect(Math.min(...dropped)).toBeGreaterThanOrEqual(Math.min(...kept));
    }
  });

  it('writes a fact another pinned line states verbatim once: a "still failing" item beside its command', () => {
    const text = pinAnchors('Short summary.', anchors, { maxChars: 20_000 }).text;
    const pinned = text.slice(text.indexOf(PINNED_HEADING));
    expect(checkAnchors(pinned, anchors).lost).toEqual([]);
    expect(pinned).toContain('`npx tsc --noEmit` → failed (exit 2)');
    expect(pinned).not.toContain('still failing: `npx tsc --noEmit`');
  });

  it("keeps a command's stated exit status, a success's too, and pins it on the command's line", () => {
    const run = [
      ...toolRun('g1', 'bash', { command: 'git status --short' }, ' M src/a.ts\n M src/b.ts\n\nexit code 0'),
      ...toolRun('g2', 'bash', { command: 'ls' }, 'a.txt'),
    ];
    const found = extractAnchors(run);
    expect(keysOf(found, 'command')).toEqual(['git status --short exit 0 2 modified', 'ls 1 match in 1 file']);
    const { text } = pinAnchors('x'.repeat(2000), found, { maxChars: 300 });
    expect(text).toMatch(/^- command: git status --short @ exit 0\b/m);
  });

  it('pins a fact in the words of the user or the agent whole when its text is hardly longer than its key', () => {
    const sentence =
      'Next, I will add a property test that random transfer sequences conserve the total balance of the ledger.';
    const found = extractAnchors([{ role: 'assistant', content: [{ type: 'text', text: sentence }] }]);
    const open = found.find((anchor) => anchor.category === 'open-item')!;
    expect(open.keys[0]!.length).toBeLessThan(sentence.length);
    // The summary is cut and the facts shortened to their keys, but this one is written whole.
    const { text } = pinAnchors('x'.repeat(2000), [open], { maxChars: 300 });
    expect(text).toContain(`- open-item: ${sentence}`);
  });

  it('cuts the summary rather than drop the goal when the budget is tiny', () => {
    const result = pinAnchors('x'.repeat(5000), anchors, { maxChars: 320 });
    expect([...result.text].length).toBeLessThanOrEqual(320);
    expect(result.lost.filter((anchor) => anchor.required)).toEqual([]);
  });
});
