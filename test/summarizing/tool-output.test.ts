import { readFileSync } from 'node:fs';
import { parseToolOutput, summarizeToolOutput } from 'ctxkit/summarizing';
import { describe, expect, it } from 'vitest';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/tool-outputs/${name}`, import.meta.url), 'utf8');
const codePoints = (text: string) => [...text].length;

describe('parseToolOutput', () => {
  it('reads a tsc run: 16 errors over 6 codes and 6 files, every location', () => {
    const parsed = parseToolOutput(fixture('tsc.txt'));
    expect(parsed.format).toBe('tsc');
    expect(parsed.counts).toEqual(['16 errors in 6 files']);
    expect(parsed.problems).toHaveLength(16);
    expect(new Set(parsed.problems.map((problem) => problem.code))).toEqual(
      new Set(['TS2345', 'TS2322', 'TS7006', 'TS2305', 'TS2339', 'TS2307']),
    );
    expect(parsed.problems[0]).toEqual({
      severity: 'error',
      code: 'TS2345',
      location: 'src/config/load-config.ts:14:23',
      message:
        "Argument of type 'string | undefined' is not assignable to parameter of type 'string'. Type 'undefined' is not assignable to type 'string'.",
    });
  });

  it("reads tsc's pretty form without taking code frames for messages", () => {
    const parsed = parseToolOutput(fixture('tsc-pretty.txt'));
    expect(parsed.problems.map((problem) => `${problem.location} ${problem.code}`)).toEqual([
      'src/index.ts:5:7 TS2322',
      'src/cache.ts:18:3 TS2741',
    ]);
    expect(parsed.problems[1]!.message).toBe(
      "Property 'ttl' is missing in type '{ key: string; }' but required in type 'CacheEntry'.",
    );
  });

  it("reads node:test's TAP: the ten failing leaves, their `error: |-` message, code and location, and `# fail 10`", () => {
    const parsed = parseToolOutput(fixture('node-test-tap.txt'));
    expect(parsed.format).toBe('node-test');
    expect(parsed.counts).toContain('# fail 10');
    expect(parsed.problems).toHaveLength(10);
    expect(parsed.problems[0]).toEqual({
      severity: 'failure',
      test: 'parseDuration > parses minutes',
      location: 'test/parse-duration.test.js:14:3',
      code: 'ERR_ASSERTION',
      message: 'Expected values to be strictly equal: 60 !== 60000',
    });
    expect(parsed.problems.map((problem) => problem.test)).not.toContain('parseDuration');
    expect(parsed.problems.find((problem) => problem.test === 'fromISO parses PT1H')?.message).toBe(
      'Invalid ISO 8601 duration: PT1H',
    );
  });

  it("reads node:test's spec reporter: failing tests under their suite, the assertion and its location", () => {
    const parsed = parseToolOutput(fixture('node-test-spec.txt'));
    expect(parsed.counts).toEqual(expect.arrayContaining(['fail 2', 'tests 4']));
    expect(parsed.problems.map((problem) => problem.test)).toEqual([
      'slugify > strips diacritics',
      'unique suffix after collision',
    ]);
    expect(parsed.problems[0]!.message).toContain("'creme-brulee' !== 'crème-brûlée'");
    expect(parsed.problems[0]!.location).toBe('test/slugify.test.mjs:11:12');
    expect(parsed.problems[1]!.code).toBe('ERR_INVALID_ARG_TYPE');
  });

  it.each([
    [
      'vitest.txt',
      'vitest',
      ['checkout > applies the coupon', 'checkout > rejects an expired card'],
      'test/checkout.test.ts:27:34',
    ],
    ['jest.txt', 'jest', ['math > adds floats', 'math > divides by zero'], 'src/math.test.js:12:27'],
    [
      'pytest.txt',
      'pytest',
      ['tests/test_stock.py::test_reserve_stock', 'tests/test_orders.py::test_order_total_tax'],
      'inventory/stock.py:48',
    ],
    ['go-test.txt', 'go-test', ['TestParseBody', 'TestRoundTrip', 'TestRoundTrip/unicode'], 'parser_test.go:42'],
    [
      'cargo-test.txt',
      'cargo',
      ['account::tests::withdraw_overdraft', 'ledger::tests::transfer_is_atomic'],
      'src/account.rs:88:9',
    ],
  ])('reads %s as %s: each failing test once, with its location', (file, format, tests, location) => {
    const parsed = parseToolOutput(fixture(file));
    expect(parsed.format).toBe(format);
    expect(parsed.problems.filter((problem) => problem.severity === 'failure').map((problem) => problem.test)).toEqual(
      tests,
    );
    expect(parsed.problems[0]!.location).toBe(location);
    expect(parsed.counts.length).toBeGreaterThan(0);
  });

  it('keeps assertion messages of test runners', () => {
    expect(parseToolOutput(fixture('vitest.txt')).problems[0]!.message).toContain('expected 90 to be 85');
    expect(parseToolOutput(fixture('jest.txt')).problems[0]!.message).toContain('Received: 0.30000000000000004');
    expect(parseToolOutput(fixture('pytest.txt')).problems[1]!.message).toContain("Decimal('23.976')");
    expect(parseToolOutput(fixture('cargo-test.txt')).problems[0]!.message).toContain('overdraft must be refused');
  });

  it.each([
    [
      'eslint.txt',
      'eslint',
      [
        '@typescript-eslint/no-unused-vars',
        '@typescript-eslint/no-explicit-any',
        'react-hooks/exhaustive-deps',
        'no-restricted-imports',
        'eqeqeq',
      ],
    ],
    ['biome.txt', 'biome', ['lint/style/useConst', 'lint/suspicious/noExplicitAny', 'format']],
    ['cargo-build.txt', 'cargo', ['E0308', 'E0599', 'unused_variables']],
    ['clippy.txt', 'cargo', ['clippy::if_same_then_else', 'clippy::redundant_clone']],
    ['npm-error.txt', 'npm', ['ERESOLVE']],
    ['npm-404.txt', 'npm', ['E404']],
  ])('reads %s as %s with its codes', (file, format, codes) => {
    const parsed = parseToolOutput(fixture(file));
    expect(parsed.format).toBe(format);
    expect(parsed.problems.map((problem) => problem.code)).toEqual(codes);
  });

  it('reads linters’ locations, relative to the project', () => {
    expect(parseToolOutput(fixture('eslint.txt')).problems[0]!.location).toBe('src/components/UserCard.tsx:12:7');
    expect(parseToolOutput(fixture('cargo-build.txt')).problems[1]!.location).toBe('src/main.rs:17:12');
  });

  it('reads git status, git diff and grep as notes with counts', () => {
    const status = parseToolOutput(fixture('git-status.txt'));
    expect(status.format).toBe('git-status');
    expect(status.notes).toEqual(
      expect.arrayContaining([
        'modified: src/server.ts',
        'deleted: src/middleware/throttle.ts',
        'untracked: test/rate-limit.test.ts',
      ]),
    );
    const diff = parseToolOutput(fixture('git-diff.txt'));
    expect(diff.notes).toEqual(['src/server.ts +2 -1 @ lines 3, 22', 'src/middleware/throttle.ts (deleted) +0 -13']);
    expect(parseToolOutput(fixture('grep.txt')).counts).toEqual(['6 matches in 4 files']);
    const heading = parseToolOutput(fixture('ripgrep-heading.txt'));
    expect(heading.format).toBe('grep');
    expect(heading.notes[0]).toMatch(/^src\/queue\/worker\.ts:18 /);
  });

  it('reads pip errors and stack traces of Node and Python', () => {
    expect(parseToolOutput(fixture('pip-error.txt')).problems.map((problem) => problem.message)).toEqual([
      expect.stringContaining('pydantic-core==9.9.9'),
      'No matching distribution found for pydantic-core==9.9.9',
    ]);
    expect(parseToolOutput(fixture('stack-node.txt')).problems[0]).toEqual({
      severity: 'error',
      code: 'TypeError',
      location: 'dist/server.js:88:32',
      callers: ['dist/index.js:12:3', 'dist/index.js:20:1'],
      message: "Cannot read properties of undefined (reading 'port')",
    });
    const python = parseToolOutput(fixture('stack-python.txt')).problems[0]!;
    expect(python.location).toBe('/app/billing/migrations/0007_invoice_due.py:31');
    // The frames that called it, innermost first.
    expect(python.callers).toEqual(['/app/manage.py:18', '/app/manage.py:22']);
  });

  it('falls back to error-looking lines first, then head and tail, for an unknown output', () => {
    const parsed = parseToolOutput(fixture('unknown.txt'));
    expect(parsed.format).toBe('unknown');
    expect(parsed.problems[0]!.message).toContain('upload failed for assets/app.3f9c.js');
    expect(parsed.notes[0]).toBe('Starting build pipeline for target web-prod');
  });

  it('prefers the tool the command names, and reads the output unguided when that tool finds nothing', () => {
    expect(parseToolOutput(fixture('tsc.txt'), { command: 'npx tsc --noEmit -p .' }).format).toBe('tsc');
    expect(parseToolOutput('all good', { command: 'npx tsc' }).format).toBe('unknown');
  });

  it('ignores terminal colour codes', () => {
    const escapeCharacter = String.fromCharCode(27);
    const parsed = parseToolOutput(`${escapeCharacter}[31msrc/a.ts(1,2): error TS2322: Bad.${escapeCharacter}[0m`);
    expect(parsed.problems[0]).toMatchObject({ code: 'TS2322', location: 'src/a.ts:1:2' });
  });
});

