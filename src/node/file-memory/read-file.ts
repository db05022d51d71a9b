import { constants } from 'node:fs';
import { StoreError } from '../../errors.js';
import { MEMORY_ROOT } from '../../memory/memory-paths.js';
import type { MemoryReadOptions } from '../../memory/memory-store.js';
import { errorCode, fail } from './file-memory-errors.js';
import type { FileMemoryTree } from './file-memory-tree.js';
import { openFile } from './open-file.js';
import { inParent } from './walk-memory-tree.js';

/** Cuts a buffer of UTF-8 to whole characters and decodes it. */
function decodeWhole(bytes: Uint8Array, cut: boolean): string {
  let end = bytes.length;
  if (cut) {
    // Drop a trailing incomplete sequence: step back over continuation bytes to the lead byte.
    let back = end - 1;
    while (back >= 0 && back > end - 4 && (bytes[back]! & 0xc0) === 0x80) back--;
    if (back >= 0) {
      const lead = bytes[back]!;
      const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
      if (back + length > end) end = back;
    }
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, end).toString('utf8');
}

/**
 * The store's `read`: the text of the file at `path`, read in chunks and cut at `maxBytes` (back to
 * a whole character), so a huge file, or one that grows meanwhile, costs no more than the cap.
 *
 * @internal
 */
export async function readFile(tree: FileMemoryTree, path: string, readOptions?: MemoryReadOptions): Promise<string> {
  if (path === MEMORY_ROOT) throw fail(`${MEMORY_ROOT} is a directory`);
  const maxBytes = readOptions?.maxBytes ?? Number.POSITIVE_INFINITY;
  return inParent(
    tree,
    path,
    false,
    async (parent, name) => {
      const handle = await openFile(tree, parent, name, path, constants.O_RDONLY);
      try {
        const chunks: Uint8Array[] = [];
        let total = 0;
        // Read in chunks up to the cap: a huge file (or one that grows meanwhile) is cut at `maxBytes`.
        while (total < maxBytes) {
          const want = Math.min(1024 * 1024, maxBytes - total);
          const buffer = Buffer.allocUnsafe(want);
          const { bytesRead } = await handle.read(buffer, 0, want, total);
          if (bytesRead === 0) break;
          chunks.push(buffer.subarray(0, bytesRead));
          total += bytesRead;
        }
        const bytes = Buffer.concat(chunks, total);
        return decodeWhole(bytes, total >= maxBytes);
      } catch (error) {
        if (StoreError.isInstance(error)) throw error;
        throw fail(`${path} could not be read (${errorCode(error)})`, error);
      } finally {
        await handle.close();
      }
    },
    () => {
      throw fail(`${path} does not exist`);
    },
  );
}
