/** git status, git diff, git log and grep / ripgrep output. Internal. */
import { squash } from './lines.js';
import { emptyResult, type ParserResult } from './parser-result.js';

const STATUS_LONG =
  /^\s+(modified|new file|deleted|renamed|copied|typechange|both modified|both added|deleted by us|deleted by them):\s+(.+)$/;
/** A short-form entry (` M path`, `?? path`, `UU path`): never two blanks, which is an indented line of the long form (`   pick 8d839c2 …` under a rebase's `Last command done`). */
const STATUS_SHORT = /^(?! {2})([ MADRCU?!]{2}) (.+)$/;
const BRANCH = /^(On branch .+|HEAD detached .+|## .+|Your branch is .+|You are currently \w+ .+)$/;

/** git status, long and short forms: the branch and each changed, staged or untracked path. @internal */
export function parseGitStatus(lines: readonly string[]): ParserResult {
  const result = emptyResult();
  const counts = new Map<string, number>();
  const add = (state: string, path: string) => {
    counts.set(state, (counts.get(state) ?? 0) + 1);
    result.notes.push(`${state}: ${path}`);
  };
  let untracked = false;
  for (const line of lines) {
    if (BRANCH.test(line)) {
      result.notes.push(line.replace(/^## /, 'branch '));
      continue;
    }
    if (/^Untracked files:/.test(line)) {
      untracked = true;
      continue;
    }
    if (/^(Changes|Unmerged paths)/.test(line)) {
      untracked = false;
      continue;
    }
    const long = STATUS_LONG.exec(line);
    if (long) {
      add(long[1]!, long[2]!.trim());
      continue;
    }
    if (untracked && /^\t\S/.test(line)) {
      add('untracked', line.trim());
      continue;
    }
    const short = STATUS_SHORT.exec(line);
    if (short && !/^\s*\(/.test(line)) {
      const code = short[1]!;
      const state =
        code === '??'
          ? 'untracked'
          : code.includes('D')
            ? 'deleted'
            : code.includes('A')
              ? 'new file'
              : code.includes('R')
                ? 'renamed'
                : code.includes('U')
                  ? 'conflict'
                  : 'modified';
      add(state, short[2]!);
    }
  }
  if (counts.size > 0) result.counts.push([...counts].map(([state, count]) => `${count} ${state}`).join(', '));
  return result;
}

const DIFF_FILE = /^diff --git a\/(.+?) b\/(.+)$/;
const STAT_LINE = /^\s*(\S.*?)\s+\|\s+(\d+|Bin.*?)\s*([+-]*)$/;
const STAT_TOTAL = /^\s*\d+ files? changed/;

/** git diff (patch or `--stat`): each file with its added and removed lines, and the hunks' places. @internal */
export function parseGitDiff(lines: readonly string[]): ParserResult {
  const result = emptyResult();
  let file: { path: string; added: number; removed: number; hunks: string[]; state?: string } | undefined;
  const files: NonNullable<typeof file>[] = [];
  for (const line of lines) {
    const header = DIFF_FILE.exec(line);
    if (header) {
      file = { path: header[2]!, added: 0, removed: 0, hunks: [] };
      files.push(file);
      continue;
    }
    if (STAT_TOTAL.test(line)) {
      result.counts.push(squash(line));
      continue;
    }
    const stat = STAT_LINE.exec(line);
    if (stat && !file) {
      result.notes.push(`${stat[1]} | ${stat[2]} ${stat[3]}`.trim());
      continue;
    }
    if (!file) continue;
    if (line.startsWith('@@')) {
      const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
      if (hunk && hunk[1] !== '0' && file.hunks.length < 8) file.hunks.push(hunk[1]!);
    } else if (line.startsWith('+') && !line.startsWith('+++')) file.added++;
    else if (line.startsWith('-') && !line.startsWith('---')) file.removed++;
    else if (/^(new|deleted) file mode/.test(line)) file.state = line.startsWith('new') ? 'new' : 'deleted';
    else if (line.startsWith('rename from ')) file.state = `renamed from ${line.slice('rename from '.length)}`;
  }
  for (const entry of files) {
    const state = entry.state ? ` (${entry.state})` : '';
    const where = entry.hunks.length ? ` @ line${entry.hunks.length > 1 ? 's' : ''} ${entry.hunks.join(', ')}` : '';
    result.notes.push(`${entry.path}${state} +${entry.added} -${entry.removed}${where}`);
  }
  if (files.length > 0 && result.counts.length === 0) {
    const added = files.reduce((sum, entry) => sum + entry.added, 0);
    const removed = files.reduce((sum, entry) => sum + entry.removed, 0);
    result.counts.push(`${files.length} file${files.length === 1 ? '' : 's'} changed, +${added} -${removed}`);
  }
  return result;
}

const LOG_COMMIT = /^commit ([0-9a-f]{7,40})\b/;
const LOG_ONELINE = /^(?:[*|\\/ ]+)?([0-9a-f]{7,40}) (?:\([^)]*\) )?(.+)$/;
/** Commits listed at most; the count says how many there were. */
const LOG_COMMITS = 40;
/** `git bisect`'s verdict, printed above the commit it found (in the medium form). */
const BISECT_FOUND = /^([0-9a-f]{7,40}) is the first bad commit$/;

/**
 * git log (medium form, with or without `--stat` or `-p`, and `--oneline`): how many commits, and
 * each by its short hash and subject. A commit message is what was written, not what went wrong:
 * its lines are never problems. @internal
 */
export function parseGitLog(lines: readonly string[]): ParserResult {
  const result = emptyResult();
  let commits = 0;
  /** The commit whose subject is the next indented line, in the medium form. */
  let pending: string | undefined;
  const add = (hash: string, subject: string) => {
    commits++;
    if (result.notes.length < LOG_COMMITS) result.notes.push(`${hash.slice(0, 7)} ${squash(subject)}`);
  };
  const medium = lines.some((line) => LOG_COMMIT.test(line));
  for (const line of lines) {
    const culprit = BISECT_FOUND.exec(line);
    if (culprit) {
      result.counts.push(`first bad commit ${culprit[1]!.slice(0, 7)}`);
      continue;
    }
    if (medium) {
      const commit = LOG_COMMIT.exec(line);
      if (commit) {
        if (pending) add(pending, '');
        pending = commit[1]!;
      } else if (pending && /^ {4}\S/.test(line)) {
        add(pending, line.trim());
        pending = undefined;
      }
      continue;
    }
    const oneline = LOG_ONELINE.exec(line);
    if (oneline) add(oneline[1]!, oneline[2]!);
  }
  if (pending) add(pending, '');
  if (commits > 0) result.counts.push(`${commits} commit${commits === 1 ? '' : 's'}`);
  return result;
}

const MATCH_WITH_PATH = /^((?:[A-Za-z]:)?[^\s:]+):(\d+)(?::(\d+))?[:-](.*)$/;
/** A context line of `grep -C` (`path-12-text`) or ripgrep's heading form (`12-text`), and the `--` between groups. */
const CONTEXT_LINE = /^(?:(?:[A-Za-z]:)?[^\s:]+?-)?\d+-|^--$/;
const MATCH_PATH_ONLY = /^((?:[A-Za-z]:)?[^\s:]+\.\w+):(.*)$/;
const HEADING_MATCH = /^(\d+)(?::\d+)?:(.*)$/;

/** Code points of a match's text kept in its note. */
const MATCH_TEXT_CHARS = 100;

/**
 * grep and ripgrep (`path:line:text`, `path:text`, or ripgrep's heading form): the total, and every
 * match as its own `path:line text` note, in the order found, so none is folded into a count; the
 * context lines of `-C` (`path-12-text`, `--`) are skipped. @internal
 */
export function parseGrep(lines: readonly string[]): ParserResult {
  const result = emptyResult();
  const files = new Set<string>();
  let heading: string | undefined;
  /** A path alone (`grep -l`, or a ripgrep heading before its lines): a note of its own if no lines follow. */
  let pathAlone: string | undefined;
  const flush = () => {
    if (pathAlone !== undefined) result.notes.push(pathAlone);
    pathAlone = undefined;
  };
  let total = 0;
  const add = (path: string, where: string, text: string) => {
    if (path !== pathAlone) flush();
    pathAlone = undefined;
    total++;
    files.add(path);
    const said = squash(text);
    result.notes.push(
      said ? `${where} ${said.length > MATCH_TEXT_CHARS ? `${said.slice(0, MATCH_TEXT_CHARS)}…` : said}` : where,
    );
  };
  for (const line of lines) {
    if (!line.trim()) {
      flush();
      heading = undefined;
      continue;
    }
    const withPath = MATCH_WITH_PATH.exec(line);
    if (!withPath && CONTEXT_LINE.test(line)) continue;
    if (withPath) {
      add(withPath[1]!, `${withPath[1]}:${withPath[2]}${withPath[3] ? `:${withPath[3]}` : ''}`, withPath[4]!);
      continue;
    }
    const inHeading = heading === undefined ? null : HEADING_MATCH.exec(line);
    if (inHeading && heading !== undefined) {
      add(heading, `${heading}:${inHeading[1]}`, inHeading[2]!);
      continue;
    }
    const pathOnly = MATCH_PATH_ONLY.exec(line);
    if (pathOnly) {
      add(pathOnly[1]!, pathOnly[1]!, pathOnly[2]!);
      continue;
    }
    if (/^\S+$/.test(line) && /[/.]/.test(line)) {
      flush();
      heading = line;
      if (!files.has(line)) {
        files.add(line);
        pathAlone = line;
      }
    }
  }
  flush();
  result.counts.push(
    `${total || files.size} match${(total || files.size) === 1 ? '' : 'es'} in ${files.size} file${files.size === 1 ? '' : 's'}`,
  );
  return result;
}
