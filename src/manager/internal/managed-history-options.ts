import type { ContextConfig } from '../../config/index.js';
import type { Summarizer } from '../../summarizing/summarizer-types.js';
import type { Message } from '../../types.js';
import type { CostPolicy } from '../cost-policy.js';
import type { ContextEvent } from '../events.js';
import type { ToolOutputGuard } from '../tool-output-guard.js';

/** What `ManagedHistory` needs from the manager. @internal */
export interface ManagedHistoryOptions {
  config: ContextConfig;
  count: (message: Message) => number;
  guard: ToolOutputGuard;
  summarizer: Summarizer;
  emit: (event: ContextEvent) => void;
  /** Called when the projection is rebuilt from scratch (usage recorded before it no longer applies). */
  onRebuild: () => void;
  /** The cost-aware archive policy, when on. */
  policy?: CostPolicy | undefined;
}
