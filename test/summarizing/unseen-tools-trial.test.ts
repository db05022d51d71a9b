// Output of tools ctxkit had not been tried on (python -m unittest, make, g++, javac, git rebase and
// merge conflicts, curl, psql, find), saved as the real tools printed it: see the fixtures' README.
import { readFileSync } from 'node:fs';
import { parseToolOutput, summarizeToolOutput } from 'ctxkit/summarizing';
import { describe, expect, it } from 'vitest';

function fixture(name: string): string {
  return readFileSync(new URL(`../fixtures/tool-outputs/unseen/${name}`, import.meta.url), 'utf8');
}

/** Escapes a string for a regular expression. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The digest's lines (its first, which ctxkit writes, left out) whose last word is not a whole word
 * of the output: a line cut in the middle of a word.
 */
function cutMidWord(digest: string, output: string): string[] {
  const source = output.replace(/\s+/g, ' ');
  return digest
    .split('\n')
    .slice(1)
    .filter((line) => !/^…( \d+ more)?$/.test(line))
    .filter((line) => {
      const last = line.replace(/\s*…$/, '').trim().split(/\s+/).pop();
      if (!last) return false;
      return !new RegExp(`${literal(last)}(?=\\s|$)`).test(source);
    });
}

describe('output of tools ctxkit had not been tried on', () => {
  it('git status in the middle of a rebase: the todo line "pick <sha> <subject>" is not a modified file', () => {
    const parsed = parseToolOutput(fixture('git-status-rebase.txt'), { command: 'git status' });
    expect(parsed.counts).toEqual(['2 both modified']);
    expect(parsed.notes.filter((note) => /pick/.test(note))).toEqual([]);
    expect(parsed.notes).toContain("You are currently rebasing branch 'feature' on '10558bd'.");
  });

  it.each([
    ['git-rebase.txt', 'git rebase main'],
    ['git-merge.txt', 'git merge main'],
  ])('%s: every conflicting file is named in a tight digest', (file, command) => {
    const digest = summarizeToolOutput(fixture(file), { command, exitCode: 1, maxChars: 300 });
    expect(digest).toContain('Merge conflict in VERSION');
    expect(digest).toContain('Merge conflict in config.toml');
  });

  it('python -m unittest: each failing test by name with its error, and the run totals', () => {
    const output = fixture('unittest.txt');
    const parsed = parseToolOutput(output, { command: 'python3 -m unittest test_calc' });
    expect(parsed.problems.map((problem) => [problem.test, problem.severity, problem.code])).toEqual([
      ['test_calc.CalcTest.test_div_zero', 'error', 'ZeroDivisionError'],
      ['test_calc.CalcTest.test_add', 'failure', 'AssertionError'],
      ['test_calc.CalcTest.test_list', 'failure', 'AssertionError'],
    ]);
    expect(parsed.counts).toEqual(['Ran 4 tests', 'FAILED (failures=2, errors=1)']);
    const digest = summarizeToolOutput(output, {
      command: 'python3 -m unittest test_calc',
      exitCode: 1,
      maxChars: 500,
    });
    for (const fact of ['test_div_zero', 'test_add', 'test_list', 'test_calc.py:11', '4 != 5', 'failures=2, errors=1'])
      expect(digest).toContain(fact);
  });

  it("g++ template errors: each error where the project's code asked for it, not in the library's headers", () => {
    const output = fixture('gpp-template.txt');
    const command = 'g++ -std=c++17 tmpl.cpp -o tmpl';
    const parsed = parseToolOutput(output, { command });
    expect(parsed.format).toBe('gcc');
    expect(parsed.problems.map((problem) => problem.location)).toEqual([
      'tmpl.cpp:10:11',
      'tmpl.cpp:10:11',
      'tmpl.cpp:8:12',
      'tmpl.cpp:8:12',
      'tmpl.cpp:8:12',
    ]);
    expect(parseToolOutput(output).format).toBe('gcc');
    const digest = summarizeToolOutput(output, { command, exitCode: 1, maxChars: 400 });
    expect(digest).toContain('gcc (exit 1): 5 errors');
    expect(digest).toContain('tmpl.cpp:8:12 no match for ‘operator<’ (operand types are ‘Point’ and ‘Point’)');
    expect(digest).toContain('tmpl.cpp:10:11 no matching function for call to');
  });

  it('make -k over gcc: each error with its file:line:col, and the targets make gave up on', () => {
    const digest = summarizeToolOutput(fixture('make-k.txt'), { command: 'make -k', exitCode: 2, maxChars: 400 });
    expect(digest.split('\n')[0]).toBe('gcc (exit 2): 2 errors');
    expect(digest).toContain('main.c:3:59 ‘undefined_var’ undeclared (first use in this function)');
    expect(digest).toContain('util.c:1:33 expected ‘;’ before ‘}’ token');
    expect(digest).toContain('make: *** [Makefile:7: util.o] Error 1');
  });

  it("javac: its count, each error's file:line and the symbol it could not find", () => {
    const parsed = parseToolOutput(fixture('javac.txt'), { command: 'javac Main.java' });
    expect(parsed.counts).toEqual(['2 errors']);
    expect(parsed.problems).toEqual([
      { severity: 'error', location: 'Main.java:5', message: 'incompatible types: String cannot be converted to int' },
      {
        severity: 'error',
        location: 'Main.java:6',
        message: 'cannot find symbol (symbol: method missing(int)) (location: class Main)',
      },
    ]);
  });

  it('find with missing folders amid a long listing: the "No such file or directory" lines are what is kept', () => {
    const output = fixture('find-missing.txt');
    const digest = summarizeToolOutput(output, { exitCode: 1, maxChars: 600 });
    expect(digest).toContain('find: ‘/opt/app/config’: No such file or directory');
    expect(digest).toContain('find: ‘/usr/share/doc/git/contrib/emacs’: No such file or directory');
  });

  it('a log with timestamps first is not read as grep output, and its error lines keep why they failed', () => {
    const output = fixture('worker-log.txt');
    const parsed = parseToolOutput(output, { command: 'python3 worker.py' });
    expect(parsed.format).toBe('unknown');
    expect(parsed.problems[0]!.message).toBe(
      '2026-11-26 15:52:40,134 ERROR sync: job 7: upload of at-spi2-common failed: [Errno 111] Connection refused',
    );
    for (const maxChars of [300, 600, 1500]) {
      const digest = summarizeToolOutput(output, { command: 'python3 worker.py', exitCode: 1, maxChars });
      const errors = digest.split('\n').filter((line) => line.includes('ERROR'));
      expect(errors.length, `${maxChars}`).toBeGreaterThan(0);
      for (const line of errors) expect(line, `${maxChars}`).toMatch(/ERROR sync: .*Connection refused$/);
    }
  });

  it('a progress meter rewritten with carriage returns reads as the terminal showed it last', () => {
    const output = fixture('curl-progress.txt');
    expect(output).toContain('\r100 5078k');
    const digest = summarizeToolOutput(output, { exitCode: 37, maxChars: 400 });
    expect(digest).not.toContain('\r');
    expect(digest).toContain('100 5078k  100 5078k');
    expect(digest).not.toContain('--:--     0 100');
    expect(digest).toContain("curl: (37) Couldn't open file /home/dev/calc/nope.log");
  });

  it('mvn offline: its long error line is kept to its end, and the bare "[ERROR]" spacer lines are left out', () => {
    const output = fixture('mvn-offline.txt');
    const parsed = parseToolOutput(output, { command: 'mvn -o -q compile' });
    expect(parsed.problems[0]!.message).toMatch(
      /^\[ERROR\] Failed to execute goal .* has not been downloaded from it before\. -> \[Help 1\]$/,
    );
    expect([...parsed.problems.map((problem) => problem.message), ...parsed.notes]).not.toContain('[ERROR]');
    const digest = summarizeToolOutput(output, { command: 'mvn -o -q compile', exitCode: 1, maxChars: 400 });
    expect(digest.split('\n')[1]).toBe('[ERROR] Failed to execute goal … it before. -> [Help 1]');
  });

  it('git bisect: the commit it found is named as the first bad one', () => {
    const digest = summarizeToolOutput(fixture('git-bisect.txt'), { command: 'git bisect good main~1', exitCode: 0 });
    expect(digest.split('\n')[0]).toBe('git-log (exit 0): first bad commit 8d839c2; 1 commit');
    expect(digest).toContain('8d839c2 feature: change port');
  });

  it.each([
    ['curl.txt', 'curl -v http://127.0.0.1:9', 7, 400],
    ['gpp-template.txt', 'g++ -std=c++17 tmpl.cpp -o tmpl', 1, 800],
    ['find-missing.txt', undefined, 1, 400],
    ['make-k.txt', 'make -k', 2, 300],
    ['worker-log.txt', 'python3 worker.py', 1, 600],
  ])('%s: no line of the digest ends in the middle of a word', (file, command, exitCode, maxChars) => {
    const output = fixture(file);
    const digest = summarizeToolOutput(output, { ...(command ? { command } : {}), exitCode, maxChars });
    expect([...digest].length).toBeLessThanOrEqual(maxChars);
    expect(cutMidWord(digest, output)).toEqual([]);
  });
});
