import { isValidUsage, usageTotal } from '../counting/estimate-context-tokens.js';
import { isAgentVisible } from '../counting/is-agent-visible.js';
import { createMissingResult } from '../messages/kept-tool-results.js';
import { summaryText } from '../messages/summary-text.js';
import { withoutEmptyAssistantParts, withoutEmptyUserParts } from '../pipeline/empty-content.js';
import type { AssistantMessage, Message, ToolResultMessage } from '../types.js';
import { CallIds } from './internal/call-ids.js';
import { type OpenCall, OpenCalls } from './internal/open-calls.js';
import { sendable, withCallIds } from './internal/sent-messages.js';

/**
 * The projection of a history as `prepareModelMessages` defines it, built one message at a time,
 * with its token sum kept up to date, so that a history that grows at its end costs work in
 * proportion to what is new, whatever ids it reuses:
 * - a tool call is sent at once with a synthetic result, which its real result replaces in place
 *   when it arrives (a result answers the nearest earlier unanswered call with its id);
 * - a tool result archived later is replaced in place by its placeholder;
 * - a reused call id is renamed `id_k` (see `prepareModelMessages`) with the smallest free `k`, found from a per-id lower bound
 *   (never probed from 2 again), so reused ids cost the same as unique ones.
 * The one case that needs a rebuild is a new raw id equal to a fresh id made earlier (a host that
 * names its own ids `call_0_2`): {@link SentProjection.append} then reports it.
 *
 * It also keeps the usage anchor: the newest sendable assistant message with valid usage that no
 * compaction summary made stale. The anchor stores its usage and the estimate of everything sent up
 * to it; the context is then its usage plus how much the running estimate moved since (grown by the
 * calibration where it grew), so archiving a tool result before the anchor lowers it by exactly
 * what the archiving removed, instead of discarding the provider's count. Each anchor is also
 * reported to `observe` (its prompt tokens and the estimate of the request it answered), from which
 * the manager learns how the provider's count drifts from the counter's.
 *
 * @internal
 */
export class SentProjection {
  /** The messages to send. */
  readonly sent: Message[] = [];
  /** Tokens of each sent message, by position. */
  private readonly counts: number[] = [];
  /** Sum of {@link counts}. */
  private sum = 0;
  private length = 0;
  /** Where the message appended last (or the result it is) sits in `sent`, or -1. */
  private last = -1;
  private readonly open = new OpenCalls();
  /** The ids met so far: which raw ids were sent as a call's, which fresh ids were made. */
  private readonly ids = new CallIds();
  /** Sent index up to which usage is stale (a compaction summary and the messages it kept). */
  private staleUntil = -1;
  /** Usage of the anchor (prompt and response), and the estimate of `sent[0…anchor]`; undefined without an anchor. */
  private anchor: { usage: number; estimate: number } | undefined;
  /** Where the anchor sits in `sent`. */
  private anchorAt = -1;

  /**
   * @param count - Tokens of a message by the counter.
   * @param observe - Told of each anchor: the provider's prompt tokens and the estimate of the
   *   messages sent before it (system prompt and tools not included).
   */
  constructor(
    private readonly count: (message: Message) => number,
    private readonly observe?: (prompt: number, estimate: number) => void,
  ) {}

  /**
   * Where the message appended last sits in `sent` (a result: where its call's result is sent), or
   * -1 when it is not sent. The manager keeps it for the results it may archive (see
   * {@link replaceResult}), instead of the projection keeping one per message.
   */
  get lastPosition(): number {
    return this.last;
  }

  /** Estimated tokens of the sent messages. */
  get estimate(): number {
    return this.sum;
  }

  /**
   * Tokens of the context by the usage anchor (system prompt and tools included), or undefined
   * without one: its usage plus how much the estimate moved since, passed through `scale` (the
   * calibration; as estimated without it).
   */
  anchored(scale: (tokens: number) => number = (tokens) => tokens): number | undefined {
    const anchor = this.anchor;
    return anchor === undefined ? undefined : Math.max(0, anchor.usage + scale(this.sum - anchor.estimate));
  }

  /** Whether messages were sent after the usage anchor (so part of {@link anchored} is estimated). */
  get estimatedAfterAnchor(): boolean {
    return this.sent.length > this.anchorAt + 1;
  }

  /** The projection of a whole history. */
  static of(
    history: readonly Message[],
    count: (message: Message) => number,
    observe?: (prompt: number, estimate: number) => void,
  ): SentProjection {
    const projection = new SentProjection(count, observe);
    projection.seedIds(history);
    for (const message of history) projection.append(message);
    return projection;
  }

  /** Tokens of one sent message. */
  tokensAt(sentIndex: number): number {
    return this.counts[sentIndex] ?? 0;
  }

