import { fc, test } from '@fast-check/vitest';
import { parseToolOutput, summarizeToolOutput, type ToolOutputFormat } from 'ctxkit/summarizing';
import { expect } from 'vitest';

/** Every format, once: the record's type fails the build when a format is added and not listed. */
const everyFormat: Record<ToolOutputFormat, true> = {
  tsc: true,
  eslint: true,
  biome: true,
  'node-test': true,
  vitest: true,
  jest: true,
  pytest: true,
  'go-test': true,
  cargo: true,
  gcc: true,
  'git-status': true,
  'git-diff': true,
  'git-log': true,
  grep: true,
  npm: true,
  pip: true,
  'stack-trace': true,
  unknown: true,
};
const formats = Object.keys(everyFormat) as ToolOutputFormat[];
/** Lines that look like the outputs the parsers read, mixed with noise. */
const line = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.constantFrom(
    'src/a.ts(1,2): error TS2322: Bad.',
    '  Type x.',
    'not ok 1 - name',
    '  ---',
    '  error: |-',
    '    message',
    '  ...',
    '# fail 3',
    '✖ test (1ms)',
    ' FAIL  a.test.ts > suite > test',
    'AssertionError: expected 1 to be 2',
    ' ❯ a.test.ts:3:4',
    'FAILED tests/a.py::t - boom',
    '--- FAIL: TestX (0.00s)',
    'error[E0308]: mismatched types',
    '  --> src/a.rs:1:2',
    'diff --git a/x b/x',
    '@@ -1,2 +1,3 @@',
    '+added',
    'npm error code E404',
    'Traceback (most recent call last):',
    '  File "a.py", line 3, in f',
    'ValueError: no',
    '    at f (src/a.js:1:2)',
    'a.txt:3:match',
    "tmpl.cpp:8:12: error: no matching function for call to 'f(int)'",
    'In file included from /usr/include/c++/12/vector:64,',
    'make: *** [Makefile:4: all] Error 1',
    'commit 8d839c2a1f0e4b7c9d2e3f4a5b6c7d8e9f0a1b2c',
    'Author: A <a@example.org>',
    'FAIL: test_adds (test_math.MathTest.test_adds)',
    'Ran 4 tests in 0.001s',
    'CONFLICT (content): Merge conflict in config.toml',
    '',
  ),
);
const outputs = fc.array(line, { maxLength: 60 }).map((lines) => lines.join('\n'));

test.prop([outputs, fc.constantFrom(...formats), fc.integer({ min: 0, max: 2000 })])(
  'parsers never throw, and a digest stays within its clip',
  (text, format, maxChars) => {
    const parsed = parseToolOutput(text, { format });
    expect(parsed.lineCount).toBeLessThanOrEqual(text.split('\n').length);
    expect([...summarizeToolOutput(text, { format, maxChars })].length).toBeLessThanOrEqual(maxChars);
    expect([...summarizeToolOutput(text, { maxChars })].length).toBeLessThanOrEqual(maxChars);
  },
);
