// The `ctxkit/agent-tools` entry: tools ctxkit defines for the model itself (`context_status`,
// `recall`), bound to a context manager. No `node:` imports.

export { recallIdOf } from '../messages/recall-id.js';
export { contextStatus, contextStatusInputSchema, contextStatusToolDefinition } from './context-status.js';
export {
  type ContextToolCall,
  type ContextToolResult,
  type ContextTools,
  type CreateContextToolsOptions,
  createContextTools,
} from './create-context-tools.js';
export { type RecallInput, type RecallSource, recall, recallInputSchema, recallToolDefinition } from './recall.js';
export type { ContextToolDefinition } from './tool-definition.js';
