import { oneLine } from '../../internal/one-line.js';
import type { ToolCall, ToolResultMessage } from '../../types.js';
import { contentText } from '../serialize-conversation.js';
import { parseToolOutput } from '../tool-output/parse-tool-output.js';
import type { ParsedToolOutput, ToolOutputFormat } from '../tool-output/parsed-tool-output.js';
import { telling } from '../tool-output/render-tool-output.js';
import { DIAGNOSTIC_FORMATS, reportsFailure } from '../tool-output/reports-failure.js';
import { lineRank, meaningfulLines } from '../tool-output-highlights.js';
import type { AnchorList } from './anchor-list.js';
import { commandOf, isModifying, outcomeOf, pathsOf } from './tool-facts.js';
import { clipWords, KEY_CHARS, TEXT_CHARS } from './user-words.js';

/** Linters: their warnings are their verdict, whether or not the run failed. */
const LINTERS = new Set<ToolOutputFormat>(['eslint', 'biome']);
/** Outputs that report places and files rather than problems: grep's matches, git's changed files. */
const REPORTING_FORMATS = new Set<ToolOutputFormat>(['grep', 'git-status', 'git-diff']);
/** A file of `git diff --stat` as the parser notes it: `path | 12 ++--`, `path | Bin 0 -> 17 bytes`. */
const STAT_NOTE = /^(\S.*?) \| (\d+(?: [+-]+)?|Bin.*)$/;
/** The path `--stat` names, and the path it was renamed from (`dir/{old => new}`, `old => new`). */
function renamedPaths(named: string): [string, string | undefined] {
  const tidy = (path: string) => bare(path.replace(/\/{2,}/g, '/'));
  const braces = /^(.*)\{([^{}]*) => ([^{}]*)\}(.*)$/.exec(named);
  if (braces) {
    const [, head, old, now, tail] = braces;
    return [tidy(`${head}${now}${tail}`), tidy(`${head}${old}${tail}`)];
  }
  const arrow = /^(.+?) => (.+)$/.exec(named);
  return arrow ? [tidy(arrow[2]!), tidy(arrow[1]!)] : [tidy(named), undefined];
}

/** Errors, failing tests, matches or files anchored per tool result at most. */
const ITEMS_PER_RESULT = 40;

/**
 * A test's name as a key: without its suites (`suite > test`, `suite › test`) and without the file a
 * pytest id starts with (`test_a.py::Class::test` → `Class::test`); a Rust path (`tests::parses`) is
 * the name cargo reports, so it stays whole. The full name when the rest is too short to recognise.
 */
function leafName(test: string): string {
  const parts = test.split(/ > | › /);
  const leaf = parts[parts.length - 1]!.trim().replace(/^[^\s:]+\.\w+::/, '');
  return leaf.length >= 6 ? leaf : test;
}

/**
 * Code points of a problem's message as its anchor writes it; the summary must keep all of them for
 * its error or failing test to count as kept.
 */
const MESSAGE_CHARS = 100;

/** A problem's message as its anchor writes it (a key): its first words, on one line. */
function messageOf(message: string | undefined): string {
  return clipWords(oneLine(message ?? ''), MESSAGE_CHARS);
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

/** What a search or a VCS command reported: each match (`path:line text`) or changed file, as anchors. */
function reportedAnchors(parsed: ParsedToolOutput, source: string | undefined, list: AnchorList): void {
  const from = source === undefined ? {} : { sources: [source] };
  let added = 0;
  for (const note of parsed.notes) {
    if (added >= ITEMS_PER_RESULT) break;
    if (parsed.format === 'grep') {
      const place = /^(\S+?:\d+)(?=\s|$)/.exec(note)?.[1] ?? (/\s/.test(note) ? undefined : note);
      if (!place) continue;
      // The place as the tool wrote it (`./app/a.py:2` stays so).
      list.add({ category: 'match', text: clipWords(oneLine(note), TEXT_CHARS), keys: [place], ...from });
      added++;
    } else if (parsed.format === 'git-status') {
      const change = /^(modified|deleted|added|renamed|untracked|conflicted|copied|typechange|new file): (.+)$/.exec(
        note,
      );
      if (!change) continue;
      const path = bare(change[2]!.replace(/^.* -> /, ''));
      list.add({ category: 'file-changed', text: `${path} (${change[1]})`, keys: [path], ...from });
      added++;
    } else if (parsed.format === 'git-diff') {
      const stat = STAT_NOTE.exec(note);
      if (stat) {
        // `--stat`: `path | 12 ++--`, a rename as `dir/{old => new}` or `old => new` (the new path changed).
        const [path, from0] = renamedPaths(stat[1]!);
        const was = from0 === undefined ? '' : `renamed from ${from0}, `;
        list.add({ category: 'file-changed', text: `${path} (${was}${stat[2]!})`, keys: [path], ...from });
        added++;
        continue;
      }
      const path = /^(\S+)(?: \([^)]*\))? [+]\d+ -\d+/.exec(note)?.[1];
      if (!path) continue;
      list.add({
        category: 'file-changed',
        text: `${bare(path)} (${note.slice(path.length).trim()})`,
        keys: [bare(path)],
        ...from,
      });
      added++;
    }
  }
}