  /**
   * Notes every id of a history about to be taken in whole, so no fresh id clashes with a later
   * one (then {@link append} never asks for a rebuild).
   */
  seedIds(history: readonly Message[]): void {
    for (const message of history) {
      if (message.role === 'toolResult') this.ids.note(message.toolCallId);
      else if (message.role === 'assistant')
        for (const part of message.content) if (part.type === 'toolCall') this.ids.note(part.id);
    }
  }

  /**
   * Takes in the next message of the history. Returns false when the projection must be rebuilt
   * from scratch (a new raw id equals a fresh id made earlier); it is then left incomplete.
   */
  append(message: Message): boolean {
    const index = this.length++;
    this.last = -1;
    switch (message.role) {
      case 'user': {
        const sendable = isAgentVisible(message) ? withoutEmptyUserParts(message) : undefined;
        if (sendable !== undefined) this.last = this.push(sendable);
        return true;
      }
      case 'toolResult':
        return this.appendResult(message);
      case 'assistant':
        return this.appendAssistant(message, index);
    }
  }

  /**
   * Replaces the tool result sent at `position` (its {@link lastPosition} when it was appended; -1
   * does nothing) by `result`, the same result archived: hidden, sent as a placeholder.
   */
  replaceResult(position: number, result: ToolResultMessage): void {
    if (position < 0) return;
    const current = this.sent[position] as ToolResultMessage;
    this.set(position, sendable(result, current.toolCallId));
  }

  private appendResult(result: ToolResultMessage): boolean {
    const id = result.toolCallId;
    if (this.ids.isFresh(id)) return false;
    this.ids.note(id);
    const call = this.open.take(id);
    if (call === undefined) return true; // an orphan or a second result: dropped
    if (call.sent < 0) return true; // its call is not sent (hidden, aborted or failed turn)
    this.last = call.sent;
    this.set(call.sent, sendable(result, call.id));
    return true;
  }

  private appendAssistant(message: AssistantMessage, index: number): boolean {
    const calls: OpenCall[] = [];
    for (const part of message.content) {
      if (part.type !== 'toolCall') continue;
      if (this.ids.isFresh(part.id)) return false;
      this.ids.note(part.id);
      calls.push({ message: index, sent: -1, id: part.id, raw: part.id });
    }
    this.open.addMessage(calls);
    if (!isAgentVisible(message) || message.stopReason === 'aborted' || message.stopReason === 'error') return true;
    const sendable = withoutEmptyAssistantParts(message);
    if (sendable === undefined) return true;
    // A raw id already sent, or sent by an earlier call of this message, is renamed.
    let renamed = false;
    for (let rank = 0; rank < calls.length; rank++) {
      const call = calls[rank]!;
      if (this.ids.wasSent(call.id) || sharesRawId(calls, rank)) {
        call.id = this.ids.freshId(call.id);
        renamed = true;
      }
    }
    const sentMessage = renamed ? withCallIds(sendable, calls) : sendable;
    const position = this.push(sentMessage);
    this.last = position;
    for (const call of calls) if (call.id === call.raw) this.ids.addSent(call.id);
    this.noteUsage(sentMessage);
    let rank = 0;
    for (const part of message.content) {
      if (part.type !== 'toolCall') continue;
      const call = calls[rank++]!;
      call.sent = this.push(createMissingResult(call.id, part.name));
    }
    return true;
  }

  private push(message: Message): number {
    const position = this.sent.push(message) - 1;
    const tokens = this.count(message);
    this.counts.push(tokens);
    this.sum += tokens;
    if (message.role === 'user') this.noteSummary(message, position);
    return position;
  }

  private set(position: number, message: Message): void {
    const tokens = this.count(message);
    this.sum += tokens - this.counts[position]!;
    this.counts[position] = tokens;
    this.sent[position] = message;
  }

  /** A compaction summary makes the usage before it, and on the messages it kept, stale. */
  private noteSummary(message: Message, position: number): void {
    if (message.meta?.kind === 'compaction_summary' || summaryText(message) !== undefined) {
      this.staleUntil = position + (message.meta?.keptMessages ?? 0);
      this.anchor = undefined;
      this.anchorAt = -1;
    }
  }

  private noteUsage(message: AssistantMessage): void {
    const position = this.sent.length - 1;
    if (position <= this.staleUntil || !isValidUsage(message)) return;
    const usage = message.usage!;
    this.anchor = { usage: usageTotal(usage), estimate: this.sum };
    this.anchorAt = position;
    this.observe?.(usage.input + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0), this.sum - this.counts[position]!);
  }
}

/** Whether a call before `rank` in `calls` has the same raw id as the call at `rank`. */
function sharesRawId(calls: readonly OpenCall[], rank: number): boolean {
  for (let earlier = 0; earlier < rank; earlier++) if (calls[earlier]!.raw === calls[rank]!.raw) return true;
  return false;
}
