import { isValidUsage, usageTotal } from '../counting/estimate-context-tokens.js';
import { estimateMessageTokens, isAgentVisible, type TokenCounter } from '../counting/token-counter.js';
import { summaryText } from '../messages/ctxkit-messages.js';
import { validCutPoints } from '../pipeline/internal/tool-pairing.js';
import { prepareModelMessages } from '../pipeline/prepare-model-messages.js';
import type { AssistantMessage, Message } from '../types.js';

/** The projection of a history and what it costs. @internal */
export interface Projection {
  messages: Message[];
  /** Tokens of the projected messages (no system prompt or tools), backed by usage where possible. */
  tokens: number;
  source: 'usage' | 'estimate' | 'mixed';
  /** Whether usage backs the count (then the system prompt and tools are already in it). */
  usageBacked: boolean;
}

interface Checkpoint {
  historyLength: number;
  projectedLength: number;
  staleUntil: number;
  anchor: number;
}

/** How many checkpoints a mid-history change may roll back over before projecting from scratch. */
const MAX_ROLLBACKS = 64;
/** About how many messages a checkpoint covers. */
const SEGMENT = 256;

function reusesCallIds(messages: readonly Message[]): boolean {
  const seen = new Set<string>();
  for (const message of messages) {
    for (const id of callIdsOf(message)) {
      if (seen.has(id)) return true;
      seen.add(id);
    }
  }
  return false;
}

function callIdsOf(message: Message): string[] {
  if (message.role !== 'assistant') return [];
  return message.content.flatMap((part) => (part.type === 'toolCall' ? [part.id] : []));
}

/**
 * Keeps the last projection and its running token sums so that a history that only grew at the end
 * costs work in proportion to what is new: the common prefix is found by object identity, and the
 * new suffix is projected alone when it is self-contained (no result for a call made before it).
 *
 * @internal
 */
export class ProjectionCache {
  private history: readonly Message[] = [];
  private projected: Message[] = [];
  /** `sums[i]` = tokens of the visible messages in `projected[0, i)`. */
  private sums: number[] = [0];
  /** The newest message that usage from before the latest compaction may sit on (see `findUsageAnchor`). */
  private staleUntil = -1;
  /** The newest assistant message with valid usage after `staleUntil`, or -1. */
  private anchor = -1;
  /** The tool-call ids of the projection (as sent: reused ids renamed), with how often each occurs. */
  private callIds = new Map<string, number>();
  /**
   * Where each projected chunk began: history and projection lengths and the usage-anchor state
   * then, so that a change in the middle of the history (tool results archived near its end) rolls
   * back to the chunk before it instead of projecting everything again.
   */
  private checkpoints: Checkpoint[] = [];

  constructor(private readonly counter: TokenCounter) {}

  /** Projects `history` (see `prepareModelMessages`) and counts it. */
  project(history: readonly Message[]): Projection {
    const prefix = this.commonPrefix(history);
    const start = prefix === this.history.length ? prefix : this.rollBack(history, prefix);
    if (start > 0 && this.isSelfContained(history, start)) {
      if (start < history.length) this.projectFrom(history, start);
    } else {
      this.clear();
      this.projectFrom(history, 0);
    }
    this.history = [...history];
    return this.measure();
  }

  /**
   * Projects `history[start…]` in segments of about {@link SEGMENT} messages, cut where no tool call
   * is parted from its results, so that later changes can roll back to a nearby checkpoint. The
   * caller has checked that `history[start…]` reuses no call id of the projection; when it reuses
   * one of its own (which the projection renames, looking back), it is projected in one piece.
   */
  private projectFrom(history: readonly Message[], start: number): void {
    const rest = history.slice(start);
    const valid = rest.length > SEGMENT && !reusesCallIds(rest) ? validCutPoints(rest) : undefined;
    let from = 0;
    while (from < rest.length) {
      let to = valid === undefined ? rest.length : Math.min(rest.length, from + SEGMENT);
      while (to < rest.length && !valid![to]) to++;
      this.extend(prepareModelMessages(rest.slice(from, to)), start + from);
      from = to;
    }
  }

