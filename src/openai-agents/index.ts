// The `ctxkit/openai-agents` entry: a `callModelInputFilter` and a `Session` for the OpenAI Agents SDK,
// with no runtime dependency on `@openai/agents`.

export { type FromAgentItemsResult, fromAgentItems, toAgentItems } from './agent-items.js';
export {
  type AgentsInputFilter,
  type AgentsModelLike,
  type AgentsUsageLike,
  type CreateAgentsInputFilterOptions,
  createAgentsInputFilter,
} from './create-agents-input-filter.js';
export { type AgentsSession, type CreateAgentsSessionOptions, createAgentsSession } from './create-agents-session.js';
export type { AgentItem, AgentModelInput, ConversionWarning } from './item-types.js';
