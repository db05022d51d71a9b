import { deepFreeze } from '../internal/deep-freeze.js';
import { MEMORY_COMMAND_NAMES } from './memory-commands.js';

/**
 * The JSON schema of the `memory` tool's input, for providers that take plain JSON schema. It is one
 * flat object (some providers refuse a top-level `oneOf`); which fields each command needs is in the
 * descriptions, and `createMemoryTool` enforces it (with the zod schema, which also refuses ill-formed
 * Unicode). Frozen, like {@link memoryToolDefinition}: copy it to change it.
 *
 * @example
 * ```ts
 * const tools = [{ type: 'function', function: { name: 'memory', parameters: memoryInputJsonSchema } }];
 * ```
 */
export const memoryInputJsonSchema = deepFreeze({
  type: 'object',
  properties: {
    command: { type: 'string', enum: [...MEMORY_COMMAND_NAMES] as string[], description: 'The operation to run.' },
    path: {
      type: 'string',
      minLength: 1,
      description: 'view, create, str_replace, insert, delete: the target, starting with /memories/.',
    },
    view_range: {
      type: 'array',
      items: { type: 'integer', minimum: -1 },
      minItems: 2,
      maxItems: 2,
      description: 'view of a file, optional: 1-based inclusive [start, end] lines; end -1 means to the end.',
    },
    file_text: { type: 'string', description: 'create: the whole text of the new file.' },
    old_str: { type: 'string', minLength: 1, description: 'str_replace: text that occurs exactly once in the file.' },
    new_str: { type: 'string', description: 'str_replace: the replacement (may be empty).' },
    insert_line: {
      type: 'integer',
      minimum: 0,
      description: 'insert: the line after which to insert; 0 inserts at the top.',
    },
    insert_text: { type: 'string', description: 'insert: the lines to insert.' },
    old_path: { type: 'string', minLength: 1, description: 'rename: the file or directory to move.' },
    new_path: { type: 'string', minLength: 1, description: 'rename: where to move it; must not exist yet.' },
  },
  // Plain arrays, not readonly tuples: the SDKs' schema types (Anthropic's `input_schema`, the AI
  // SDK's `jsonSchema()`) take mutable arrays. The schema is frozen all the same.
  required: ['command'] as string[],
  additionalProperties: false,
} as const);

/** What the model reads about the tool. */
const DESCRIPTION = [
  'Persistent memory that survives context resets: a small file tree under /memories.',
  'Check it with `view /memories` at the start of a task, record progress and decisions as you work,',
  'and keep files short and organised; anything not written here is forgotten when the context is cleared.',
  'Commands: view (list a directory, or show a file with line numbers, optionally a view_range),',
  'create (a new file; fails if it exists), str_replace (old_str must occur exactly once),',
  'insert (lines after insert_line; 0 = top), delete (a file or a whole directory),',
  'rename (old_path to new_path; the target must not exist).',
  'Every path must start with /memories/. Errors come back as text: read them and adjust the call.',
].join(' ');

/**
 * The `memory` tool as a host hands it to a model: name, description and JSON schema of the input.
 * Deeply frozen, since every tool shares it; pass `structuredClone(memoryToolDefinition)` to an SDK
 * that edits the schemas it is given.
 *
 * @example
 * ```ts
 * import { memoryToolDefinition } from 'ctxkit/memory';
 *
 * const tools = [
 *   {
 *     name: memoryToolDefinition.name,
 *     description: memoryToolDefinition.description,
 *     input_schema: memoryToolDefinition.inputSchema,
 *   },
 * ];
 * ```
 */
export const memoryToolDefinition = deepFreeze({
  name: 'memory',
  description: DESCRIPTION,
  inputSchema: memoryInputJsonSchema,
} as const);

/**
 * The shape of {@link memoryToolDefinition}.
 *
 * @example
 * ```ts
 * const definition: MemoryToolDefinition = memoryToolDefinition;
 * ```
 */
export type MemoryToolDefinition = typeof memoryToolDefinition;