  /**
   * Truncates the projection to the latest checkpoint at or before `prefix` from which `history`
   * can be projected on its own; returns its history length (0 when there is none nearby).
   */
  private rollBack(history: readonly Message[], prefix: number): number {
    for (let attempts = 0; attempts < MAX_ROLLBACKS; attempts++) {
      let checkpoint = this.checkpoints.pop();
      while (checkpoint !== undefined && checkpoint.historyLength > prefix) checkpoint = this.checkpoints.pop();
      if (checkpoint === undefined || checkpoint.historyLength === 0) return 0;
      this.truncate(checkpoint);
      if (this.isSelfContained(history, checkpoint.historyLength)) {
        this.checkpoints.push(checkpoint);
        return checkpoint.historyLength;
      }
    }
    return 0;
  }

  private truncate(checkpoint: Checkpoint): void {
    for (const message of this.projected.splice(checkpoint.projectedLength)) {
      for (const id of callIdsOf(message)) {
        const count = this.callIds.get(id)! - 1;
        if (count === 0) this.callIds.delete(id);
        else this.callIds.set(id, count);
      }
    }
    this.sums.length = checkpoint.projectedLength + 1;
    this.staleUntil = checkpoint.staleUntil;
    this.anchor = checkpoint.anchor;
    this.history = this.history.slice(0, checkpoint.historyLength);
  }

  /** Forgets everything, e.g. after the counter's view of the history was replaced. */
  reset(): void {
    this.history = [];
    this.clear();
  }

  private clear(): void {
    this.callIds = new Map();
    this.checkpoints = [];
    this.projected = [];
    this.sums = [0];
    this.staleUntil = -1;
    this.anchor = -1;
  }

  private commonPrefix(history: readonly Message[]): number {
    const limit = Math.min(history.length, this.history.length);
    let index = 0;
    while (index < limit && history[index] === this.history[index]) index++;
    return index;
  }

  private isSelfContained(history: readonly Message[], start: number): boolean {
    const calls = new Set<string>();
    for (let index = start; index < history.length; index++) {
      const message = history[index]!;
      if (message.role === 'assistant') {
        for (const part of message.content) {
          if (part.type !== 'toolCall') continue;
          // A reused id is renamed by the projection, which needs the calls before it to do so.
          if (this.callIds.has(part.id)) return false;
          calls.add(part.id);
        }
      } else if (message.role === 'toolResult' && !calls.has(message.toolCallId)) {
        return false;
      }
    }
    // The old projection may end with synthetic results for calls whose real results were pending.
    const last = history[start - 1];
    return !(last?.role === 'assistant' && last.content.some((part) => part.type === 'toolCall'));
  }

  private extend(messages: readonly Message[], historyLength: number): void {
    this.checkpoints.push({
      historyLength,
      projectedLength: this.projected.length,
      staleUntil: this.staleUntil,
      anchor: this.anchor,
    });
    let total = this.sums[this.sums.length - 1]!;
    for (const message of messages) {
      const index = this.projected.push(message) - 1;
      for (const id of callIdsOf(message)) this.callIds.set(id, (this.callIds.get(id) ?? 0) + 1);
      if (isAgentVisible(message)) total += estimateMessageTokens(message, this.counter);
      this.sums.push(total);
      // The same rule as findUsageAnchor, kept up to date one message at a time.
      if (message.meta?.kind === 'compaction_summary' || summaryText(message) !== undefined) {
        this.staleUntil = index + (message.meta?.keptMessages ?? 0);
        this.anchor = -1;
      } else if (message.meta?.kind === 'tool_summary') {
        this.staleUntil = Math.max(this.staleUntil, index);
        this.anchor = -1;
      } else if (
        index > this.staleUntil &&
        message.role === 'assistant' &&
        message.meta?.agentVisible !== false &&
        isValidUsage(message)
      ) {
        this.anchor = index;
      }
    }
  }

  private measure(): Projection {
    const messages = [...this.projected];
    const total = this.sums[this.sums.length - 1]!;
    const anchor = this.anchor;
    if (anchor < 0) return { messages, tokens: total, source: 'estimate', usageBacked: false };
    const after = total - this.sums[anchor + 1]!;
    const usage = usageTotal((messages[anchor] as AssistantMessage).usage!);
    return { messages, tokens: usage + after, source: after > 0 ? 'mixed' : 'usage', usageBacked: true };
  }
}
