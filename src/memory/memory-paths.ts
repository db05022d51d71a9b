import { assertObjectArgument, assertStringArgument } from '../validation/assert-argument.js';
import { isWellFormedText } from './internal/well-formed-text.js';

// Memory paths: the virtual `/memories/…` tree the model names, normalised and checked before a store
// sees them.

/** The root of the memory tree as the model sees it. Every memory path starts with it. */
export const MEMORY_ROOT = '/memories';

/** The longest path accepted, in UTF-8 bytes. */
const MAX_PATH_BYTES = 1024;
/** The longest single name accepted, in UTF-8 bytes (the limit of most file systems). */
const MAX_NAME_BYTES = 255;

const encoder = new TextEncoder();

/**
 * The outcome of {@link resolveMemoryPath}: a normalised virtual path, or why the path was refused.
 *
 * @example
 * ```ts
 * const resolved: MemoryPathResult = resolveMemoryPath('/memories/notes.md');
 * if (resolved.ok) console.log(resolved.segments); // ['notes.md']
 * ```
 */
export type MemoryPathResult = { ok: true; path: string; segments: readonly string[] } | { ok: false; reason: string };

const PERCENT_SEQUENCE = /%[0-9a-f]{2}/gi;

/** Decodes `%XX` sequences byte by byte, over and over, until nothing changes (at most 8 rounds). */
function decodeRepeatedly(value: string): string {
  let current = value;
  for (let round = 0; round < 8; round++) {
    const next = current.replace(PERCENT_SEQUENCE, (sequence) =>
      String.fromCharCode(Number.parseInt(sequence.slice(1), 16)),
    );
    if (next === current) return current;
    current = next;
  }
  return current;
}

/** C0 and C1 control characters, DEL, NUL and the Unicode line and paragraph separators. */
function hasControlCharacter(value: string): boolean {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029) return true;
  }
  return false;
}

/**
 * Invisible characters that make two names look alike: format characters (zero-width space and
 * joiners, bidirectional controls, the byte order mark, the soft hyphen), the combining grapheme
 * joiner and the Hangul fillers.
 */
const INVISIBLE = /\p{Cf}|\u034f|[\u115f\u1160\u3164\uffa0]/u;

function describeDecoded(decoded: string): string {
  if (/(^|[/\\])\.\.([/\\]|$)/.test(decoded)) return 'decodes to a ".." traversal';
  if (decoded.includes('\\')) return 'decodes to a backslash';
  if (hasControlCharacter(decoded)) return 'decodes to a control character';
  if (decoded.includes('/')) return 'decodes to a "/"';
  return 'contains percent-encoded characters';
}

function quote(value: string): string {
  const shown = value.length > 80 ? `${value.slice(0, 80)}…` : value;
  return JSON.stringify(shown);
}

/**
 * Checks a path given by the model and returns it normalised (Unicode NFC, no trailing slash), or the
 * reason it is refused. Accepted paths are `/memories` or `/memories/<name>/…` where no name is empty,
 * `.` or `..`, and the path holds no backslash, control character, NUL byte, `:`, percent-encoded
 * sequence (decoded repeatedly, so `%252e%252e` is caught too), lone UTF-16 surrogate or invisible
 * formatting character (zero-width characters, bidirectional controls), which would let two names look
 * alike. A path that only shares the prefix, such as `/memories-evil/x`, is refused. Names are at most
 * 255 and paths at most 1,024 bytes in UTF-8. One trailing slash is allowed.
 *
 * This is a pure string check: stores that map paths onto something real (a directory on disk) must
 * still confine what the path resolves to, symbolic links included.
 *
 * @param path - The path as the model sent it; anything that is not a string (`null`, a number) is
 *   refused too, never thrown on.
 * @returns The normalised path and its names below the root, or the reason for refusing it.
 *
 * @example
 * ```ts
 * resolveMemoryPath('/memories/projects/'); // { ok: true, path: '/memories/projects', segments: ['projects'] }
 * resolveMemoryPath('/memories/../etc/passwd'); // { ok: false, reason: 'path "…" contains a ".." segment; …' }
 * ```
 */
