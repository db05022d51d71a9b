// The errors a heuristic checkpoint states for a tool's output, on the recorded runs of real tools
// (`npm run corpus`): a problem's message longer than an error line allows is cut between words and
// marked ` …`, as the checkpoint's other items are, never inside a word.
import { readFileSync } from 'node:fs';
import { heuristicSummarizer } from 'ctxkit';
import { toolCallMessage, toolResultMessage, userMessage } from 'ctxkit/testing';
import { describe, expect, it } from 'vitest';

interface Corpus {
  entries: { name: string; command: string; output: string }[];
}
const corpus = JSON.parse(
  readFileSync(new URL('../fixtures/tool-outputs/real/corpus.json', import.meta.url), 'utf8'),
) as Corpus;

/** The output as words, colours dropped, each also without the quotes around it (parsers drop them). */
function wordsOf(output: string): Set<string> {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes
  const words = output.replace(/\x1b\[[0-9;]*m/g, '').split(/\s+/);
  return new Set([...words, ...words.map((word) => word.replace(/^['"`]+|['"`]+$/g, ''))]);
}

/** Marks and the checkpoint's own notation on an error line (a rule as its code, `lint/…:`): not words of the output. */
const NOTATION = /^(…|✗|—|>|-|\+|\(\+\d+|more\)|[A-Z]+\d+:?|lint\/[\w/]+:|\S+:\d+(:\d+)?)$/;

async function errorLines(command: string, output: string): Promise<string[]> {
  const answer = await heuristicSummarizer.summarize({
    kind: 'compaction',
    text: '',
    maxOutputTokens: 2_000,
    messages: [
      userMessage('Get the checks green.'),
      toolCallMessage([{ id: 'c1', name: 'bash', arguments: { command } }]),
      toolResultMessage('c1', output, { toolName: 'bash' }),
    ],
  });
  const text = typeof answer === 'string' ? answer : answer.text;
  const prefix = `- bash \`${command}\`: `;
  return text
    .split('\n')
    .filter((line) => line.startsWith(prefix) && !line.includes(' → '))
    .map((line) => line.slice(prefix.length));
}

describe('heuristic checkpoint error lines on real tool output', () => {
  // Runs with a failure message longer than an error line allows, followed by another failure.
  const cut = corpus.entries.filter((entry) =>
    ['vitest', 'vitest-colour', 'pytest', 'pytest-tb-short'].includes(entry.name),
  );

  it('has runs whose problem messages are longer than an error line allows', () => {
    expect(cut.length).toBe(4);
  });

  it.each(corpus.entries.map((entry) => [entry.name, entry] as const))(
    '%s: every word on its error lines is a whole word of the output',
    async (_, entry) => {
      const words = wordsOf(entry.output);
      for (const line of await errorLines(entry.command, entry.output)) {
        for (const token of line.split(/\s+/)) {
          const word = token.replace(/;$/, '');
          if (NOTATION.test(word) || words.has(word)) continue;
          // A test's name joins its suites with ` > `; the checkpoint's parts end with `;`.
          expect.soft(`${word} in ${line}`).toBe('a whole word of the output');
        }
      }
    },
  );

  it.each(cut.map((entry) => [entry.name, entry] as const))(
    '%s: a message cut short ends with ` …`',
    async (_, entry) => {
      const lines = await errorLines(entry.command, entry.output);
      // The cut message, then the next problem.
      expect(lines.join('\n')).toMatch(/\S …; ✗ /);
    },
  );
});
