import { isValidUsage, usageTotal } from '../counting/estimate-context-tokens.js';
import { isAgentVisible } from '../counting/is-agent-visible.js';
import { createMissingResult, MISSING_CONTENT } from '../messages/kept-tool-results.js';
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
 * - a reused call id is renamed `id#k` with the smallest free `k`, found from a per-id lower bound
 *   (never probed from 2 again), so reused ids cost the same as unique ones.
 * The one case that needs a rebuild is a new raw id equal to a fresh id made earlier (a host that
 * names its own ids `call_0#2`): {@link SentProjection.append} then reports it.
 *
 * It also keeps the usage anchor: the newest sendable assistant message with valid usage that no
 * compaction summary made stale. The anchor stores the difference between its usage and the
 * estimate of everything sent up to it; the context is then the running estimate plus that
 * difference, so archiving a tool result before the anchor lowers it by exactly what the archiving
 * removed, instead of discarding the provider's count.
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
  /** Usage of the anchor minus the estimate of `sent[0…anchor]`; undefined without an anchor. */
  private offset: number | undefined;
  /** Where the anchor sits in `sent`. */
  private anchorAt = -1;
  /** Tokens of a placeholder and of a synthetic result: their content is shared, so they are counted once. */
  private missingTokens = -1;

  constructor(private readonly count: (message: Message) => number) {}

  /** Messages of the history taken in so far. */
  get historyLength(): number {
    return this.length;
  }

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

  /** Tokens of the context by the usage anchor (system prompt and tools included), or undefined without one. */
  get anchored(): number | undefined {
    return this.offset === undefined ? undefined : this.sum + this.offset;
  }

  /** Whether messages were sent after the usage anchor (so part of {@link anchored} is estimated). */
  get estimatedAfterAnchor(): boolean {
    return this.sent.length > this.anchorAt + 1;
  }

  /** The projection of a whole history. */
  static of(history: readonly Message[], count: (message: Message) => number): SentProjection {
    const projection = new SentProjection(count);
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
   * `archivedAs`, for a tool result, is its archived copy: the result is sent as that copy's
   * placeholder at once (never counted itself), as {@link replaceResult} would leave it.
   */
  append(message: Message, archivedAs?: ToolResultMessage): boolean {
    const index = this.length++;
    this.last = -1;
    switch (message.role) {
      case 'user': {
        const sendable = isAgentVisible(message) ? withoutEmptyUserParts(message) : undefined;
        if (sendable !== undefined) this.last = this.push(sendable);
        return true;
      }
      case 'toolResult':
        return this.appendResult(message, archivedAs);
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

  private appendResult(result: ToolResultMessage, archivedAs: ToolResultMessage | undefined): boolean {
    const id = result.toolCallId;
    if (this.ids.isFresh(id)) return false;
    this.ids.note(id);
    const call = this.open.take(id);
    if (call === undefined) return true; // an orphan or a second result: dropped
    if (call.sent < 0) return true; // its call is not sent (hidden, aborted or failed turn)
    this.last = call.sent;
    this.set(call.sent, sendable(archivedAs ?? result, call.id));
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
    const tokens = this.tokensOf(message);
    this.counts.push(tokens);
    this.sum += tokens;
    if (message.role === 'user') this.noteSummary(message, position);
    return position;
  }

  /** Tokens of a message to send; a synthetic result's are counted once (its content is shared). */
  private tokensOf(message: Message): number {
    if (message.content === MISSING_CONTENT) {
      if (this.missingTokens < 0) this.missingTokens = this.count(message);
      return this.missingTokens;
    }
    return this.count(message);
  }

  private set(position: number, message: Message): void {
    const tokens = this.tokensOf(message);
    this.sum += tokens - this.counts[position]!;
    this.counts[position] = tokens;
    this.sent[position] = message;
  }

  /** A compaction summary makes the usage before it, and on the messages it kept, stale. */
  private noteSummary(message: Message, position: number): void {
    if (message.meta?.kind === 'compaction_summary' || summaryText(message) !== undefined) {
      this.staleUntil = position + (message.meta?.keptMessages ?? 0);
      this.offset = undefined;
      this.anchorAt = -1;
    }
  }

  private noteUsage(message: AssistantMessage): void {
    const position = this.sent.length - 1;
    if (position <= this.staleUntil || !isValidUsage(message)) return;
    this.offset = usageTotal(message.usage!) - this.sum;
    this.anchorAt = position;
  }
}

/** Whether a call before `rank` in `calls` has the same raw id as the call at `rank`. */
function sharesRawId(calls: readonly OpenCall[], rank: number): boolean {
  for (let earlier = 0; earlier < rank; earlier++) if (calls[earlier]!.raw === calls[rank]!.raw) return true;
  return false;
}
