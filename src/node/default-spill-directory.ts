import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The default spill directory: `ai_tool_outputs` under the system temp directory, as in the
 * reference. {@link createFileSpillStore} writes there unless given another `directory`.
 *
 * @returns The directory's absolute path (it may not exist yet).
 *
 * @example
 * ```ts
 * import { readdir } from 'node:fs/promises';
 * import { defaultSpillDirectory } from 'ctxkit/node';
 *
 * const saved = await readdir(defaultSpillDirectory()).catch(() => []);
 * console.log(`${saved.length} tool outputs saved in full`);
 * ```
 */
export function defaultSpillDirectory(): string {
  return join(tmpdir(), 'ai_tool_outputs');
}
