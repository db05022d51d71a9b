import * as z from 'zod/v4';
import { deepFreeze } from '../internal/deep-freeze.js';
import type { ContextManager } from '../manager/context-manager-types.js';
import type { Message } from '../types.js';
import { invalidArgument } from '../validation/assert-argument.js';
import { isArchivedResult } from './internal/archived-results.js';
import { assertManager } from './internal/assert-manager.js';
import type { ContextToolDefinition } from './tool-definition.js';

/**
 * The `context_status` tool: no parameters. Hand it to the model so it can ask how much room is
 * left; {@link contextStatus} writes the answer. Deeply frozen: copy it to change it.
 *
 * @example
 * ```ts
 * import { contextStatusToolDefinition } from 'ctxkit/agent-tools';
 *
 * const tools = [{ name: contextStatusToolDefinition.name, description: contextStatusToolDefinition.description,
 *   input_schema: contextStatusToolDefinition.inputSchema }];
 * ```
 */
export const contextStatusToolDefinition: ContextToolDefinition = deepFreeze({
  name: 'context_status',
  description: 'How full your context window is, where compaction starts, and how many tool results are archived.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
} as const);

/**
 * The zod schema of the `context_status` input: an empty object (unknown keys are refused).
 *
 * @example
 * ```ts
 * contextStatusInputSchema.parse({}); // {}
 * ```
 */
export const contextStatusInputSchema = z.strictObject({});

const number = new Intl.NumberFormat('en-US');

/**
 * The one-line answer of the `context_status` tool for the history the manager holds: tokens
 * used of the window, where compaction fires, how many tool results are archived and how to get
 * them back. For example `Context: 41,200 of 200,000 tokens (21%); compaction at 183,616;
 * 12 tool results archived (recall by the id each names).` (about 30 tokens).
 *
 * @param manager - The manager that prepares this session's requests.
 * @param history - The history the manager returned last (what the host passes to its next call).
 * @returns One line, no trailing newline.
 *
 * @example
 * ```ts
 * const line = contextStatus(manager, history); // 'Context: 3,120 of 200,000 tokens (2%); compaction at 183,616; no tool results archived.'
 * ```
 */
export function contextStatus(manager: ContextManager, history: readonly Message[]): string {
  assertManager(manager, 'contextStatus');
  if (!Array.isArray(history)) throw invalidArgument('contextStatus', 'history', 'an array of messages', history);
  const { usage } = manager.stats(history);
  const window = usage.contextWindow ?? usage.limit;
  const used =
    window === undefined
      ? `${number.format(usage.tokens)} tokens`
      : `${number.format(usage.tokens)} of ${number.format(window)} tokens (${Math.round((usage.tokens / window) * 100)}%)`;
  const trigger =
    usage.limit === undefined
      ? `compaction after ${number.format(manager.config.maxMessages)} messages`
      : `compaction at ${number.format(usage.limit)}`;
  let archived = 0;
  for (const message of history) if (isArchivedResult(message)) archived++;
  const recall =
    archived === 0
      ? 'no tool results archived'
      : `${number.format(archived)} tool result${archived === 1 ? '' : 's'} archived (recall by the id each names)`;
  return `Context: ${used}; ${trigger}; ${recall}.`;
}
