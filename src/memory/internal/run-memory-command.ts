import type {
  MemoryCommand,
  MemoryCreateCommand,
  MemoryInsertCommand,
  MemoryRenameCommand,
  MemoryStrReplaceCommand,
  MemoryViewCommand,
} from '../memory-commands.js';
import { isWithinMemoryPath, MEMORY_ROOT, parentMemoryPath, resolveMemoryPath } from '../memory-paths.js';
import type { MemoryEntry, MemoryStore } from '../memory-store.js';
import type { MemoryToolLimits, MemoryToolResult } from '../memory-tool-limits.js';

// Runs one checked memory command against a MemoryStore: the six commands, then what they share in
// the order they use it: viewing a file or a directory listing, walking the tree, the parents a path
// needs, reading a file to edit, the refusals the model reads, and output cut to the limits.

/** Everything a command needs. */
interface RunOptions {
  store: MemoryStore;
  limits: MemoryToolLimits;
}

const encoder = new TextEncoder();

async function create(command: MemoryCreateCommand, options: RunOptions): Promise<string> {
  const target = resolveField('path', command.path);
  if (target === MEMORY_ROOT) throw new Refusal(`${MEMORY_ROOT} is the memory directory; create a file inside it`);
  if (command.path.endsWith('/')) {
    throw new Refusal(`path ${JSON.stringify(command.path)}: a file path cannot end with "/"; use ${target}`);
  }
  const entry = await options.store.stat(target);
  if (entry?.kind === 'directory') throw new Refusal(`${target} is a directory; choose a file name inside it`);
  if (entry) {
    throw new Refusal(`${target} already exists; use str_replace or insert to change it, or delete it first`);
  }
  checkSize(target, command.file_text, options.limits);
  await checkAncestors(target, options);
  const { maxFiles, maxDirectories } = options.limits;
  const counts = await countMemoryEntries({ store: options.store, path: MEMORY_ROOT, maxFiles, maxDirectories });
  if (counts.files >= maxFiles) {
    throw new Refusal(
      `the memory already holds ${counts.stopped ? 'at least ' : ''}${counts.files} files, the limit is ${maxFiles}; ` +
        'merge or delete files before creating new ones',
    );
  }
  if (counts.directories > maxDirectories) {
    throw new Refusal(
      `the memory already holds ${counts.stopped ? 'at least ' : ''}${counts.directories} directories, over the ` +
        `limit of ${maxDirectories}; delete or merge directories before creating files`,
    );
  }
  const newDirectories = await missingAncestors(target, options);
  if (counts.directories + newDirectories > maxDirectories) {
    throw new Refusal(
      `the memory already holds ${counts.stopped ? 'at least ' : ''}${counts.directories} directories and ${target} ` +
        `would add ${newDirectories}, the limit is ${maxDirectories}; use fewer, shallower directories`,
    );
  }
  await options.store.write(target, command.file_text, { overwrite: false });
  return `Created ${target} (${encoder.encode(command.file_text).length} bytes)`;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

async function strReplace(command: MemoryStrReplaceCommand, options: RunOptions): Promise<string> {
  const target = resolveField('path', command.path);
  const text = await readEditableFile(target, options);
  const { old_str: old } = command;
  const matches: number[] = [];
  for (let at = text.indexOf(old); at !== -1; at = text.indexOf(old, at + old.length)) matches.push(at);
  if (matches.length === 0) {
    throw new Refusal(
      `old_str was not found in ${target}; view the file and copy the exact text, whitespace and line breaks included`,
    );
  }
  if (matches.length > 1) {
    const lines = [...new Set(matches.map((at) => lineOf(text, at)))];
    const shown = lines.slice(0, 10).join(', ') + (lines.length > 10 ? ', …' : '');
    throw new Refusal(
      `old_str occurs ${matches.length} times in ${target} (lines ${shown}); ` +
        'include more surrounding text so it occurs exactly once',
    );
  }
  const at = matches[0]!;
  const overlapping = text.indexOf(old, at + 1);
  if (overlapping !== -1 && overlapping < at + old.length) {
    throw new Refusal(
      `old_str matches 2 overlapping places in ${target} (line ${lineOf(text, at)}); ` +
        'include more surrounding text so it matches exactly one place',
    );
  }
  const next = text.slice(0, at) + command.new_str + text.slice(at + command.old_str.length);
  checkSize(target, next, options.limits);
  await options.store.write(target, next, { overwrite: true });
  const lines = next.split('\n');
  const first = Math.max(1, lineOf(next, at) - 2);
  const last = Math.min(lines.length, lineOf(next, at + command.new_str.length) + 2);
  const snippet = numberLines({ lines: lines.slice(first - 1, last), first });
  const result = `Edited ${target}. Lines ${first}-${last} now read:\n${snippet}`;
  return truncateOutput({
    text: result,
    maxCharacters: options.limits.maxViewCharacters,
    notice: '[snippet truncated]',
  });
}

async function insert(command: MemoryInsertCommand, options: RunOptions): Promise<string> {
  const target = resolveField('path', command.path);
  const lines = (await readEditableFile(target, options)).split('\n');
  if (command.insert_line > lines.length) {
    throw new Refusal(
      `insert_line ${command.insert_line} is past the end of ${target}, which has ${lines.length} lines; ` +
        `use 0 to ${lines.length}`,
    );
  }
  const insertText = command.insert_text.endsWith('\n') ? command.insert_text.slice(0, -1) : command.insert_text;
  const added = insertText.split('\n');
  const next = [...lines.slice(0, command.insert_line), ...added, ...lines.slice(command.insert_line)].join('\n');
  checkSize(target, next, options.limits);
  await options.store.write(target, next, { overwrite: true });
  return `Inserted ${added.length} line${added.length === 1 ? '' : 's'} into ${target} after line ${command.insert_line}`;
}

async function remove(target: string, options: RunOptions): Promise<string> {
  if (target === MEMORY_ROOT) throw new Refusal(`${MEMORY_ROOT} itself cannot be deleted; delete the entries in it`);
  const entry = await options.store.stat(target);
  if (entry === undefined) throw new Refusal(`${target} does not exist; view ${MEMORY_ROOT} to see what is there`);
  if (entry.kind === 'file') {
    await options.store.delete(target);
    await pruneEmptyParents(target, options);
    return `Deleted ${target}`;
  }
  const { maxFiles, maxDirectories } = options.limits;
  const counts = await countMemoryEntries({ store: options.store, path: target, maxFiles, maxDirectories });
  await options.store.delete(target);
  await pruneEmptyParents(target, options);
  const files = `${counts.stopped ? 'at least ' : ''}${counts.files} file${counts.files === 1 ? '' : 's'}`;
  return `Deleted the directory ${target} and the ${files} in it`;
}

async function rename(command: MemoryRenameCommand, options: RunOptions): Promise<string> {
  const from = resolveField('old_path', command.old_path);
  const to = resolveField('new_path', command.new_path);
  if (from === MEMORY_ROOT || to === MEMORY_ROOT) {
    throw new Refusal(`${MEMORY_ROOT} itself cannot be renamed or replaced; rename entries inside it`);
  }
  if (from === to) throw new Refusal(`old_path and new_path are both ${from}; give a different new_path`);
  if (isWithinMemoryPath({ path: to, ancestor: from })) {
    throw new Refusal(`new_path ${to} is inside old_path ${from}; a directory cannot be moved into itself`);
  }
  if ((await options.store.stat(from)) === undefined) {
    throw new Refusal(`old_path ${from} does not exist; view ${MEMORY_ROOT} to see what is there`);
  }
  if ((await options.store.stat(to)) !== undefined) {
    throw new Refusal(`new_path ${to} already exists; delete it first or choose another name`);
  }
  await checkAncestors(to, options);
  const newDirectories = await missingAncestors(to, options);
  if (newDirectories > 0) {
    const { maxFiles, maxDirectories } = options.limits;
    const counts = await countMemoryEntries({ store: options.store, path: MEMORY_ROOT, maxFiles, maxDirectories });
    if (counts.directories + newDirectories > maxDirectories) {
      throw new Refusal(
        `the memory already holds ${counts.stopped ? 'at least ' : ''}${counts.directories} directories and moving ` +
          `${from} to ${to} would add ${newDirectories}, the limit is ${maxDirectories}; choose a shallower new_path`,
      );
    }
  }
  await options.store.rename(from, to);
  await pruneEmptyParents(from, options);
  return `Renamed ${from} to ${to}`;
}

/**
 * Runs one validated command against a store. Expected refusals come back as `{ error }`; failures of
 * the store are thrown for the caller to turn into a result.
 *
 * @internal
 */
export async function runMemoryCommand(options: RunOptions & { command: MemoryCommand }): Promise<MemoryToolResult> {
  const { command } = options;
  try {
    switch (command.command) {
      case 'view':
        return { content: await viewMemory({ store: options.store, limits: options.limits, command }) };
      case 'create':
        return { content: await create(command, options) };
      case 'str_replace':
        return { content: await strReplace(command, options) };
      case 'insert':
        return { content: await insert(command, options) };
      case 'delete':
        return { content: await remove(resolveField('path', command.path), options) };
      case 'rename':
        return { content: await rename(command, options) };
    }
  } catch (error) {
    if (error instanceof Refusal) return { error: error.message };
    throw error;
  }
}

/** Characters kept free for a truncation notice. */
const NOTICE_ROOM = 120;

/**
 * Runs `view`: a listing of a directory, or a file's numbered lines, cut at `maxViewCharacters`. A
 * file is read only up to `maxFileBytes` (the most a memory file may hold), so a huge file a host
 * planted costs no more than that; the output says what was cut.
 *
 * @internal
 */
async function viewMemory(options: {
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

/** How many levels below the viewed directory a listing shows. */
const LISTING_DEPTH = 2;

/**
 * A size as `du -h` would print it: `512B`, `1.5K`, `2.0M`.
 *
 * @internal
 */
function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}K`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}M`;
}

/**
 * The listing `view` shows for a directory: sizes (directories total their visible files), two
 * levels deep, walking at most `atMost` entries (then sizes count only what was walked, and a notice
 * says so).
 *
 * @internal
 */
async function formatListing(options: { store: MemoryStore; path: string; atMost: number }): Promise<string> {
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

/**
 * A file or directory found by {@link walkMemory}, with its depth below the start.
 *
 * @internal
 */
interface WalkedEntry extends MemoryEntry {
  depth: number;
}

/**
 * Names a listing leaves out: dotfiles and `node_modules`.
 *
 * @internal
 */
function isHiddenName(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.startsWith('.') || name === 'node_modules';
}

/**
 * What a bounded walk found, and whether it stopped at its budget before seeing everything.
 *
 * @internal
 */
interface MemoryWalk {
  entries: WalkedEntry[];
  /** True when the walk stopped at `atMost` entries: there may be more. */
  stopped: boolean;
}

/**
 * The entries below `path` (depth first, children sorted by name), hidden ones included unless
 * `skipHidden` is set, at most `atMost` of them (files and directories alike): bounded work however
 * many entries a host planted there.
 *
 * @internal
 */
async function walkMemory(options: {
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

/**
 * Files and directories below a path, counted until a cap is exceeded.
 *
 * @internal
 */
interface MemoryCounts {
  files: number;
  directories: number;
  /** True when counting stopped at a cap: the real counts may be higher. */
  stopped: boolean;
}

/**
 * Counts the files and directories below `path`, both kinds in whatever order the store lists them,
 * until the files reach `maxFiles` (no file may be added) or the directories exceed `maxDirectories`
 * (the memory is over its cap whatever is added). So a directory listed with its subdirectories
 * first still counts the files after them, and the counts decide a cap the same in any listing
 * order. Bounded work: at most `maxFiles + maxDirectories + 1` entries are listed in one directory
 * and counted in all, however many entries a host put there.
 *
 * @internal
 */
async function countMemoryEntries(options: {
  store: MemoryStore;
  path: string;
  maxFiles: number;
  maxDirectories: number;
}): Promise<MemoryCounts> {
  const counts: MemoryCounts = { files: 0, directories: 0, stopped: false };
  const over = () => counts.files >= options.maxFiles || counts.directories > options.maxDirectories;
  const visit = async (directory: string): Promise<void> => {
    const room = options.maxFiles - counts.files + (options.maxDirectories - counts.directories) + 1;
    for (const child of await listChildren(options.store, directory, room)) {
      if (over()) {
        counts.stopped = true;
        return;
      }
      if (child.kind === 'file') counts.files++;
      else if (++counts.directories > options.maxDirectories) counts.stopped = true;
      else await visit(child.path);
    }
  };
  await visit(options.path);
  return counts;
}

/**
 * How many directories writing `target` would create.
 *
 * @internal
 */
async function missingAncestors(target: string, { store }: { store: MemoryStore }): Promise<number> {
  let missing = 0;
  for (let parent = parentMemoryPath(target); parent !== MEMORY_ROOT; parent = parentMemoryPath(parent)) {
    if ((await store.stat(parent)) !== undefined) break;
    missing++;
  }
  return missing;
}

/**
 * Deletes the now empty directories above a removed `path`, nearest first, up to (not including) the
 * root, so emptied directories do not pile up against the directory cap.
 *
 * @internal
 */
async function pruneEmptyParents(path: string, { store }: { store: MemoryStore }): Promise<void> {
  for (let parent = parentMemoryPath(path); parent !== MEMORY_ROOT; parent = parentMemoryPath(parent)) {
    const entry = await store.stat(parent);
    if (entry?.kind !== 'directory' || (await store.list(parent, { limit: 1 })).length > 0) return;
    await store.delete(parent);
  }
}

/**
 * Refuses a new path whose ancestor is a file.
 *
 * @internal
 */
async function checkAncestors(target: string, { store }: { store: MemoryStore }): Promise<void> {
  for (let parent = parentMemoryPath(target); parent !== MEMORY_ROOT; parent = parentMemoryPath(parent)) {
    const entry = await store.stat(parent);
    if (entry?.kind === 'file') throw new Refusal(`${parent} is a file, so ${target} cannot be created inside it`);
    if (entry !== undefined) return;
  }
}

/**
 * Refuses `text` when it would make `target` larger than a memory file may be.
 *
 * @internal
 */
function checkSize(target: string, text: string, limits: MemoryToolLimits): void {
  const bytes = encoder.encode(text).length;
  if (bytes > limits.maxFileBytes) {
    throw new Refusal(
      `${target} would be ${bytes} bytes, over the limit of ${limits.maxFileBytes} bytes per memory file; ` +
        'keep memory files short: split the content or summarise it',
    );
  }
}

/**
 * The text of the file `target` for an edit: refused when it is missing, a directory, or over the
 * size limit (read one byte past the cap, so a file that grew since `stat` is caught, not cut).
 *
 * @internal
 */
async function readEditableFile(
  target: string,
  { store, limits }: { store: MemoryStore; limits: MemoryToolLimits },
): Promise<string> {
  const entry = await store.stat(target);
  if (entry === undefined) throw new Refusal(`${target} does not exist; view ${MEMORY_ROOT} to see what is there`);
  if (entry.kind === 'directory') throw new Refusal(`${target} is a directory; this command needs a file`);
  const tooLarge = () =>
    new Refusal(
      `${target} is over the limit of ${limits.maxFileBytes} bytes per memory file, so it cannot be edited; ` +
        'view its start, or delete it',
    );
  if (entry.size > limits.maxFileBytes) throw tooLarge();
  // Read one byte more than the cap, so a file that grew since `stat` is caught rather than cut.
  const text = await store.read(target, { maxBytes: limits.maxFileBytes + 1 });
  if (utf8Length(text, limits.maxFileBytes + 1) > limits.maxFileBytes) throw tooLarge();
  return text;
}

/**
 * An expected refusal, thrown inside the command handlers and returned by `runMemoryCommand` as `{ error }`.
 *
 * @internal
 */
class Refusal {
  constructor(readonly message: string) {}
}

/**
 * The normalised path in `value`, or a {@link Refusal} naming `field` and why the path is refused.
 *
 * @internal
 */
function resolveField(field: string, value: string): string {
  const resolved = resolveMemoryPath(value);
  if (!resolved.ok) throw new Refusal(`${field}: ${resolved.reason}`);
  return resolved.path;
}

/**
 * Lines numbered like `cat -n`: the number right-aligned in six columns, a tab, the line.
 *
 * @internal
 */
function numberLines(options: { lines: readonly string[]; first: number }): string {
  return options.lines.map((line, index) => `${String(options.first + index).padStart(6)}\t${line}`).join('\n');
}

/**
 * Cuts `text` to at most `maxCharacters` (UTF-16 units, the notice included), at a line break when
 * one is near, never inside a surrogate pair, and appends `notice`.
 *
 * @internal
 */
function truncateOutput(options: { text: string; maxCharacters: number; notice: string }): string {
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
 * UTF-8 bytes of `text`, counting stops once past `atMost`.
 *
 * @internal
 */
function utf8Length(text: string, atMost: number): number {
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

/**
 * The longest prefix of `text` of at most `maxBytes` UTF-8 bytes, never splitting a character.
 *
 * @internal
 */
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
