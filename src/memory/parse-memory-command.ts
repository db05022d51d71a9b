import { MEMORY_COMMAND_NAMES, type MemoryCommand, memoryCommandSchema } from './memory-commands.js';

const FIELD_HINTS: Record<string, string> = {
  path: 'a non-empty string such as "/memories/notes.md"',
  old_path: 'a non-empty string such as "/memories/old.md"',
  new_path: 'a non-empty string such as "/memories/new.md"',
  file_text: 'a string (the whole file)',
  old_str: 'a non-empty string that occurs exactly once in the file',
  new_str: 'a string (may be empty)',
  insert_line: 'an integer >= 0 (0 inserts at the top)',
  insert_text: 'a string',
  view_range: 'a pair of integers [start, end] (end -1 means to the end)',
};

const REQUIRED: Record<MemoryCommand['command'], string> = {
  view: 'path (and optionally view_range)',
  create: 'path and file_text',
  str_replace: 'path, old_str and new_str',
  insert: 'path, insert_line and insert_text',
  delete: 'path',
  rename: 'old_path and new_path',
};

function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value))
    return `[${value.map((item) => (typeof item === 'number' ? item : typeof item)).join(', ')}]`;
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' ? 'a string' : typeof value;
}

/**
 * Validates a tool call from the model.
 *
 * @param input - The parsed JSON arguments of the call.
 * @returns The command, or a one-line message naming each bad field and what it should be.
 *
 * @example
 * ```ts
 * const parsed = parseMemoryCommand({ command: 'create', path: '/memories/a.md' });
 * if (!parsed.ok) console.log(parsed.error); // '… file_text must be a string (the whole file), got missing …'
 * ```
 */
export function parseMemoryCommand(
  input: unknown,
): { ok: true; command: MemoryCommand } | { ok: false; error: string } {
  const parsed = memoryCommandSchema.safeParse(input);
  if (parsed.success) return { ok: true, command: parsed.data };
  const names = MEMORY_COMMAND_NAMES.join(', ');
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, error: `invalid memory call: expected an object with a "command" (one of ${names})` };
  }
  const record = input as Record<string, unknown>;
  const command = record['command'];
  if (typeof command !== 'string' || !(MEMORY_COMMAND_NAMES as readonly string[]).includes(command)) {
    const got = typeof command === 'string' ? JSON.stringify(command.slice(0, 40)) : describe(command);
    return { ok: false, error: `invalid memory call: command must be one of ${names}, got ${got}` };
  }
  const problems = new Map<string, string>();
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? 'input');
    if (issue.code === 'custom') {
      problems.set(field, issue.message);
      continue;
    }
    const hint = FIELD_HINTS[field] ?? 'valid';
    problems.set(field, `${field} must be ${hint}, got ${describe(record[field])}`);
  }
  const needs = REQUIRED[command as MemoryCommand['command']];
  return {
    ok: false,
    error: `invalid ${command} call: ${[...problems.values()].join('; ')} (${command} takes ${needs})`,
  };
}
