// Tool output produced by running the real tools (bench/tool-corpus.ts, `npm run corpus`), with the
// facts taken from the tools' structured output: nothing here was written to fit the parsers.
import { readFileSync } from 'node:fs';
import { parseToolOutput, summarizeToolOutput } from 'ctxkit/summarizing';
import { describe, expect, it } from 'vitest';
import type { ToolCorpus } from '../../bench/tool-corpus.js';
import { normalizeForCheck } from '../../src/summarizing/anchors/normalize.js';

const corpus = JSON.parse(
  readFileSync(new URL('../fixtures/tool-outputs/real/corpus.json', import.meta.url), 'utf8'),
) as ToolCorpus;

function entry(name: string) {
  const found = corpus.entries.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no ${name} in the corpus`);
  return found;
}

/** The facts of an entry its digest lost, by their keys. */
function lost(name: string, maxChars = 800): string[] {
  const { output, command, exitCode, facts } = entry(name);
  const digest = normalizeForCheck(summarizeToolOutput(output, { command, exitCode, maxChars }));
  return facts
    .filter((fact) => !fact.keys.every((key) => digest.includes(normalizeForCheck(key))))
    .map((fact) => fact.keys.join(' + '));
}

describe('parsers on output of the real tools', () => {
  it('Java: every "Caused by" of the chain, with its class, message and own File.java:line', () => {
    const parsed = parseToolOutput(entry('java-caused-by').output);
    expect(parsed.format).toBe('stack-trace');
    expect(parsed.problems.map((problem) => [problem.code, problem.location])).toEqual([
      ['java.lang.RuntimeException', 'Main.java:12'],
      ['java.lang.IllegalStateException', 'Main.java:20'],
      ['java.lang.NumberFormatException', 'Main.java:26'],
    ]);
    expect(parsed.problems[2]!.message).toBe('For input string: "eighty"');
    expect(lost('java-caused-by')).toEqual([]);
  });

  it('cargo test: each panic location and its assertion message, newer "(thread id)" form included', () => {
    const parsed = parseToolOutput(entry('cargo-test').output);
    const byTest = Object.fromEntries(parsed.problems.map((problem) => [problem.test, problem]));
    expect(byTest['tests::parses_plain_port']).toMatchObject({ location: 'src/lib.rs:15:9' });
    expect(byTest['tests::parses_plain_port']!.message).toContain('assertion `left == right` failed');
    expect(byTest['tests::parses_plain_port']!.message).toContain('left: Ok(8080)');
    expect(byTest['tests::rejects_words']!.message).toContain('called `Result::unwrap()` on an `Err` value');
    expect(byTest['tests::mean_of_empty_is_zero']).toMatchObject({
      location: 'src/lib.rs:26:9',
      message: 'mean of nothing should be 0, got NaN',
    });
    expect(lost('cargo-test')).toEqual([]);
  });

  it('pytest --tb=short: each failure and setup error at its file:line', () => {
    const parsed = parseToolOutput(entry('pytest-tb-short').output);
    const where = Object.fromEntries(parsed.problems.map((problem) => [problem.test, problem.location]));
    expect(where).toEqual({
      'test_inventory.py::test_restock_adds_units': 'test_inventory.py:11',
      'test_inventory.py::test_tax_rounding': 'test_inventory.py:15',
      'test_inventory.py::test_unknown_item_raises': 'test_inventory.py:19',
      'test_inventory.py::test_uses_warehouse': 'test_inventory.py:7',
    });
    const setup = parsed.problems.find((problem) => problem.test?.endsWith('test_uses_warehouse'));
    expect(setup).toMatchObject({ severity: 'error', message: expect.stringContaining('database unavailable') });
    expect(lost('pytest-tb-short')).toEqual([]);
    expect(lost('pytest')).toEqual([]);
  });

  it('grep: every match keeps its path:line, the third and later ones too', () => {
    expect(lost('grep')).toEqual([]);
  });

  it('grep -C: context lines (`path-5-text`, `--`) are neither matches nor files', () => {
    const parsed = parseToolOutput(entry('held-out-grep-context').output);
    expect(parsed.counts).toEqual(['4 matches in 3 files']);
    expect(parsed.notes).toEqual([
      './app/models/user.py:2 # FIXME: email validation',
      './app/models/user.py:6 # FIXME: remove legacy field',
      './app/views.py:2 return "ok" # FIXME: cache',
      './README.md:2 FIXME: write docs',
    ]);
    const heading = parseToolOutput('src/a.ts\n3-before\n4:match here\n5-after\n', { format: 'grep' });
    expect(heading.counts).toEqual(['1 match in 1 file']);
  });

  it('node --test: the assertion message of each failing test, in spec and TAP form', () => {
    const parsed = parseToolOutput(entry('node-test-spec').output);
    const messages = parsed.problems.map((problem) => problem.message);
    expect(messages.some((message) => message.includes('Expected values to be strictly deep-equal'))).toBe(true);
    // Suites that failed only because a test inside failed are not failures of their own.
    expect(parsed.problems.map((problem) => problem.test)).toEqual([
      'cart totals > sums quantity times price',
      'cart totals > coupons > applies a percentage coupon',
      'parsePrice rejects text',
      'parsePrice reads cents',
    ]);
    expect(lost('node-test-spec')).toEqual([]);
    expect(lost('node-test-tap')).toEqual([]);
  });

  it('every output of the corpus keeps its facts and states its exit status', () => {
    for (const { name } of corpus.entries) expect({ name, lost: lost(name) }).toEqual({ name, lost: [] });
  });
});

describe('the exit status', () => {
  const output = entry('tsc').output;

  it('is stated from the option, else from what the output reports last, else as unknown', () => {
    expect(summarizeToolOutput(output, { exitCode: 2 }).split('\n')[0]).toMatch(/^tsc \(exit 2\): /);
    expect(summarizeToolOutput(`${output}\nProcess exited with code 2`).split('\n')[0]).toMatch(/^tsc \(exit 2\): /);
    expect(
      parseToolOutput(
        entry('cargo-test').output.concat(
          "\nerror: process didn't exit successfully: `target/debug/deps/ports` (exit status: 101)",
        ),
      ).exitCode,
    ).toBe(101);
    expect(summarizeToolOutput(output).split('\n')[0]).toMatch(/^tsc \(exit status unknown\): /);
    expect(summarizeToolOutput('exit code 1\nexit code 0', { maxChars: 100 })).toContain('(exit 0)');
  });

  it('refuses an exit status that is not a whole number, naming the option', () => {
    expect(() => summarizeToolOutput(output, { exitCode: 1.5 })).toThrow(/exitCode/);
    expect(() => parseToolOutput(output, { exitCode: '1' as unknown as number })).toThrow(/exitCode/);
  });
});
