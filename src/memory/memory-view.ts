import type { MemoryViewCommand } from './memory-commands.js';
import { MEMORY_ROOT, parentMemoryPath, resolveMemoryPath } from './memory-path.js';
import { Refusal, resolveField } from './memory-refusal.js';
import type { MemoryEntry, MemoryStore } from './memory-store.js';
import type { MemoryToolLimits } from './memory-tool-limits.js';

/** How many levels below the viewed directory a listing shows. */
const LISTING_DEPTH = 2;
/** Characters kept free for a truncation notice. */
const NOTICE_ROOM = 120;

/** A file or directory found by {@link walkMemory}, with its depth below the start. */
export interface WalkedEntry extends MemoryEntry {
  depth: number;
}

/** Names a listing leaves out: dotfiles and `node_modules`. */
export function isHiddenName(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.startsWith('.') || name === 'node_modules';
}

/** What a bounded walk found, and whether it stopped at its budget before seeing everything. */
export interface MemoryWalk {
  entries: WalkedEntry[];
  /** True when the walk stopped at `atMost` entries: there may be more. */
  stopped: boolean;
}

/**
 * The entries below `path` (depth first, children sorted by name), hidden ones included unless
 * `skipHidden` is set, at most `atMost` of them (files and directories alike): bounded work however
 * many entries a host planted there.
 */
export async function walkMemory(options: {
  store: MemoryStore;
  path: string;
  atMost: number;
  skipHidden?: boolean;
}): Promise<MemoryWalk> {
  const found: WalkedEntry[] = [];
  let stopped = false;
  const visit = async (directory: string, depth: number): Promise<void> => {
    const room = options.atMost - found.length;
    const listed = await listChildren(options.store, directory, room + 1);
    if (listed.length > room) stopped = true;
    const children = listed.slice(0, room).sort((a, b) => (a.path < b.path ? -1 : 1));
    for (const child of children) {
      if (found.length >= options.atMost) {
        stopped = true;
        return;
      }
      if (options.skipHidden && isHiddenName(child.path)) continue;
      found.push({ ...child, depth });
      if (child.kind === 'directory') await visit(child.path, depth + 1);
    }
  };
  await visit(options.path, 1);
  return { entries: found, stopped };
}

/**
 * The children a store lists for `directory` (at most `limit`), keeping only entries whose path is a
 * valid, normalised name directly below it, so a store that lists an entry twice or under the wrong
 * parent cannot make a walk loop.
 */
async function listChildren(store: MemoryStore, directory: string, limit: number): Promise<MemoryEntry[]> {
  const seen = new Set<string>();
  const listed = await store.list(directory, { limit });
  return listed.slice(0, limit).filter((child) => {
    const resolved = resolveMemoryPath(child.path);
    if (!resolved.ok || resolved.path !== child.path || parentMemoryPath(child.path) !== directory) return false;
    if (child.path === directory || seen.has(child.path)) return false;
    seen.add(child.path);
    return true;
  });
}

/** Files and directories below a path, each count stopping at its cap. */
export interface MemoryCounts {
  files: number;
  directories: number;
  /** True when counting stopped at a cap: the real counts may be higher. */
  stopped: boolean;
}

/**
 * Counts the files and directories below `path`, stopping as soon as either reaches its cap: bounded
 * work (at most `maxFiles + maxDirectories` entries listed) however many entries a host put there.
 */
export async function countMemoryEntries(options: {
  store: MemoryStore;
  path: string;
  maxFiles: number;
  maxDirectories: number;
}): Promise<MemoryCounts> {
  const counts: MemoryCounts = { files: 0, directories: 0, stopped: false };
  const full = () => counts.files >= options.maxFiles || counts.directories >= options.maxDirectories;
  const visit = async (directory: string): Promise<void> => {
    const room = options.maxFiles - counts.files + (options.maxDirectories - counts.directories) + 1;
    for (const child of await listChildren(options.store, directory, room)) {
      if (full()) {
        counts.stopped = true;
        return;
      }
      if (child.kind === 'file') counts.files++;
      else {
        counts.directories++;
        await visit(child.path);
      }
    }
  };
  await visit(options.path);
  return counts;
}

/** A size as `du -h` would print it: `512B`, `1.5K`, `2.0M`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}K`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}M`;
}

/**
 * The listing `view` shows for a directory: sizes (directories total their visible files), two
 * levels deep, walking at most `atMost` entries (then sizes count only what was walked, and a notice
 * says so).
 */
export async function formatListing(options: { store: MemoryStore; path: string; atMost: number }): Promise<string> {
  const { entries, stopped } = await walkMemory({
    store: options.store,
    path: options.path,
    atMost: options.atMost,
    skipHidden: true,
  });
  const totals = new Map<string, number>();
  for (const entry of entries) {
    if (entry.kind !== 'file') continue;
    for (let parent = parentMemoryPath(entry.path); ; parent = parentMemoryPath(parent)) {
      totals.set(parent, (totals.get(parent) ?? 0) + entry.size);
      if (parent === options.path || parent === MEMORY_ROOT) break;
    }
  }
  const total = (directory: string) => totals.get(directory) ?? 0;
  const lines = [`${formatSize(total(options.path))}\t${options.path}/`];
  for (const entry of entries) {
    if (entry.depth > LISTING_DEPTH) continue;
    lines.push(
      entry.kind === 'directory'
        ? `${formatSize(total(entry.path))}\t${entry.path}/`
        : `${formatSize(entry.size)}\t${entry.path}`,
    );
  }
  if (stopped) {
    lines.push(
      `[stopped after ${options.atMost} entries: there are more, and sizes count only those; view a subdirectory]`,
    );
  }
  const header = `Directory ${options.path} (${LISTING_DEPTH} levels deep; hidden items and node_modules not shown):`;
  return entries.length === 0 && !stopped ? `${header}\n${lines[0]}\n(empty)` : `${header}\n${lines.join('\n')}`;
}