/** The errors and failing tests of one tool result, each with the command that reported it among its `sources`. */
function resultAnchors(
  output: string,
  parsed: ParsedToolOutput,
  source: string | undefined,
  failed: boolean,
  list: AnchorList,
): void {
  // Tests this output reports passing are no longer failing, whoever reported them.
  const passing = passingTests(output);
  if (passing.size > 0)
    list.deleteWhere(
      (anchor) => anchor.category === 'failing-test' && passing.has((anchor.keys[0] ?? '').toLowerCase()),
    );
  if (REPORTING_FORMATS.has(parsed.format)) reportedAnchors(parsed, source, list);
  if (!failed && !DIAGNOSTIC_FORMATS.has(parsed.format)) return;
  const from = source === undefined ? {} : { sources: [source] };
  let added = 0;
  for (const problem of parsed.problems) {
    if (added >= ITEMS_PER_RESULT) break;
    // A failing test, or a test's own error (pytest's `ERROR at setup of …`): the test's name, where
    // it failed and why, each a key, so a summary that names the test but drops its place or its
    // assertion has not kept it.
    if (problem.severity === 'failure' || (problem.test && problem.severity === 'error')) {
      const test = problem.test ?? problem.message;
      if (!test) continue;
      const where = problem.location ? ` (${problem.location})` : '';
      const message = problem.message === test ? '' : messageOf(problem.message);
      const keys = [leafName(test), ...(problem.location ? [problem.location] : []), ...(message ? [message] : [])];
      list.add({ category: 'failing-test', text: `✗ ${test}${where}${message ? ` — ${message}` : ''}`, keys, ...from });
      added++;
      continue;
    }
    // Warnings count where they are the tool's verdict (a linter's, failed or not; clippy's when the
    // build passed), not beside the errors of a failed build.
    if (problem.severity === 'warning' && !LINTERS.has(parsed.format) && !(parsed.format === 'cargo' && !failed))
      continue;
    if (!problem.code && !problem.location && EXIT_STATUS_ONLY.test((problem.message ?? '').trim())) continue;
    const message = messageOf(problem.message);
    const keys = [problem.code, problem.location, message].filter((key): key is string => Boolean(key));
    if (keys.length === 0) continue;
    const head = [problem.location, problem.code].filter(Boolean).join(' ');
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

/** A command as its anchors know it: how its latest run ended, and the keys a summary must keep. */
export interface CommandState {
  /** `` `npx tsc` → failed (exit 2): 10 errors `` */
  text: string;
  ok: boolean;
  /** The command, its exit status when the output stated it (`exit 2`, `exit 0`) and the counts its run reported. */
  keys: string[];
}

/**
 * The facts of one tool result: the files its call read or changed, its command with how it ended
 * and what its run counted, its errors and failing tests, and what a search or git reported. Fills
 * `state` (files and commands are settled once all messages are read).
 *
 * @internal
 */
export function toolResultAnchors(
  message: ToolResultMessage,
  call: ToolCall | undefined,
  state: { list: AnchorList; files: Map<string, boolean>; commands: Map<string, CommandState> },
): void {
  const output = contentText(message.content);
  const command = call ? commandOf(call) : undefined;
  const parsed = parseToolOutput(output, command === undefined ? {} : { command });
  const outcome = withVerdict(outcomeOf(message, output), parsed);
  if (call) {
    const changed = isModifying(call) && outcome.ok;
    for (const path of pathsOf(call).map(bare)) state.files.set(path, changed || state.files.get(path) === true);
  }
  const key = command === undefined ? undefined : clipWords(oneLine(command), KEY_CHARS);
  const source = key ?? (call ? toolRun(call) : undefined);
  if (command !== undefined && key !== undefined) {
    const counts = telling(parsed.counts).map((count) => clipWords(oneLine(count), MESSAGE_CHARS));
    const exit = /\(exit (-?\d+)\)/.exec(outcome.label)?.[1];
    state.commands.delete(key);
    state.commands.set(key, {
      text: `\`${clipWords(oneLine(command), 160)}\` → ${outcome.label}${counts.length > 0 ? `: ${counts.join('; ')}` : ''}`,
      ok: outcome.ok,
      // The exit status is a fact whenever the output stated it, a success's too (`exit 0`).
      keys: [key, ...(exit === undefined ? [] : [`exit ${exit}`]), ...counts],
    });
  }
  // This run states afresh what the command (or the same tool on the same files) reports: its
  // errors, failing tests, matches, changed files. What an earlier run reported and this one does
  // not is resolved, unless another command's latest run still reports it.
  if (source !== undefined) state.list.withdraw(source);
  resultAnchors(output, parsed, source, !outcome.ok, state.list);
}

/**
 * How a run ended when its host did not say (no exit status, no error flag): a compiler, test runner
 * or package manager that reports errors or failing tests failed (tsc, pytest, cargo and npm exit
 * non-zero then), so it is not written `ok`. A linter's warnings are not a failure.
 */
function withVerdict(
  outcome: { ok: boolean; label: string },
  parsed: ParsedToolOutput,
): { ok: boolean; label: string } {
  return outcome.label === 'ok' && reportsFailure(parsed) ? { ok: false, label: 'failed' } : outcome;
}

/**
 * What a call that runs no shell command restates when it runs again: its tool with the files or the
 * address it names (`typecheck`, `read src/a.ts`, `fetch https://…`), so a tool's next run on the same
 * files resolves the errors its last run reported there.
 */
function toolRun(call: ToolCall): string {
  const url = typeof call.arguments?.['url'] === 'string' ? [call.arguments['url']] : [];
  return clipWords(oneLine([call.name, ...pathsOf(call).map(bare), ...url].join(' ')), KEY_CHARS);
}
