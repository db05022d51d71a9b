import type { ToolOutputLimits } from '../config/index.js';
import { recallIdOf } from '../messages/recall-id.js';
import { processToolOutput } from '../pipeline/process-tool-output.js';
import type { SpillStore } from '../pipeline/spill-store.js';
import type { ToolResultMessage } from '../types.js';
import type { ContextEvent } from './events.js';

/**
 * The stage "guard tool output": applies the tool-output limits to tool results as they arrive.
 * The limits are resolved once; an output that fits them by its length alone costs a length check
 * (and a newline count when it is longer than the line limit), so a tool step stays synchronous
 * and a few microseconds; only a result that needs cutting or spilling is remembered, so it is cut
 * (and spilled) once per message object.
 *
 * @internal
 */
export class ToolOutputGuard {
  private readonly done = new WeakMap<ToolResultMessage, ToolResultMessage>();
  /** Outputs up to this many UTF-16 units fit every limit whatever they hold (a unit is at most 3 UTF-8 bytes). */
  private readonly safeLength: number;

  constructor(
    private readonly limits: ToolOutputLimits,
    private readonly spillStore: SpillStore | undefined,
  ) {
    this.safeLength = Math.min(Math.floor(limits.maxBytes / 3), limits.maxChars, limits.largeOutputThreshold);
  }

  /** Whether a result needs no cutting or spilling. */
  fits(message: ToolResultMessage): boolean {
    for (const part of message.content) {
      if (part.type !== 'text') continue;
      const text = part.text;
      if (text.length > this.safeLength) return false;
      if (text.length >= this.limits.maxLines && lineCount(text) > this.limits.maxLines) return false;
    }
    return true;
  }

  /**
   * The result as the history keeps it: cut to the limits (and spilled) when it does not
   * {@link fits}, reported by `tool-output-truncated`; the same message object is cut (and
   * spilled, and reported) once, however often the host hands it in again.
   */
  async cut(message: ToolResultMessage, emit: (event: ContextEvent) => void): Promise<ToolResultMessage> {
    if (this.fits(message)) return message;
    const cached = this.done.get(message);
    if (cached !== undefined) return cached;
    let changed = false;
    let spilledTo: string | undefined;
    const content: ToolResultMessage['content'] = [];
    for (const part of message.content) {
      if (part.type !== 'text') {
        content.push(part);
        continue;
      }
      const result = await processToolOutput(part.text, {
        limits: this.limits,
        ...(this.spillStore ? { spillStore: this.spillStore } : {}),
        toolName: message.toolName,
        toolCallId: message.toolCallId,
        recallId: recallIdOf(message.toolCallId),
      });
      if (!result.truncated && result.spilled === undefined) {
        content.push(part);
        continue;
      }
      changed = true;
      spilledTo ??= result.spilled?.path;
      content.push({ ...part, text: result.text });
    }
    const processed = changed ? { ...message, content } : message;
    if (changed) {
      emit({
        type: 'tool-output-truncated',
        toolCallId: message.toolCallId,
        toolName: message.toolName,
        ...(spilledTo ? { spilledTo } : {}),
      });
    }
    this.done.set(message, processed);
    this.done.set(processed, processed);
    return processed;
  }
}

function lineCount(text: string): number {
  let lines = 1;
  for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) lines++;
  return lines;
}
