// A run's exit status is what the host or the shell reported about it, not a phrase inside its
// output: real `git log` and `grep` runs that exited 0 but whose text says `exit code 2` or `exit 1`
// (see test/fixtures/tool-outputs/trial/README.md for how they were made).
import { readFileSync } from 'node:fs';
import { heuristicSummarizer } from 'ctxkit';
import { extractAnchors, parseToolOutput } from 'ctxkit/summarizing';
import { userMessage } from 'ctxkit/testing';
import { describe, expect, it } from 'vitest';
import type { ToolCorpus } from '../../bench/tool-corpus.js';
import { commandRun } from '../helpers/tool-runs.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/tool-outputs/trial/${name}`, import.meta.url), 'utf8');
const gitLog = fixture('git-log-stat.txt');
const grepExit = fixture('grep-exit.txt');

function anchorsOf(command: string, output: string, options: { exitCode?: number; isError?: boolean } = {}) {
  return extractAnchors(commandRun('call_1', command, output, options));
}

describe('the exit status of a run', () => {
  it('is not read from a commit message that talks about exit codes (git log --stat)', () => {
    const anchors = anchorsOf('git log --stat', gitLog);
    const command = anchors.find((anchor) => anchor.category === 'command');
    expect(command?.text).toBe('`git log --stat` → ok: 2 commits');
    expect(anchors.filter((anchor) => anchor.category === 'error')).toEqual([]);
    expect(anchors.filter((anchor) => anchor.category === 'open-item')).toEqual([]);
    expect(parseToolOutput(gitLog).exitCode).toBeUndefined();
  });

  it('is not read from the lines grep matched (`exit 1` in a script)', () => {
    const anchors = anchorsOf('grep -rn "exit" scripts', grepExit);
    expect(anchors.find((anchor) => anchor.category === 'command')?.text).toBe(
      '`grep -rn "exit" scripts` → ok: 3 matches in 2 files',
    );
    expect(anchors.filter((anchor) => anchor.category === 'error')).toEqual([]);
    expect(anchors.filter((anchor) => anchor.category === 'match').map((anchor) => anchor.keys[0])).toEqual([
      'scripts/deploy.sh:5',
      'scripts/deploy.sh:7',
      'scripts/check.sh:2',
    ]);
  });

  it('is still read where hosts and shells report it: the last lines, or the first', () => {
    const failed = anchorsOf('git log --stat', gitLog, { exitCode: 128 });
    expect(failed.find((anchor) => anchor.category === 'command')?.text).toBe(
      '`git log --stat` → failed (exit 128): 2 commits',
    );
    const first = anchorsOf('grep -rn "exit" scripts', `Exit code: 2\nWall time: 0.1 seconds\nOutput:\n${grepExit}`);
    expect(first.find((anchor) => anchor.category === 'command')?.text).toMatch(
      /^`grep -rn "exit" scripts` → failed \(exit 2\)/,
    );
    expect(parseToolOutput(`${grepExit}\nProcess exited with code 2`).exitCode).toBe(2);
    expect(parseToolOutput(`${gitLog}\n[exit 3]`).exitCode).toBe(3);
  });
});

const corpus = JSON.parse(
  readFileSync(new URL('../fixtures/tool-outputs/real/corpus.json', import.meta.url), 'utf8'),
) as ToolCorpus;

describe('a run whose host reports no exit status', () => {
  it('is not written `ok` when the tool itself reports errors or failing tests (real tsc, test runners, cargo)', () => {
    const failing = corpus.entries.filter((entry) =>
      /^(held-out-)?(tsc|tsc-pretty|node-test-spec|node-test-tap|vitest|pytest|pytest-tb-short|cargo-test|cargo-build)$/.test(
        entry.name,
      ),
    );
    expect(failing.length).toBeGreaterThan(8);
    const said = failing.map((entry) => {
      // The output alone, as a tool that returns what the command printed and nothing else.
      const anchors = extractAnchors(commandRun('call_1', entry.command, entry.output));
      return `${entry.name}: ${anchors.find((anchor) => anchor.category === 'command')?.text}`;
    });
    expect(said.filter((line) => / → ok\b/.test(line))).toEqual([]);
    expect(said.every((line) => / → failed\b/.test(line))).toBe(true);
  });

  it('is still `ok` for a clean run and for a linter that only warns', () => {
    const clean = extractAnchors(commandRun('call_1', 'git log --stat', gitLog));
    expect(clean.find((anchor) => anchor.category === 'command')?.text).toBe('`git log --stat` → ok: 2 commits');
    const warned = extractAnchors(
      commandRun(
        'call_2',
        'npx eslint src',
        '/app/src/a.js\n  3:7  warning  Unexpected console statement  no-console\n\n✖ 1 problem (0 errors, 1 warning)\n',
      ),
    );
    expect(warned.find((anchor) => anchor.category === 'command')?.text).toMatch(/^`npx eslint src` → ok/);
  });
});

describe('the heuristic summarizer', () => {
  it('writes the real git log and grep runs as ok, in a tool digest and in a checkpoint', async () => {
    const messages = [
      userMessage('What changed in the deploy script?'),
      ...commandRun('call_1', 'git log --stat', gitLog),
      ...commandRun('call_2', 'grep -rn "exit" scripts', grepExit),
    ];
    for (const kind of ['tool_results', 'compaction'] as const) {
      const answer = await heuristicSummarizer.summarize({ kind, messages, text: '', maxOutputTokens: 2_000 });
      const text = typeof answer === 'string' ? answer : answer.text;
      // The outputs' own words (a commit message about a failed build) may be quoted; how the runs
      // ended may not be misread from them.
      expect(text).not.toMatch(/(?:failed|error) \(exit(?: code)? \d+\)|still failing/);
      if (kind === 'tool_results') {
        expect(text).toContain('bash `git log --stat`: ok');
        expect(text).toContain('bash `grep -rn "exit" scripts`: ok');
      }
    }
  });
});