export function resolveMemoryPath(path: string): MemoryPathResult {
  const refuse = (problem: string): MemoryPathResult => ({
    ok: false,
    reason: `path ${quote(path)} ${problem}`,
  });
  if (typeof path !== 'string') {
    return {
      ok: false,
      reason: `path must be a string such as ${MEMORY_ROOT}/notes.md, received ${path === null ? 'null' : typeof path}`,
    };
  }
  if (path === '') return refuse(`is empty; use a path such as ${MEMORY_ROOT}/notes.md`);
  if (path.length > MAX_PATH_BYTES || encoder.encode(path).length > MAX_PATH_BYTES) {
    return refuse(`is longer than ${MAX_PATH_BYTES} bytes in UTF-8; use a shorter path`);
  }
  if (hasControlCharacter(path)) {
    return refuse('contains a control character or NUL byte; use printable characters only');
  }
  if (!isWellFormedText(path)) return refuse('contains a lone UTF-16 surrogate; send well-formed Unicode');
  if (INVISIBLE.test(path)) {
    return refuse('contains an invisible formatting character (zero-width or bidirectional control); remove it');
  }
  if (path.includes('\\')) return refuse('contains a backslash; separate names with "/"');
  const decoded = decodeRepeatedly(path);
  if (decoded !== path) return refuse(`${describeDecoded(decoded)}; write plain characters, not %XX escapes`);
  if (path !== MEMORY_ROOT && !path.startsWith(`${MEMORY_ROOT}/`)) {
    return refuse(`is outside the memory directory; every path must start with ${MEMORY_ROOT}/`);
  }
  const rest = path.slice(MEMORY_ROOT.length + 1).normalize('NFC');
  const trimmed = rest.endsWith('/') ? rest.slice(0, -1) : rest;
  if (trimmed === '') return { ok: true, path: MEMORY_ROOT, segments: [] };
  const segments = trimmed.split('/');
  for (const segment of segments) {
    if (segment === '') return refuse('contains an empty name ("//"); remove the extra slash');
    if (segment === '.' || segment === '..') {
      return refuse(`contains a "${segment}" segment; use a path below ${MEMORY_ROOT}/ without "." or ".."`);
    }
    if (segment.includes(':')) return refuse('contains ":"; use names without colons');
    const bytes = encoder.encode(segment).length;
    if (bytes > MAX_NAME_BYTES) {
      return refuse(`has a name of ${bytes} bytes; names are limited to ${MAX_NAME_BYTES} bytes in UTF-8`);
    }
  }
  return { ok: true, path: `${MEMORY_ROOT}/${segments.join('/')}`, segments };
}

/**
 * The parent of a normalised memory path (the root is its own parent). Takes trusted input: a path
 * {@link resolveMemoryPath} returned, never the model's raw text.
 *
 * @param path - A path returned by {@link resolveMemoryPath}.
 * @returns The parent path.
 *
 * @example
 * ```ts
 * parentMemoryPath('/memories/a/b.md'); // '/memories/a'
 * ```
 */
export function parentMemoryPath(path: string): string {
  assertStringArgument(path, 'parentMemoryPath', 'path');
  const index = path.lastIndexOf('/');
  return index <= MEMORY_ROOT.length - 1 ? MEMORY_ROOT : path.slice(0, index);
}

/**
 * Whether `path` is `ancestor` itself or lies below it (by whole names, so `/memories/a` does not
 * contain `/memories/ab`). Takes trusted input: paths {@link resolveMemoryPath} returned.
 *
 * @param options - The two normalised paths.
 * @returns True when `path` is inside `ancestor`.
 *
 * @example
 * ```ts
 * isWithinMemoryPath({ path: '/memories/a/b', ancestor: '/memories/a' }); // true
 * ```
 */
export function isWithinMemoryPath(options: { path: string; ancestor: string }): boolean {
  assertObjectArgument(options, 'isWithinMemoryPath', 'options');
  const { path, ancestor } = options;
  assertStringArgument(path, 'isWithinMemoryPath', 'options.path');
  assertStringArgument(ancestor, 'isWithinMemoryPath', 'options.ancestor');
  return path === ancestor || path.startsWith(`${ancestor}/`);
}
