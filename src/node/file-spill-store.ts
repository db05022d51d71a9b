import { createHash, randomUUID } from 'node:crypto';
import { lstat, mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { ContextError } from '../errors.js';
import type { SpilledOutput, SpillInfo, SpillStore } from '../pipeline/spill-store.js';
import { assertObjectArgument, assertStringArgument } from '../validation/assert-argument.js';
import { option, parseOptions } from '../validation/parse-options.js';
import { defaultSpillDirectory } from './default-spill-directory.js';

/**
 * Options of {@link createFileSpillStore}.
 *
 * @example
 * ```ts
 * const options: CreateFileSpillStoreOptions = { directory: '.agent/tool-outputs' };
 * ```
 */
export interface CreateFileSpillStoreOptions {
  /** Where the files are written; created when missing. @default join(os.tmpdir(), 'ai_tool_outputs') */
  directory?: string;
}

function safeName(value: unknown): string {
  const cleaned = (typeof value === 'string' ? value : '').replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 40);
  return cleaned === '' ? 'tool' : cleaned;
}

const optionsSchema = /* @__PURE__ */ (() => option.fields({ directory: option.directory().optional() }))();

/** The names {@link createFileSpillStore} gives its files: time, tool, hash start, random suffix. */
const SPILL_FILE_NAME = /^\d{4}-\d{2}-\d{2}T[\d-]+Z-[A-Za-z0-9_-]{1,40}-[0-9a-f]{12}-[0-9a-f]{8}\.txt$/;

/**
 * A {@link SpillStore} that writes each output to its own file (mode 0600) and resolves once the
 * write finished. File names carry the time, the tool name and the start of the SHA-256, so a
 * directory listing reads like a log. `read` gives back a file it wrote: only a regular file
 * directly in its directory, named as it names them (no other path, no symlink).
 *
 * @param options - The directory (default: `ai_tool_outputs` under the temp directory).
 * @returns The spill store.
 *
 * @example
 * ```ts
 * import { processToolOutput } from 'ctxkit';
 * import { createFileSpillStore } from 'ctxkit/node';
 *
 * const spillStore = createFileSpillStore();
 * const output = await processToolOutput(hugeLog, { spillStore, toolName: 'bash' });
 * console.log(output.spilled?.path);
 * const full = await spillStore.read!(output.spilled!.path); // the whole output again
 * ```
 */
export function createFileSpillStore(options: CreateFileSpillStoreOptions = {}): SpillStore {
  parseOptions('createFileSpillStore', optionsSchema, options);
  const directory = options.directory ?? defaultSpillDirectory();
  return {
    async save(content: string, info: SpillInfo): Promise<SpilledOutput> {
      assertStringArgument(content, 'SpillStore.save', 'content');
      assertObjectArgument(info, 'SpillStore.save', 'info');
      const data = Buffer.from(content, 'utf8');
      const sha256 = createHash('sha256').update(data).digest('hex');
      await mkdir(directory, { recursive: true, mode: 0o700 });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const path = join(
        directory,
        `${stamp}-${safeName(info.toolName)}-${sha256.slice(0, 12)}-${randomUUID().slice(0, 8)}.txt`,
      );
      await writeFile(path, data, { mode: 0o600, flag: 'wx' });
      return { path, sha256, bytes: data.length };
    },
    async read(path: string): Promise<string> {
      assertStringArgument(path, 'SpillStore.read', 'path');
      const file = resolve(path);
      if (dirname(file) !== resolve(directory) || !SPILL_FILE_NAME.test(basename(file)))
        throw new ContextError({
          message: `SpillStore.read: path must be a file this spill store wrote in ${directory}, received ${JSON.stringify(path)}.`,
          code: 'INPUT_INVALID',
        });
      const stats = await lstat(file);
      if (!stats.isFile())
        throw new ContextError({
          message: `SpillStore.read: ${JSON.stringify(path)} is not a regular file (a symlink or directory is never read).`,
          code: 'INPUT_INVALID',
        });
      return readFile(file, 'utf8');
    },
  };
}