/** Lines numbered like `cat -n`: the number right-aligned in six columns, a tab, the line. */
export function numberLines(options: { lines: readonly string[]; first: number }): string {
  return options.lines.map((line, index) => `${String(options.first + index).padStart(6)}\t${line}`).join('\n');
}

/**
 * Cuts `text` to at most `maxCharacters` (UTF-16 units, the notice included), at a line break when
 * one is near, never inside a surrogate pair, and appends `notice`.
 */
export function truncateOutput(options: { text: string; maxCharacters: number; notice: string }): string {
  const { text, maxCharacters, notice } = options;
  if (text.length <= maxCharacters) return text;
  const room = Math.max(0, maxCharacters - notice.length - 1);
  let cut = text.slice(0, room);
  const lineBreak = cut.lastIndexOf('\n');
  if (lineBreak > room / 2) cut = cut.slice(0, lineBreak);
  else if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}\n${notice}`;
}

/**
 * Runs `view`: a listing of a directory, or a file's numbered lines, cut at `maxViewCharacters`. A
 * file is read only up to `maxFileBytes` (the most a memory file may hold), so a huge file a host
 * planted costs no more than that; the output says what was cut.
 */
export async function viewMemory(options: {
  command: MemoryViewCommand;
  store: MemoryStore;
  limits: MemoryToolLimits;
}): Promise<string> {
  const { command, limits } = options;
  const target = resolveField('path', command.path);
  const entry = await options.store.stat(target);
  if (entry === undefined) throw new Refusal(`${target} does not exist; view ${MEMORY_ROOT} to see what is there`);
  const max = limits.maxViewCharacters;
  if (entry.kind === 'directory') {
    if (command.view_range) throw new Refusal(`view_range only applies to files, and ${target} is a directory`);
    const atMost = limits.maxFiles + limits.maxDirectories;
    const listing = await formatListing({ store: options.store, path: target, atMost });
    return truncateOutput({ text: listing, maxCharacters: max, notice: '[listing truncated: view a subdirectory]' });
  }
  const text = await options.store.read(target, { maxBytes: limits.maxFileBytes });
  const readBytes = utf8Length(text, limits.maxFileBytes + 1);
  const cut = entry.size > limits.maxFileBytes || readBytes > limits.maxFileBytes;
  const lines = (readBytes > limits.maxFileBytes ? clipUtf8(text, limits.maxFileBytes) : text).split('\n');
  if (cut && lines.length > 1) lines.pop();
  const linesNote = cut ? ` in the first ${limits.maxFileBytes} bytes read` : '';
  let [start, end] = command.view_range ?? [1, -1];
  if (end === -1) end = lines.length;
  if (start < 1 || start > lines.length || end < start || end > lines.length) {
    throw new Refusal(
      `view_range [${command.view_range?.join(', ')}] is invalid for ${target}, which has ${lines.length} lines${linesNote}; ` +
        `use [start, end] with 1 <= start <= end <= ${lines.length}, or end -1 for the last line`,
    );
  }
  const header = cut
    ? `Contents of ${target} with line numbers (the file is ${entry.size} bytes, over the ${limits.maxFileBytes}-byte ` +
      `limit of a memory file: only its first ${limits.maxFileBytes} bytes were read, ${lines.length} whole lines; ` +
      'delete it or ask the user to shorten it):'
    : `Contents of ${target} with line numbers:`;
  let used = header.length;
  let count = 0;
  for (let index = start - 1; index < end; index++) {
    const added = lines[index]!.length + 8;
    if (used + added > max) break;
    used += added;
    count++;
  }
  if (count === end - start + 1)
    return `${header}\n${numberLines({ lines: lines.slice(start - 1, end), first: start })}`;
  // Not everything fits: keep whole lines with room for the notice.
  used = header.length;
  count = 0;
  for (let index = start - 1; index < end; index++) {
    used += lines[index]!.length + 8;
    if (used > max - NOTICE_ROOM) break;
    count++;
  }
  if (count === 0) {
    const notice = `[line ${start} is longer than ${max} characters and was cut]`;
    const first = `${header}\n${numberLines({ lines: [lines[start - 1]!.slice(0, max)], first: start })}`;
    return truncateOutput({ text: first, maxCharacters: max, notice });
  }
  const shown = numberLines({ lines: lines.slice(start - 1, start - 1 + count), first: start });
  return `${header}\n${shown}\n[truncated at ${max} characters; view the rest with view_range [${start + count}, -1]]`;
}

/** UTF-8 bytes of `text`, counting stops once past `atMost`. */
export function utf8Length(text: string, atMost: number): number {
  let bytes = 0;
  for (let index = 0; index < text.length && bytes <= atMost; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}

/** The longest prefix of `text` of at most `maxBytes` UTF-8 bytes, never splitting a character. */
function clipUtf8(text: string, maxBytes: number): string {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code >= 0xd800 && code <= 0xdbff ? 4 : 3;
    if (bytes + size > maxBytes) return text.slice(0, index);
    bytes += size;
    if (size === 4) index++;
  }
  return text;
}
