// A run's exit status is what the host or the shell reported about it, not a phrase inside its
// output: real `git log` and `grep` runs that exited 0 but whose text says `exit code 2` or `exit 1`
// (see test/fixtures/tool-outputs/trial/README.md for how they were made).
import { readFileSync } from 'node:fs';
import { extractAnchors, parseToolOutput } from 'ctxkit/summarizing';
import { describe, expect, it } from 'vitest';
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
    expect(command?.text).toBe('`git log --stat` → ok');
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
    expect(failed.find((anchor) => anchor.category === 'command')?.text).toBe('`git log --stat` → failed (exit 128)');
    const first = anchorsOf('grep -rn "exit" scripts', `Exit code: 2\nWall time: 0.1 seconds\nOutput:\n${grepExit}`);
    expect(first.find((anchor) => anchor.category === 'command')?.text).toMatch(
      /^`grep -rn "exit" scripts` → failed \(exit 2\)/,
    );
    expect(parseToolOutput(`${grepExit}\nProcess exited with code 2`).exitCode).toBe(2);
    expect(parseToolOutput(`${gitLog}\n[exit 3]`).exitCode).toBe(3);
  });
});
