import * as z from 'zod/v4';
import { ContextError } from '../errors.js';
import { createKeyedQueue } from '../internal/keyed-queue.js';
import { parseOptions } from '../validation/parse-options.js';
import { zodOption as option } from '../validation/zod-option.js';
import { runMemoryCommand } from './internal/run-memory-command.js';
import type { MemoryStore } from './memory-store.js';
import { type MemoryToolDefinition, memoryToolDefinition } from './memory-tool-definition.js';
import { DEFAULT_MEMORY_TOOL_LIMITS, type MemoryToolLimits, type MemoryToolResult } from './memory-tool-limits.js';
import { parseMemoryCommand } from './parse-memory-command.js';

/**
 * Options of {@link createMemoryTool}: the store and, optionally, the caps.
 *
 * @example
 * ```ts
 * const options: CreateMemoryToolOptions = { store: createInMemoryMemoryStore(), maxFiles: 100 };
 * ```
 */
export interface CreateMemoryToolOptions extends Partial<MemoryToolLimits> {
  /** Where the files live: `createInMemoryMemoryStore()`, `createFileMemoryStore()` from `ctxkit/node`, or your own. */
  store: MemoryStore;
}

/**
 * The client side of the `memory` tool, as {@link createMemoryTool} returns it.
 *
 * @example
 * ```ts
 * const tool: MemoryTool = createMemoryTool({ store: createInMemoryMemoryStore() });
 * ```
 */
export interface MemoryTool {
  /** Always `memory`. */
  name: 'memory';
  /** The name, description and JSON schema to hand to the model. */
  definition: MemoryToolDefinition;
  /** Validates and runs one call; never throws. */
  execute(input: unknown): Promise<MemoryToolResult>;
}

const optionsSchema = z.object({
  store: z.custom<MemoryStore>(
    isStore,
    'must be a MemoryStore (stat, list, read, write, delete, rename, and optionally runExclusive): use createInMemoryMemoryStore()',
  ),
  maxFileBytes: option.positive().default(DEFAULT_MEMORY_TOOL_LIMITS.maxFileBytes),
  maxViewCharacters: z
    .number({ error: 'must be a whole number ≥ 1000' })
    .int('must be a whole number ≥ 1000')
    .min(1000, 'must be a whole number ≥ 1000')
    .default(DEFAULT_MEMORY_TOOL_LIMITS.maxViewCharacters),
  maxFiles: option.positive().default(DEFAULT_MEMORY_TOOL_LIMITS.maxFiles),
  maxDirectories: option.positive().default(DEFAULT_MEMORY_TOOL_LIMITS.maxDirectories),
});

/** Commands run one at a time per store object (see the concurrency note on {@link MemoryStore}). */
const queue = createKeyedQueue<MemoryStore>();

function isStore(value: unknown): value is MemoryStore {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  const methods = ['stat', 'list', 'read', 'write', 'delete', 'rename'];
  return (
    methods.every((method) => typeof record[method] === 'function') &&
    (record['runExclusive'] === undefined || typeof record['runExclusive'] === 'function')
  );
}

/** Runs one command exclusively: through the store's own `runExclusive`, or the per-store queue. */
function exclusive<T>(store: MemoryStore, task: () => Promise<T>): Promise<T> {
  return store.runExclusive ? store.runExclusive(task) : queue(store, task);
}

function oneLine(text: string): string {
  const flat = text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
  return flat.length > 500 ? `${flat.slice(0, 500)}…` : flat;
}

/** A message for a thrown error that reveals no stack trace and no host path. */
function describeFailure(error: unknown): string {
  if (ContextError.isInstance(error)) return oneLine(error.message);
  const code = (error as { code?: unknown } | null)?.code;
  const reason = typeof code === 'string' && /^[A-Z0-9_]{2,32}$/.test(code) ? ` (${code})` : '';
  return `the memory store failed${reason}; try the call again, and tell the user if it keeps failing`;
}

/** The validated command in `input` (a JSON string is parsed), or why the input is refused. */
function readInput(input: unknown): ReturnType<typeof parseMemoryCommand> {
  let value = input;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return {
        ok: false,
        error: 'invalid memory call: the arguments are a string that is not valid JSON; send an object',
      };
    }
  }
  try {
    return parseMemoryCommand(value);
  } catch {
    return {
      ok: false,
      error: 'invalid memory call: the input could not be read (accessing a property threw); send a plain JSON object',
    };
  }
}

/**
 * Creates the client side of the `memory` tool: hand `definition` to the model, and pass each call's
 * arguments to `execute`. Every path is confined to `/memories`, the command semantics are the same
 * for every store, and `execute` never throws: bad input, refused paths, store failures and
 * unexpected exceptions all come back as `{ error }` with a one-line message the model can act on.
 * Commands run one at a time per store (see {@link MemoryStore} on concurrency), so parallel tool
 * calls neither lose edits nor get past `maxFiles`.
 *
 * @param options - The store and the caps (see {@link MemoryToolLimits} for the defaults).
 * @returns The tool.
 * @throws ConfigError when a cap is not a positive integer (`maxViewCharacters`: under 1000) or
 * `store` lacks a method.
 *
 * @example
 * ```ts
 * import { createInMemoryMemoryStore, createMemoryTool } from 'ctxkit/memory';
 *
 * const memory = createMemoryTool({ store: createInMemoryMemoryStore() });
 * // for each tool call named 'memory' in the model's reply:
 * const result = await memory.execute(call.arguments);
 * const toolResult = 'error' in result ? { text: result.error, isError: true } : { text: result.content };
 * ```
 */
export function createMemoryTool(options: CreateMemoryToolOptions): MemoryTool {
  const { store, ...limits } = parseOptions('createMemoryTool', optionsSchema, options ?? {});
  return {
    name: 'memory',
    definition: memoryToolDefinition,
    async execute(input: unknown): Promise<MemoryToolResult> {
      const command = readInput(input);
      if (!command.ok) return { error: command.error };
      try {
        return await exclusive(store, () => runMemoryCommand({ command: command.command, store, limits }));
      } catch (error) {
        return { error: describeFailure(error) };
      }
    },
  };
}
