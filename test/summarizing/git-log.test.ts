// Real `git log` output (test/fixtures/tool-outputs/trial/README.md): read as git's log, each commit
// by its short hash and subject, not as an unknown output whose commit-message lines that say
// "failed" are its errors.
import { readFileSync } from 'node:fs';
import { parseToolOutput, summarizeToolOutput } from 'ctxkit/summarizing';
import { describe, expect, it } from 'vitest';

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/tool-outputs/trial/${name}`, import.meta.url), 'utf8');

describe('git log', () => {
  it('--stat: each commit by its short hash and subject, no problems', () => {
    const parsed = parseToolOutput(fixture('git-log-stat.txt'));
    expect(parsed.format).toBe('git-log');
    expect(parsed.counts).toEqual(['2 commits']);
    expect(parsed.problems).toEqual([]);
    expect(parsed.notes).toEqual([
      '2db7dcc deploy: a failed build exits 4, not 2',
      'd50f9f3 Add deploy and check scripts',
    ]);
    const digest = summarizeToolOutput(fixture('git-log-stat.txt'), { command: 'git log --stat' });
    expect(digest.split('\n')).toEqual([
      'git-log (exit status unknown): 2 commits',
      '2db7dcc deploy: a failed build exits 4, not 2',
      'd50f9f3 Add deploy and check scripts',
    ]);
  });

  it('--oneline, known by its command', () => {
    const parsed = parseToolOutput(fixture('git-log-oneline.txt'), { command: 'git log --oneline' });
    expect(parsed.format).toBe('git-log');
    expect(parsed.counts).toEqual(['2 commits']);
    expect(parsed.notes).toEqual([
      '2db7dcc deploy: a failed build exits 4, not 2',
      'd50f9f3 Add deploy and check scripts',
    ]);
  });
});
