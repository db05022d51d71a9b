import { MEMORY_ROOT } from '../memory-paths.js';
import type { MemoryStore } from '../memory-store.js';
import type { MemoryToolLimits } from '../memory-tool-limits.js';
import { Refusal } from './memory-refusal.js';
import { utf8Length } from './utf8-text.js';

const encoder = new TextEncoder();

/**
 * Refuses `text` when it would make `target` larger than a memory file may be.
 *
 * @internal
 */
export function checkSize(target: string, text: string, limits: MemoryToolLimits): void {
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
export async function readEditableFile(
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
