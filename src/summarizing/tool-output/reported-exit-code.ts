/** The exit status a host or a shell reported about a run, read from the run's output. Internal. */

/** `Exit code: 1`, `Process exited with code 2`, `exit status 1`, `(exit status: 101)`, `[exit 3]`. */
const EXIT_STATEMENT =
  /(?:\b(?:exit(?:ed)?(?: with)?(?: code| status)|exit_code|returncode)|\[exit)\s*[:=]?\s*(-?\d+)\b/i;
/** A line a search printed (`path:12:` or `path-12-`): what the run found, not what it says of itself. */
const MATCH_LINE = /^[^\s:]+:\d+[:-]/;
/** How many non-empty lines at the end, and at the start, a status is looked for on. */
const LAST_LINES = 5;
const FIRST_LINES = 3;

/**
 * The exit status an output reports, if it does. Hosts and shells write it after the output
 * (`Command exited with code 2`) or before it (`Exit code: 1` then the output), so only the last five
 * and the first three non-empty lines are read, the last report first: a commit message, a log line
 * or a matched line of a script that says `exit code 2` in the middle of an output is the output's
 * text, not the run's status.
 *
 * @internal
 */
export function reportedExitCode(lines: readonly string[]): number | undefined {
  const edges: string[] = [];
  for (let index = lines.length - 1; index >= 0 && edges.length < LAST_LINES; index--)
    if (lines[index]!.trim()) edges.push(lines[index]!);
  let first = 0;
  for (let index = 0; index < lines.length && first < FIRST_LINES; index++) {
    if (!lines[index]!.trim()) continue;
    first++;
    if (!edges.includes(lines[index]!)) edges.push(lines[index]!);
  }
  for (const line of edges) {
    if (!/exit|returncode/i.test(line) || MATCH_LINE.test(line)) continue;
    const match = EXIT_STATEMENT.exec(line);
    if (match) return Number(match[1]);
  }
  return undefined;
}
