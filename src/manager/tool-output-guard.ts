import type { ToolOutputLimits } from '../config/index.js';
import { processToolOutput } from '../pipeline/process-tool-output.js';
import type { SpillStore } from '../pipeline/spill-store.js';
import type { Message, ToolResultMessage } from '../types.js';
import type { ContextEvent } from './events.js';

/**
 * Applies the tool-output limits to tool results as they arrive, once per message object.
 *
 * @internal
 */
export class ToolOutputGuard {
  private readonly done = new WeakMap<ToolResultMessage, ToolResultMessage>();

  constructor(
    private readonly limits: ToolOutputLimits,
    private readonly spillStore: SpillStore | undefined,
  ) {}

  async process(messages: readonly Message[], emit: (event: ContextEvent) => void): Promise<Message[]> {
    const output: Message[] = [];
    for (const message of messages) {
      output.push(message.role === 'toolResult' ? await this.processResult(message, emit) : message);
    }
    return output;
  }

  private async processResult(
    message: ToolResultMessage,
    emit: (event: ContextEvent) => void,
  ): Promise<ToolResultMessage> {
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
