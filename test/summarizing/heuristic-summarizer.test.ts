import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { heuristicSummarizer, type Message } from '../../src/index.js';
import { summarizeHeuristically } from '../../src/summarizing/heuristic-summarizer.js';
import { SUMMARY_SECTIONS, type SummaryRequest } from '../../src/summarizing/index.js';
import { toolCallMessage, toolResultMessage } from '../../src/testing/index.js';

const call = (id: string, command: string) => toolCallMessage([{ id, name: 'bash', arguments: { command } }]);
const result = (id: string, text: string, isError = false) =>
  toolResultMessage(id, text, { toolName: 'bash', isError });

const compilerOutput = (() => {
  const lines = Array.from({ length: 500 }, (_, index) => `[build] compiling module_${index} (${index * 3} ms)`);
  lines.splice(120, 0, "src/parser/tokenize.ts:42:17 - error TS2345: Argument of type 'string' is not assignable.");
  lines.splice(380, 0, "src/index.ts:7:3 - error TS2305: Module './parser' has no exported member 'parse'.");
  return [...lines, 'Found 2 errors in 2 files.', 'Process exited with code 2', 'tsc done'].join('\n');
})();

const vitestOutput = ` RUN  v4.1.0 /repo
${Array.from({ length: 60 }, (_, index) => ` ✓ test/module-${index}.test.ts (4 tests) ${index}ms`).join('\n')}
 ❯ test/parser.test.ts (5 tests | 2 failed) 14ms
   × parser > parses ISO dates 6ms
   × parser > rejects junk input 3ms

 FAIL  test/parser.test.ts > parser > parses ISO dates
AssertionError: expected '2024-01-01' to be '2024-01-02'
 ❯ test/parser.test.ts:18:25

 Test Files  1 failed | 60 passed (61)
      Tests  2 failed | 243 passed (245)
   Duration  1.41s`;

const npmOutput = `${'npm http fetch GET 200 https://packages.example.com/pkg 12ms\n'.repeat(80)}npm ERR! code ERESOLVE
npm ERR! ERESOLVE unable to resolve dependency tree
npm ERR! Found: react@18.2.0
npm ERR! A complete log of this run can be found in: /home/dev/.npm/_logs/debug-0.log`;

const pythonOutput = `${'INFO loading shard\n'.repeat(40)}Traceback (most recent call last):
  File "app/main.py", line 12, in <module>
    run()
  File "app/runner.py", line 40, in run
    value = int(raw)
ValueError: invalid literal for int() with base 10: 'abc'`;

const toolMessages: Message[] = [
  call('a', 'npx tsc --noEmit'),
  result('a', compilerOutput, true),
  call('b', 'npx vitest run'),
  result('b', vitestOutput, true),
  call('c', 'npm install'),
  result('c', npmOutput, true),
  call('d', 'python app/main.py'),
  result('d', pythonOutput, true),
];

const toolRequest = (extra: Partial<SummaryRequest> = {}): SummaryRequest => ({
  kind: 'tool_results',
  messages: toolMessages,
  text: '',
  maxOutputTokens: 1200,
  ...extra,
});

const conversation: Message[] = [
  { role: 'user', content: 'Fix the failing parser tests in src/parser/tokenize.ts. Do not change the public API.' },
  { role: 'assistant', content: [{ type: 'text', text: 'Running the build first.' }] },
  ...toolMessages,
  { role: 'user', content: 'Also make sure the CLI still starts.' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'I decided to use Number() instead of parseInt because it rejects junk.' },
      {
        type: 'toolCall',
        id: 'e',
        name: 'edit',
        arguments: { path: 'src/parser/tokenize.ts', oldText: 'a', newText: 'b' },
      },
    ],
  },
  { role: 'toolResult', toolCallId: 'e', toolName: 'edit', content: [{ type: 'text', text: 'Edited 1 line' }] },
];

const codePointLength = (text: string) => Array.from(text).length;

