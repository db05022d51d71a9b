import * as z from 'zod/v4';
import { discriminatorError } from '../schemas/zod-discriminator.js';
import { isWellFormedText } from './internal/well-formed-text.js';

/**
 * `view`: list a directory (two levels deep) or show a file with line numbers.
 *
 * @example
 * ```ts
 * const command: MemoryViewCommand = { command: 'view', path: '/memories/notes.md', view_range: [1, -1] };
 * ```
 */
export interface MemoryViewCommand {
  command: 'view';
  path: string;
  /** 1-based inclusive `[start, end]` lines of a file; `end` -1 means to the last line. */
  view_range?: [number, number] | undefined;
}

/**
 * `create`: write a new file; refuses an existing one.
 *
 * @example
 * ```ts
 * const command: MemoryCreateCommand = { command: 'create', path: '/memories/notes.md', file_text: 'hi' };
 * ```
 */
export interface MemoryCreateCommand {
  command: 'create';
  path: string;
  file_text: string;
}

/**
 * `str_replace`: replace the one occurrence of `old_str` in a file by `new_str`.
 *
 * @example
 * ```ts
 * const command: MemoryStrReplaceCommand = { command: 'str_replace', path: '/memories/a.md', old_str: 'x', new_str: 'y' };
 * ```
 */
export interface MemoryStrReplaceCommand {
  command: 'str_replace';
  path: string;
  old_str: string;
  new_str: string;
}

/**
 * `insert`: insert lines after line `insert_line` (0 inserts at the top).
 *
 * @example
 * ```ts
 * const command: MemoryInsertCommand = { command: 'insert', path: '/memories/a.md', insert_line: 0, insert_text: '# A' };
 * ```
 */
export interface MemoryInsertCommand {
  command: 'insert';
  path: string;
  insert_line: number;
  insert_text: string;
}

/**
 * `delete`: delete a file, or a directory with everything in it.
 *
 * @example
 * ```ts
 * const command: MemoryDeleteCommand = { command: 'delete', path: '/memories/old' };
 * ```
 */
export interface MemoryDeleteCommand {
  command: 'delete';
  path: string;
}

/**
 * `rename`: move a file or directory; refuses an existing target.
 *
 * @example
 * ```ts
 * const command: MemoryRenameCommand = { command: 'rename', old_path: '/memories/a.md', new_path: '/memories/b.md' };
 * ```
 */
export interface MemoryRenameCommand {
  command: 'rename';
  old_path: string;
  new_path: string;
}

/**
 * One call of the `memory` tool, discriminated on `command`.
 *
 * @example
 * ```ts
 * function target(command: MemoryCommand): string {
 *   return command.command === 'rename' ? command.old_path : command.path;
 * }
 * ```
 */
export type MemoryCommand =
  | MemoryViewCommand
  | MemoryCreateCommand
  | MemoryStrReplaceCommand
  | MemoryInsertCommand
  | MemoryDeleteCommand
  | MemoryRenameCommand;

/** The command names, in the order the docs list them. */
export const MEMORY_COMMAND_NAMES = ['view', 'create', 'str_replace', 'insert', 'delete', 'rename'] as const;

/** A string that must be well-formed Unicode; the message names `field`. */
function wellFormed(field: string, schema: z.ZodString = z.string()) {
  return schema.refine(isWellFormedText, {
    message: `${field} contains a lone UTF-16 surrogate (ill-formed Unicode), which cannot be stored; send well-formed text`,
  });
}
const path = (field: string) => wellFormed(field, z.string().min(1));
const line = z.number().int().min(-1);

/**
 * The zod schema of a `memory` tool call. Unknown keys are dropped and `view_range: null` counts as
 * absent (some providers send every property, with null for the unused ones). Paths and texts must be
 * well-formed Unicode: a lone UTF-16 surrogate is refused, naming the field, since no UTF-8 store
 * could keep it.
 *
 * @example
 * ```ts
 * const parsed = memoryCommandSchema.safeParse({ command: 'view', path: '/memories' });
 * if (parsed.success) console.log(parsed.data.command);
 * ```
 */
export const memoryCommandSchema: z.ZodType<MemoryCommand> = z.discriminatedUnion(
  'command',
  [
    z.object({
      command: z.literal('view'),
      path: path('path'),
      view_range: z
        .tuple([line, line])
        .nullish()
        .transform((range) => range ?? undefined),
    }),
    z.object({ command: z.literal('create'), path: path('path'), file_text: wellFormed('file_text') }),
    z.object({
      command: z.literal('str_replace'),
      path: path('path'),
      old_str: wellFormed('old_str', z.string().min(1)),
      new_str: wellFormed('new_str'),
    }),
    z.object({
      command: z.literal('insert'),
      path: path('path'),
      insert_line: z.number().int().min(0),
      insert_text: wellFormed('insert_text'),
    }),
    z.object({ command: z.literal('delete'), path: path('path') }),
    z.object({ command: z.literal('rename'), old_path: path('old_path'), new_path: path('new_path') }),
  ],
  discriminatorError,
);
