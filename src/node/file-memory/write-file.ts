import { constants } from 'node:fs';
import { MEMORY_ROOT } from '../../memory/memory-paths.js';
import type { MemoryWriteOptions } from '../../memory/memory-store.js';
import { errorCode, fail } from './file-memory-errors.js';
import type { FileMemoryTree } from './file-memory-tree.js';
import { openFile } from './open-file.js';
import { inParent } from './walk-memory-tree.js';

/**
 * The store's `write`: creates missing parent directories (mode 0700), then writes `text` to the
 * file at `path` (mode 0600), refusing an existing file unless `overwrite` is set.
 *
 * @internal
 */
export async function writeFile(
  tree: FileMemoryTree,
  path: string,
  text: string,
  writeOptions: MemoryWriteOptions,
): Promise<void> {
  if (path === MEMORY_ROOT) throw fail(`${MEMORY_ROOT} is a directory`);
  const exclusive = writeOptions.overwrite ? 0 : constants.O_EXCL;
  await inParent(
    tree,
    path,
    true,
    async (parent, name) => {
      const handle = await openFile(tree, parent, name, path, constants.O_WRONLY | constants.O_CREAT | exclusive);
      try {
        await handle.truncate(0);
        await handle.writeFile(text, 'utf8');
      } catch (error) {
        throw fail(`${path} could not be written (${errorCode(error)})`, error);
      } finally {
        await handle.close();
      }
    },
    () => {
      throw fail(`${path} could not be created; try again`);
    },
  );
}