describe('summarizeHeuristically: tool results', () => {
  const digest = summarizeHeuristically(toolRequest());

  it('names each call with its outcome', () => {
    expect(digest).toContain('- bash `npx tsc --noEmit`: error (exit code 2)');
    expect(digest).toContain('- bash `npx vitest run`: error');
    expect(digest).toContain('- bash `npm install`: error');
    expect(digest).toContain('- bash `python app/main.py`: error');
  });

  it('keeps compiler errors found amid hundreds of lines of noise, parsed', () => {
    expect(digest).toContain("src/parser/tokenize.ts:42:17 TS2345: Argument of type 'string' is not assignable.");
    expect(digest).toContain("src/index.ts:7:3 TS2305: Module './parser' has no exported member 'parse'.");
    // The call's line states how it ended: the parsed body does not say it again, nor `exit status unknown`.
    expect(digest).toContain('tsc: 2 errors in 2 files');
    expect(digest).not.toContain('exit status unknown');
    expect(digest).not.toContain('compiling module_'); // the noise is gone
  });

  it('keeps failing tests and counts from a test report', () => {
    expect(digest).toContain('✗ parser > parses ISO dates (test/parser.test.ts:18:25)');
    expect(digest).toContain("AssertionError: expected '2024-01-01' to be '2024-01-02'");
    expect(digest).toContain('✗ parser > rejects junk input');
    expect(digest).toContain('Tests: 2 failed | 243 passed (245)');
    expect(digest).not.toMatch(/✓ test\/module-/);
  });

  it('keeps the npm error and the Python exception with its location', () => {
    expect(digest).toContain('ERESOLVE: unable to resolve dependency tree');
    // The innermost frame, then the frame that called it.
    expect(digest).toContain(
      "app/runner.py:40 ← app/main.py:12 ValueError: invalid literal for int() with base 10: 'abc'",
    );
  });

  it('is deterministic and within budget', () => {
    expect(summarizeHeuristically(toolRequest())).toBe(digest);
    expect(codePointLength(digest)).toBeLessThanOrEqual(1200 * 4);
  });

  it('keeps the errors of every result first when the budget is small', () => {
    const small = summarizeHeuristically(toolRequest({ maxOutputTokens: 200 }));
    expect(codePointLength(small)).toBeLessThanOrEqual(800);
    expect(small).toContain('TS2345');
    expect(small).toContain('ValueError');
    expect(small).toContain('bash `npm install`: error');
  });

  it('reports an exit code in an otherwise quiet output as a failure', () => {
    const quiet = summarizeHeuristically({
      kind: 'tool_results',
      messages: [call('x', 'make'), result('x', 'building\nmake: *** [all] Error 2\nexit code 2')],
      text: '',
      maxOutputTokens: 500,
    });
    expect(quiet).toContain('- bash `make`: failed (exit code 2)');
  });
});

describe('summarizeHeuristically: checkpoints', () => {
  const checkpoint = summarizeHeuristically({
    kind: 'compaction',
    messages: conversation,
    text: '',
    maxOutputTokens: 4000,
  });

  it('has the sections of the model prompt, filled from the messages', () => {
    for (const title of SUMMARY_SECTIONS.compaction) expect(checkpoint).toContain(`## ${title}`);
    for (const part of SUMMARY_SECTIONS.progress) expect(checkpoint).toContain(`### ${part}`);
    const goal = checkpoint.slice(checkpoint.indexOf('## Goal'), checkpoint.indexOf('## Constraints'));
    expect(goal).toContain('Fix the failing parser tests in src/parser/tokenize.ts');
    expect(goal).toContain('Also make sure the CLI still starts.');
    expect(checkpoint).toContain('- Do not change the public API.');
    expect(checkpoint).toContain('src/parser/tokenize.ts (modified)');
    expect(checkpoint).toContain('bash `npx vitest run` → error');
    expect(checkpoint).toContain('edit `src/parser/tokenize.ts` → ok');
    expect(checkpoint).toContain('- [ ] I decided to use Number() instead of parseInt because it rejects junk.');
    expect(checkpoint).toContain("ValueError: invalid literal for int() with base 10: 'abc'");
    expect(checkpoint).toContain('ERESOLVE: unable to resolve dependency tree');
    expect(checkpoint).toContain('Continue the latest request: Also make sure the CLI still starts.');
  });

  it('carries the previous summary over, merged section by section', () => {
    const previous =
      '## Goal\n- Ship v2 of the parser\n\n## Key Decisions\n- **zod**: validates config\n\nA loose note';
    const updated = summarizeHeuristically({
      kind: 'compaction',
      messages: conversation,
      text: '',
      previousSummary: previous,
      instructions: 'keep the CLI details',
      maxOutputTokens: 4000,
    });
    const goal = updated.slice(updated.indexOf('## Goal'), updated.indexOf('## Constraints'));
    expect(goal.indexOf('- Ship v2 of the parser')).toBeLessThan(goal.indexOf('Fix the failing parser tests'));
    expect(updated).toContain('- **zod**: validates config');
    expect(updated).toContain('A loose note');
    expect(updated).toContain('Focus requested: keep the CLI details');
  });

  it('does not take a source file that mentions errors for a failure', () => {
    const read: Message[] = [
      { role: 'user', content: 'Explain src/guard.ts' },
      {
        role: 'assistant',
        content: [{ type: 'toolCall', id: 'r', name: 'read', arguments: { path: 'src/guard.ts' } }],
      },
      {
        role: 'toolResult',
        toolCallId: 'r',
        toolName: 'read',
        content: [{ type: 'text', text: "if (!ok) throw new Error('bad input');" }],
      },
    ];
    const summary = summarizeHeuristically({ kind: 'compaction', messages: read, text: '', maxOutputTokens: 2000 });
    const blocked = summary.slice(summary.indexOf('### Blocked'), summary.indexOf('## Key Decisions'));
    expect(blocked).toContain('(none recorded)');
    expect(summary).toContain('read `src/guard.ts` → ok');
  });

  it('summarizes an abandoned branch under the branch headings', () => {
    const branch = summarizeHeuristically({ kind: 'branch', messages: conversation, text: '', maxOutputTokens: 4000 });
    for (const title of SUMMARY_SECTIONS.branch) expect(branch).toContain(`## ${title}`);
    expect(branch).toContain('bash `npm install` → error');
  });

  it('writes a minimal checkpoint for no messages, and stays within a small budget', () => {
    const empty = summarizeHeuristically({ kind: 'compaction', messages: [], text: '', maxOutputTokens: 1000 });
    expect(empty).toContain('## Goal');
    expect(empty).toContain('(none recorded)');
    const tight = summarizeHeuristically({
      kind: 'compaction',
      messages: conversation,
      text: '',
      maxOutputTokens: 100,
    });
    expect(codePointLength(tight)).toBeLessThanOrEqual(400);
    expect(tight).toContain('## Goal');
  });
});

