import { rename } from 'node:fs/promises';
import { StoreError } from '../../errors.js';
import { MEMORY_ROOT } from '../../memory/memory-paths.js';
import { errorCode, fail } from './file-memory-errors.js';
import type { FileMemoryTree, ParentWalk } from './file-memory-tree.js';
import { entryIn, lstatIn } from './stat-entry.js';
import { inParent, walkToParent } from './walk-memory-tree.js';

/**
 * The store's `rename`: moves the file or directory at `from` to `to`, both reached relative to
 * open directories, creating missing parent directories of `to`; refuses an existing `to`.
 *
 * @internal
 */
export async function renameEntry(tree: FileMemoryTree, from: string, to: string): Promise<void> {
  if (from === MEMORY_ROOT || to === MEMORY_ROOT) throw fail(`${MEMORY_ROOT} itself cannot be renamed`);
  await inParent(
    tree,
    from,
    false,
    async (source, fromName) => {
      if ((await entryIn(source, fromName, from)) === undefined) throw fail(`${from} does not exist`);
      const target = await walkToParent(tree, to, false);
      if (target.kind === 'file-ancestor') {
        throw fail(`cannot move ${from} to ${to}: ${target.ancestor} is a file`);
      }
      const opened =
        target.kind === 'open'
          ? target
          : ((await walkToParent(tree, to, true)) as Extract<ParentWalk, { kind: 'open' }>);
      try {
        if ((await lstatIn(opened.parent, opened.name, to)) !== undefined) throw fail(`${to} already exists`);
        await rename(`${source.base}/${fromName}`, `${opened.parent.base}/${opened.name}`);
      } catch (error) {
        if (StoreError.isInstance(error)) throw error;
        throw fail(`${from} could not be renamed to ${to} (${errorCode(error)})`, error);
      } finally {
        await opened.parent.handle.close();
      }
    },
    () => {
      throw fail(`${from} does not exist`);
    },
  );
}