describe('summarizeToolOutput', () => {
  it('keeps every code and every location of a 16-error tsc run in 800 code points', () => {
    const digest = summarizeToolOutput(fixture('tsc.txt'), { maxChars: 800 });
    expect(codePoints(digest)).toBeLessThanOrEqual(800);
    for (const problem of parseToolOutput(fixture('tsc.txt')).problems) {
      expect(digest).toContain(problem.code);
      expect(digest).toContain(problem.location);
    }
    expect(digest.split('\n')[0]).toBe('tsc (exit status unknown): 16 errors in 6 files');
  });

  it('keeps `# fail 10` and all ten failing test names of a TAP run in 800 code points', () => {
    const digest = summarizeToolOutput(fixture('node-test-tap.txt'), { maxChars: 800 });
    expect(codePoints(digest)).toBeLessThanOrEqual(800);
    expect(digest).toContain('# fail 10');
    for (const problem of parseToolOutput(fixture('node-test-tap.txt')).problems)
      expect(digest).toContain(problem.test);
  });

  it('keeps the assertion messages when there is room', () => {
    const digest = summarizeToolOutput(fixture('node-test-tap.txt'), { maxChars: 2000 });
    expect(digest).toContain('60 !== 60000');
    expect(digest).toContain('Invalid ISO 8601 duration: PT1H');
  });

  it('stays within any clip and says how many items it left out', () => {
    for (const maxChars of [0, 10, 60, 120, 200, 400]) {
      const digest = summarizeToolOutput(fixture('tsc.txt'), { maxChars });
      expect(codePoints(digest)).toBeLessThanOrEqual(maxChars);
    }
    expect(summarizeToolOutput(fixture('tsc.txt'), { maxChars: 200 })).toMatch(/… \d+ more$/);
  });
});