describe('heuristicSummarizer', () => {
  it('answers with the heuristic summary, and rejects once aborted', async () => {
    const request = toolRequest();
    await expect(heuristicSummarizer.summarize(request)).resolves.toBe(summarizeHeuristically(request));
    await expect(heuristicSummarizer.summarize({ ...request, signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('never throws on malformed input', () => {
    const broken = { kind: 'compaction', messages: [{ role: 'user' }, null, 7], text: '', maxOutputTokens: Number.NaN };
    expect(summarizeHeuristically(broken as unknown as SummaryRequest)).toBeTruthy();
  });
});

const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.constantFrom('error: boom', 'FAIL a.test.ts', 'exit code 1', 'src/a.ts:1:2', '😀'.repeat(50), '\n\n'),
);
const message: fc.Arbitrary<Message> = fc.oneof(
  fc.record({ role: fc.constant('user' as const), content: text }),
  fc.record({
    role: fc.constant('assistant' as const),
    content: fc.array(
      fc.oneof(
        fc.record({ type: fc.constant('text' as const), text }),
        fc.record({ type: fc.constant('thinking' as const), thinking: text }),
        fc.record({
          type: fc.constant('toolCall' as const),
          id: fc.constantFrom('a', 'b', 'c'),
          name: fc.constantFrom('bash', 'edit', 'read'),
          arguments: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 })),
        }),
      ),
      { maxLength: 4 },
    ),
  }),
  fc.record({
    role: fc.constant('toolResult' as const),
    toolCallId: fc.constantFrom('a', 'b', 'c', 'd'),
    toolName: fc.constantFrom('bash', 'edit'),
    content: fc.array(fc.record({ type: fc.constant('text' as const), text }), { maxLength: 3 }),
    isError: fc.boolean(),
  }),
);

describe('summarizeHeuristically: properties', () => {
  test.prop([
    fc.constantFrom('compaction' as const, 'tool_results' as const, 'branch' as const),
    fc.array(message, { maxLength: 30 }),
    fc.integer({ min: 1, max: 2000 }),
    fc.option(text, { nil: undefined }),
  ])(
    'never throws, is non-empty, deterministic and within budget',
    (kind, messages, maxOutputTokens, previousSummary) => {
      const request: SummaryRequest = { kind, messages, text: '', maxOutputTokens, previousSummary };
      const snapshot = structuredClone(messages);
      const summary = summarizeHeuristically(request);
      expect(summary.trim().length).toBeGreaterThan(0);
      expect(summary).not.toMatch(/malformed/);
      expect(codePointLength(summary)).toBeLessThanOrEqual(Math.max(64, maxOutputTokens * 4));
      expect(summarizeHeuristically(request)).toBe(summary);
      expect(messages).toEqual(snapshot);
    },
  );
});

describe('summarizeHeuristically: many tool results in a small budget', () => {
  const many = (count: number): Message[] =>
    Array.from({ length: count }, (_, index) => [
      call(`c${index}`, `npm run step${index}`),
      result(
        `c${index}`,
        `step ${index}\n${'ok\n'.repeat(50)}${index === count - 1 ? 'src/a.ts:3:4 - error TS2322: bad\nexit code 2' : 'done'}`,
        index === count - 1,
      ),
    ]).flat();

  it('keeps every result, briefly, within 200 tokens (800 code points) instead of cutting the middle out', () => {
    for (const count of [10, 15, 30, 60]) {
      const text = summarizeHeuristically({
        kind: 'tool_results',
        messages: many(count),
        text: '',
        maxOutputTokens: 200,
      });
      expect(Array.from(text).length).toBeLessThanOrEqual(800);
      expect(text).not.toContain('[…]');
      expect(text).toContain('npm run step0');
      expect(text).toContain(`npm run step${count - 2}`);
      expect(text).toContain(`npm run step${count - 1}`);
      expect(text).toContain('error TS2322');
    }
  });

  it('describes each result by the nearest call before it when ids are reused', () => {
    const text = summarizeHeuristically({
      kind: 'tool_results',
      messages: [
        call('x', 'npm run lint'),
        result('x', 'clean'),
        call('x', 'npm test'),
        result('x', 'FAIL parser', true),
      ],
      text: '',
      maxOutputTokens: 200,
    });
    expect(text).toMatch(/npm run lint`: ok/);
    expect(text).toMatch(/npm test`: error/);
  });
});
