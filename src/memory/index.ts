// The `ctxkit/memory` entry: the client side of the `memory` tool. No `node:` imports (it runs in browsers).

export { createInMemoryMemoryStore } from './in-memory-memory-store.js';
export {
  MEMORY_COMMAND_NAMES,
  type MemoryCommand,
  type MemoryCreateCommand,
  type MemoryDeleteCommand,
  type MemoryInsertCommand,
  type MemoryRenameCommand,
  type MemoryStrReplaceCommand,
  type MemoryViewCommand,
  memoryCommandSchema,
} from './memory-commands.js';
export {
  isWithinMemoryPath,
  MEMORY_ROOT,
  type MemoryPathResult,
  parentMemoryPath,
  resolveMemoryPath,
} from './memory-paths.js';
export type {
  MemoryEntry,
  MemoryListOptions,
  MemoryReadOptions,
  MemoryStore,
  MemoryWriteOptions,
} from './memory-store.js';
export { type CreateMemoryToolOptions, createMemoryTool, type MemoryTool } from './memory-tool.js';
export { type MemoryToolDefinition, memoryInputJsonSchema, memoryToolDefinition } from './memory-tool-definition.js';
export { DEFAULT_MEMORY_TOOL_LIMITS, type MemoryToolLimits, type MemoryToolResult } from './memory-tool-limits.js';
export { parseMemoryCommand } from './parse-memory-command.js';
