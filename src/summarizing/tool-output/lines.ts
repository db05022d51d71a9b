/** Line helpers shared by the tool-output parsers. Internal. */
import { codePointLength } from '../../internal/clip-text.js';
import { clipItem } from '../heuristic/clip-item.js';

/** A terminal colour or cursor code (`\u001b[31m`). @internal */
export const ANSI_ESCAPE = /* @__PURE__ */ (() => new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, 'g'))();

/**
 * Lines of an output without terminal colour codes, trailing spaces or carriage returns. A line a
 * progress meter rewrote in place (`  0 …\r100 5078k …`) is what the terminal showed last: the text
 * after its last carriage return.
 *
 * @internal
 */
export function splitOutputLines(text: string): string[] {
  const plain = text.includes('\u001b') ? text.replace(ANSI_ESCAPE, '') : text;
  const lines = plain.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!.trimEnd();
    const rewritten = line.lastIndexOf('\r');
    lines[index] = rewritten === -1 ? line : line.slice(rewritten + 1);
  }
  return lines;
}

/** Spaces collapsed, trimmed. @internal */
export function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The indentation of a line, in characters. @internal */
export function indentOf(line: string): number {
  let index = 0;
  while (index < line.length && (line[index] === ' ' || line[index] === '\t')) index++;
  return index;
}

/** A `file://` URL or an absolute path under a working directory made relative where obvious. @internal */
export function cleanLocation(location: string): string {
  const plain = location.replace(/^file:\/\//, '').replace(/^\(|\)$/g, '');
  return relativePath(plain);
}

const PROJECT_FOLDER = /\/(src|test|tests|lib|pkg|spec|__tests__|dist|cmd|internal|packages)\//;

/**
 * An absolute path from the project's first well-known folder on (`/home/dev/app/test/a.js` →
 * `test/a.js`), so the same file reads the same in every tool's output; other paths unchanged.
 *
 * @internal
 */
export function relativePath(path: string): string {
  if (!path.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(path)) return path;
  const match = PROJECT_FOLDER.exec(path.replace(/\\/g, '/'));
  return match ? path.replace(/\\/g, '/').slice(match.index + 1) : path;
}

/**
 * A whole line of an output no parser read, within `width`: its start and its end, each cut between
 * words, around ` … `. Such a line often says why at its end, after a timestamp and a context
 * (`2026-11-26 15:52:40,134 ERROR sync: job 7: upload of … [Errno 111] Connection refused`).
 *
 * @internal
 */
export function clipLine(line: string, width: number): string {
  if (codePointLength(line) <= width) return line;
  const words = line.split(/\s+/);
  let tail = '';
  for (let index = words.length - 1; index > 0; index--) {
    const longer = `${words[index]} ${tail}`.trim();
    if (codePointLength(longer) > (width - 3) * 0.4) break;
    tail = longer;
  }
  // The start within what the end leaves, cut between words and marked ` …` (a long last word, an
  // address, leaves the start alone, cut where it must).
  const head = clipItem(line, width - codePointLength(tail) - (tail ? 1 : 0));
  return tail ? `${head} ${tail}` : head;
}
