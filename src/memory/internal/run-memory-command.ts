import type {
  MemoryCommand,
  MemoryCreateCommand,
  MemoryInsertCommand,
  MemoryRenameCommand,
  MemoryStrReplaceCommand,
} from '../memory-commands.js';
import { isWithinMemoryPath, MEMORY_ROOT } from '../memory-paths.js';
import type { MemoryStore } from '../memory-store.js';
import type { MemoryToolLimits, MemoryToolResult } from '../memory-tool-limits.js';
import { checkAncestors, missingAncestors, pruneEmptyParents } from './ancestors.js';
import { checkSize, readEditableFile } from './editable-file.js';
import { resolveField as path, Refusal } from './memory-refusal.js';
import { numberLines, truncateOutput } from './output-text.js';
import { viewMemory } from './view-memory.js';
import { countMemoryEntries } from './walk-memory.js';

/** Everything a command needs. */
interface RunOptions {
  store: MemoryStore;
  limits: MemoryToolLimits;
}

const encoder = new TextEncoder();

async function create(command: MemoryCreateCommand, options: RunOptions): Promise<string> {
  const target = path('path', command.path);
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
  const target = path('path', command.path);
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
  const target = path('path', command.path);
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
  const from = path('old_path', command.old_path);
  const to = path('new_path', command.new_path);
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
        return { content: await remove(path('path', command.path), options) };
      case 'rename':
        return { content: await rename(command, options) };
    }
  } catch (error) {
    if (error instanceof Refusal) return { error: error.message };
    throw error;
  }
}
