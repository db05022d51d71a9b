import type { MemoryViewCommand } from '../memory-commands.js';
import { MEMORY_ROOT } from '../memory-paths.js';
import type { MemoryStore } from '../memory-store.js';
import type { MemoryToolLimits } from '../memory-tool-limits.js';
import { formatListing } from './format-listing.js';
import { Refusal, resolveField } from './memory-refusal.js';
import { numberLines, truncateOutput } from './output-text.js';
import { clipUtf8, utf8Length } from './utf8-text.js';

/** Characters kept free for a truncation notice. */
const NOTICE_ROOM = 120;

/**
 * Runs `view`: a listing of a directory, or a file's numbered lines, cut at `maxViewCharacters`. A
 * file is read only up to `maxFileBytes` (the most a memory file may hold), so a huge file a host
 * planted costs no more than that; the output says what was cut.
 *
 * @internal
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
