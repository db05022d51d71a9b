import type { ToolOutputLimits } from '../config/index.js';
import { ContextError } from '../errors.js';
import { option, parseOptions } from '../validation/parse-options.js';
import { truncateWithNotice } from './internal/truncate-with-notice.js';
import type { SpilledOutput, SpillInfo, SpillStore } from './spill-store.js';
import type { TruncationStats } from './truncate-result.js';

/**
 * Options of {@link processToolOutput}.
 *
 * @example
 * ```ts
 * const options: ProcessToolOutputOptions = { limits: { maxLines: 500 }, spillStore, toolName: 'bash' };
 * ```
 */
export interface ProcessToolOutputOptions extends SpillInfo {
  /** The limits; missing fields take the reference defaults. */
  limits?: Partial<ToolOutputLimits>;
  /** Where output over `largeOutputThreshold` is saved in full. Without one it is only truncated. */
  spillStore?: SpillStore;
  /**
   * The id the model passes to `recall` to read a spilled output back (`recallIdOf(toolCallId)`
   * from `ctxkit/agent-tools`), named in the notice beside the path. Only a spilled output's notice
   * names it: an output that was only cut is not kept anywhere to recall it from.
   * @default none: the notice names only the path
   */
  recallId?: string;
}

/**
 * The result of {@link processToolOutput}.
 *
 * @example
 * ```ts
 * const { text, spilled } = await processToolOutput(output, { spillStore });
 * ```
 */
export interface ProcessedToolOutput {
  /** The text to put in the tool result, within every limit. */
  text: string;
  /** Whether the text differs from the input. */
  truncated: boolean;
  /** Where the full output was saved, when it was. */
  spilled?: SpilledOutput;
  /** Why saving failed, when it was attempted and failed. */
  spillError?: string;
  /** Sizes before and after. */
  stats: TruncationStats;
}

/**
 * Applies the reference tool-output processing: output over `largeOutputThreshold` is saved in full
 * through the spill store (its path and SHA-256 go into the notice), and anything over the limits is
 * truncated with {@link truncateToolContent}'s rules. The result is always within the limits, also
 * when the spill store fails. When the limits are too small for the full notice, a shorter one keeps
 * the path (and the hash while it fits), so the output stays recoverable.
 *
 * @param text - The tool output.
 * @param options - Limits, spill store, and the tool name and call id passed to the store.
 * @returns The text to store, and where the full output went.
 *
 * @example
 * ```ts
 * import { createFileSpillStore } from 'ctxkit/node';
 * const output = await processToolOutput(hugeLog, { spillStore: createFileSpillStore(), toolName: 'bash' });
 * toolResult.content = [{ type: 'text', text: output.text }];
 * ```
 */
export async function processToolOutput(
  text: string,
  options: ProcessToolOutputOptions = {},
): Promise<ProcessedToolOutput> {
  parseOptions('processToolOutput', option.bag(), options);
  if (typeof text !== 'string') {
    throw new ContextError({
      message: `processToolOutput: text must be a string (the tool output), received ${text === null ? 'null' : typeof text}.`,
      code: 'INPUT_INVALID',
    });
  }
  if (options.recallId !== undefined && (typeof options.recallId !== 'string' || options.recallId === '')) {
    throw new ContextError({
      message: `processToolOutput: options.recallId must be a non-empty string (recallIdOf(toolCallId)), received ${JSON.stringify(options.recallId)}.`,
      code: 'INPUT_INVALID',
    });
  }
  const plain = truncateWithNotice(text, options.limits, { functionName: 'processToolOutput' });
  if (!plain.needsSpill || options.spillStore === undefined) return plain;
  const info: SpillInfo = {
    ...(options.toolName !== undefined ? { toolName: options.toolName } : {}),
    ...(options.toolCallId !== undefined ? { toolCallId: options.toolCallId } : {}),
  };
  let spilled: SpilledOutput;
  try {
    spilled = await options.spillStore.save(text, info);
    if (typeof spilled?.path !== 'string' || spilled.path === '' || typeof spilled.sha256 !== 'string') {
      throw new Error('the spill store returned no path and SHA-256');
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ...truncateWithNotice(text, options.limits, { spillError: reason, functionName: 'processToolOutput' }),
      spillError: reason,
    };
  }
  const notice = {
    spilled: { path: spilled.path, sha256: spilled.sha256 },
    ...(options.recallId === undefined ? {} : { recallId: options.recallId }),
    always: true,
  };
  return { ...truncateWithNotice(text, options.limits, { ...notice, functionName: 'processToolOutput' }), spilled };
}
