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

/**
 * Every entry below `path` (depth first, children sorted by name), hidden ones included unless
 * `skipHidden` is set.
 */
export async function walkMemory(options: {
  store: MemoryStore;
  path: string;
  skipHidden?: boolean;
}): Promise<WalkedEntry[]> {
  const found: WalkedEntry[] = [];
  const visit = async (directory: string, depth: number): Promise<void> => {
    const children = (await listChildren(options.store, directory)).sort((a, b) => (a.path < b.path ? -1 : 1));
    for (const child of children) {
      if (options.skipHidden && isHiddenName(child.path)) continue;
      found.push({ ...child, depth });
      if (child.kind === 'directory') await visit(child.path, depth + 1);
    }
  };
  await visit(options.path, 1);
  return found;
}

/**
 * The children a store lists for `directory`, keeping only entries whose path is a valid, normalised
 * name directly below it, so a store that lists an entry twice or under the wrong parent cannot make a
 * walk loop.
 */
async function listChildren(store: MemoryStore, directory: string): Promise<MemoryEntry[]> {
  const seen = new Set<string>();
  return (await store.list(directory)).filter((child) => {
    const resolved = resolveMemoryPath(child.path);
    if (!resolved.ok || resolved.path !== child.path || parentMemoryPath(child.path) !== directory) return false;
    if (child.path === directory || seen.has(child.path)) return false;
    seen.add(child.path);
    return true;
  });
}

/**
 * Counts the files below `path`, stopping at `atMost`: bounded work however many files a host put
 * there.
 */
export async function countMemoryFiles(options: { store: MemoryStore; path: string; atMost: number }): Promise<number> {
  let count = 0;
  const visit = async (directory: string): Promise<void> => {
    for (const child of await listChildren(options.store, directory)) {
      if (count >= options.atMost) return;
      if (child.kind === 'file') count++;
      else await visit(child.path);
    }
  };
  await visit(options.path);
  return Math.min(count, options.atMost);
}

/** A size as `du -h` would print it: `512B`, `1.5K`, `2.0M`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}K`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}M`;
}

/** The listing `view` shows for a directory: sizes (directories total their visible files), two levels deep. */
export async function formatListing(options: { store: MemoryStore; path: string }): Promise<string> {
  const entries = await walkMemory({ store: options.store, path: options.path, skipHidden: true });
  const total = (directory: string) =>
    entries
      .filter((entry) => entry.kind === 'file' && entry.path.startsWith(`${directory}/`))
      .reduce((sum, entry) => sum + entry.size, 0);
  const lines = [`${formatSize(total(options.path))}\t${options.path}/`];
  for (const entry of entries) {
    if (entry.depth > LISTING_DEPTH) continue;
    lines.push(
      entry.kind === 'directory'
        ? `${formatSize(total(entry.path))}\t${entry.path}/`
        : `${formatSize(entry.size)}\t${entry.path}`,
    );
  }
  const header = `Directory ${options.path} (${LISTING_DEPTH} levels deep; hidden items and node_modules not shown):`;
  return entries.length === 0 ? `${header}\n${lines[0]}\n(empty)` : `${header}\n${lines.join('\n')}`;
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

/** Runs `view`: a listing of a directory, or a file's numbered lines, cut at `maxViewCharacters`. */
export async function viewMemory(options: {
  command: MemoryViewCommand;
  store: MemoryStore;
  limits: MemoryToolLimits;
}): Promise<string> {
  const { command } = options;
  const target = resolveField('path', command.path);
  const entry = await options.store.stat(target);
  if (entry === undefined) throw new Refusal(`${target} does not exist; view ${MEMORY_ROOT} to see what is there`);
  const max = options.limits.maxViewCharacters;
  if (entry.kind === 'directory') {
    if (command.view_range) throw new Refusal(`view_range only applies to files, and ${target} is a directory`);
    const listing = await formatListing({ store: options.store, path: target });
    return truncateOutput({ text: listing, maxCharacters: max, notice: '[listing truncated: view a subdirectory]' });
  }
  const lines = (await options.store.read(target)).split('\n');
  let [start, end] = command.view_range ?? [1, -1];
  if (end === -1) end = lines.length;
  if (start < 1 || start > lines.length || end < start || end > lines.length) {
    throw new Refusal(
      `view_range [${command.view_range?.join(', ')}] is invalid for ${target}, which has ${lines.length} lines; ` +
        `use [start, end] with 1 <= start <= end <= ${lines.length}, or end -1 for the last line`,
    );
  }
  const selected = lines.slice(start - 1, end);
  const header = `Contents of ${target} with line numbers:`;
  const full = `${header}\n${numberLines({ lines: selected, first: start })}`;
  if (full.length <= max) return full;
  let used = header.length;
  let count = 0;
  for (const line of selected) {
    used += line.length + 8;
    if (used > max - NOTICE_ROOM) break;
    count++;
  }
  if (count === 0) {
    const notice = `[line ${start} is longer than ${max} characters and was cut]`;
    return truncateOutput({ text: full, maxCharacters: max, notice });
  }
  const shown = numberLines({ lines: selected.slice(0, count), first: start });
  return `${header}\n${shown}\n[truncated at ${max} characters; view the rest with view_range [${start + count}, -1]]`;
}
