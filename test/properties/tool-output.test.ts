import { fc, test } from '@fast-check/vitest';
import { parseToolOutput, summarizeToolOutput, type ToolOutputFormat } from 'ctxkit/summarizing';
import { expect } from 'vitest';

const formats: ToolOutputFormat[] = [
  'tsc',
  'eslint',
  'biome',
  'node-test',
  'vitest',
  'jest',
  'pytest',
  'go-test',
  'cargo',
  'git-status',
  'git-diff',
  'grep',
  'npm',
  'pip',
  'stack-trace',
  'unknown',
];
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
