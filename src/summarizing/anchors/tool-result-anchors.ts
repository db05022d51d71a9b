import type { ToolCall, ToolResultMessage } from '../../types.js';
import { contentText } from '../serialize-conversation.js';
import { parseToolOutput } from '../tool-output/parse-tool-output.js';
import type { ToolOutputFormat } from '../tool-output/parsed-tool-output.js';
import { lineRank, meaningfulLines } from '../tool-output-highlights.js';
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

/** A line that states only how a command ended (`Exit code 1`): not an error's message. */
const EXIT_STATUS_ONLY =
  /^(?:\(?command\)?\s*)?(?:exit(?:ed)?(?:\s+with)?(?:\s+(?:code|status))?|exit_code|returncode|process exited with code)\s*[:=]?\s*-?\d+\.?$/i;

/** A test a runner reports passing: TAP `ok 3 - name`, spec `✔ name (1ms)`, pytest `…::name PASSED`, cargo `test name ... ok`, go `--- PASS: Name`. */
const PASSING_TEST =
  /^\s*ok \d+ - (.+?)(?:\s+#.*)?$|^\s*[✔✓√]\s+(.+?)(?:\s+\(\d[\d.]*\s*m?s\))?$|^(\S+::\S+) PASSED\b|^test (\S+) \.\.\. ok$|^\s*--- PASS: (\S+)/;

/** The names of the tests an output reports passing, as their leaf names. */
function passingTests(output: string): Set<string> {
  const names = new Set<string>();
  for (const line of output.split('\n')) {
    const match = PASSING_TEST.exec(line);
    const name = match?.slice(1).find((group) => group !== undefined);
    if (name) names.add(leafName(name.trim()).toLowerCase());
  }
  return names;
}

/** The errors and failing tests of one tool result, each with the command that reported it as `source`. */
function resultAnchors(
  output: string,
  command: string | undefined,
  source: string | undefined,
  failed: boolean,
  list: AnchorList,
): void {
  const parsed = parseToolOutput(output, command === undefined ? {} : { command });
  // Tests this output reports passing are no longer failing, whoever reported them.
  const passing = passingTests(output);
  if (passing.size > 0)
    list.deleteWhere(
      (anchor) => anchor.category === 'failing-test' && passing.has((anchor.keys[0] ?? '').toLowerCase()),
    );
  if (!failed && !DIAGNOSTIC_FORMATS.has(parsed.format)) return;
  const from = source === undefined ? {} : { source };
  let added = 0;
  for (const problem of parsed.problems) {
    if (added >= ERRORS_PER_RESULT) break;
    if (problem.severity === 'failure') {
      const test = problem.test ?? problem.message;
      if (!test) continue;
      const where = problem.location ? ` (${problem.location})` : '';
      const why = problem.message ? ` — ${clipWords(problem.message, 100)}` : '';
      list.add({ category: 'failing-test', text: `✗ ${test}${where}${why}`, keys: [leafName(test)], ...from });
      added++;
      continue;
    }
    // Warnings count where they are the tool's verdict (a linter's), not beside errors of a failed build.
    if (problem.severity === 'warning' && (failed || !LINTERS.has(parsed.format))) continue;
    if (!problem.code && !problem.location && EXIT_STATUS_ONLY.test((problem.message ?? '').trim())) continue;
    const keys = [problem.code, problem.location].filter((key): key is string => Boolean(key));
    if (keys.length === 0 && problem.message) keys.push(clipWords(problem.message, 100));
    if (keys.length === 0) continue;
    const head = [problem.location, problem.code].filter(Boolean).join(' ');
    const message = problem.message ? clipWords(problem.message, 120) : '';
    list.add({ category: 'error', text: head && message ? `${head}: ${message}` : head || message, keys, ...from });
    added++;
  }
  // A failed run whose output the parsers read nothing from: its most telling line, never the
  // line that only states the exit status.
  if (failed && added === 0) {
    const said = tellingLine(output);
    if (said) list.add({ category: 'error', text: clipWords(said, 120), keys: [clipWords(said, 100)], ...from });
  }
}

/** The line of a failed output that says most: the highest-ranked, else the last, not an exit status. */
function tellingLine(output: string): string | undefined {
  let best: string | undefined;
  let bestRank = -1;
  for (const line of meaningfulLines(output)) {
    const text = oneLine(line);
    if (EXIT_STATUS_ONLY.test(text)) continue;
    const rank = lineRank(text);
    if (rank >= bestRank) {
      best = text;
      bestRank = rank;
    }
  }
  return best;
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
  const key = command === undefined ? undefined : clipWords(oneLine(command), KEY_CHARS);
  if (command !== undefined && key !== undefined) {
    state.commands.delete(key);
    state.commands.set(key, { text: `\`${clipWords(oneLine(command), 160)}\` → ${outcome.label}`, ok: outcome.ok });
    // This run states the command's errors and failing tests afresh: what an earlier run of it
    // reported and this one does not is resolved.
    state.list.deleteWhere(
      (anchor) => anchor.source === key && (anchor.category === 'error' || anchor.category === 'failing-test'),
    );
  }
  resultAnchors(output, command, key, !outcome.ok, state.list);
}
