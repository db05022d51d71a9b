import type { ToolCall, ToolResultMessage } from '../../types.js';
import { contentText } from '../serialize-conversation.js';
import { parseToolOutput } from '../tool-output/parse-tool-output.js';
import type { ToolOutputFormat } from '../tool-output/parsed-tool-output.js';
import type { AnchorList } from './anchor-list.js';
import { commandOf, isModifying, outcomeOf, pathsOf } from './tool-facts.js';
import { clipWords, KEY_CHARS, oneLine } from './user-words.js';

/** Outputs whose diagnostics are facts even when the command exited 0 (a linter's warnings are not). */
const DIAGNOSTIC_FORMATS = new Set<ToolOutputFormat>([
  'tsc',
  'eslint',
  'biome',
  'node-test',
  'vitest',
  'jest',
  'pytest',
  'go-test',
  'cargo',
  'npm',
  'pip',
]);
const LINTERS = new Set<ToolOutputFormat>(['eslint', 'biome', 'cargo']);
const ERRORS_PER_RESULT = 40;

/** The last part of a test's name (`suite > test`), unless it is too short to recognise alone. */
function leafName(test: string): string {
  const parts = test.split(/ > | › |::/);
  const leaf = parts[parts.length - 1]!.trim();
  return leaf.length >= 6 ? leaf : test;
}

/** A path without its leading `./`. */
function bare(path: string): string {
  return path.replace(/^\.\//, '');
}

/** The errors and failing tests of one tool result. */
function resultAnchors(output: string, command: string | undefined, failed: boolean, list: AnchorList): void {
  const parsed = parseToolOutput(output, command === undefined ? {} : { command });
  if (!failed && !DIAGNOSTIC_FORMATS.has(parsed.format)) return;
  let added = 0;
  for (const problem of parsed.problems) {
    if (added >= ERRORS_PER_RESULT) break;
    if (problem.severity === 'failure') {
      const test = problem.test ?? problem.message;
      if (!test) continue;
      const where = problem.location ? ` (${problem.location})` : '';
      const why = problem.message ? ` — ${clipWords(problem.message, 100)}` : '';
      list.add({ category: 'failing-test', text: `✗ ${test}${where}${why}`, keys: [leafName(test)] });
      added++;
      continue;
    }
    // Warnings count where they are the tool's verdict (a linter's), not beside errors of a failed build.
    if (problem.severity === 'warning' && (failed || !LINTERS.has(parsed.format))) continue;
    const keys = [problem.code, problem.location].filter((key): key is string => Boolean(key));
    if (keys.length === 0 && problem.message) keys.push(clipWords(problem.message, 100));
    if (keys.length === 0) continue;
    const head = [problem.location, problem.code].filter(Boolean).join(' ');
    const message = problem.message ? clipWords(problem.message, 120) : '';
    list.add({ category: 'error', text: head && message ? `${head}: ${message}` : head || message, keys });
    added++;
  }
}

/**
 * The facts of one tool result: the files its call read or changed, its command with how it ended,
 * and its errors and failing tests. Fills `state` (files and commands are settled once all messages
 * are read).
 *
 * @internal
 */
export function toolResultAnchors(
  message: ToolResultMessage,
  call: ToolCall | undefined,
  state: { list: AnchorList; files: Map<string, boolean>; commands: Map<string, { text: string; ok: boolean }> },
): void {
  const output = contentText(message.content);
  const outcome = outcomeOf(message, output);
  const command = call ? commandOf(call) : undefined;
  if (call) {
    const changed = isModifying(call) && outcome.ok;
    for (const path of pathsOf(call).map(bare)) state.files.set(path, changed || state.files.get(path) === true);
  }
  if (command !== undefined) {
    const key = clipWords(oneLine(command), KEY_CHARS);
    state.commands.delete(key);
    state.commands.set(key, { text: `\`${clipWords(oneLine(command), 160)}\` → ${outcome.label}`, ok: outcome.ok });
  }
  resultAnchors(output, command, !outcome.ok, state.list);
}
