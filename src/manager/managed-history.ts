import { isAgentVisible } from '../counting/is-agent-visible.js';
import { archiveToolResult } from '../messages/internal/kept-tool-results.js';
import type { Message, ToolResultMessage } from '../types.js';
import { assertMessage } from '../validation/assert-messages.js';
import type { CallOptions } from './context-manager-types.js';
import { EarlyArchive } from './internal/early-archive.js';
import { continues, isHostTurn } from './internal/host-input.js';
import type { ManagedHistoryOptions } from './internal/managed-history-options.js';
import { projectHistory } from './internal/project-history.js';
import { summarizeBatch, summarizedEvent } from './internal/summarize-batch.js';
import { VisibleResults } from './internal/visible-results.js';
import { SentProjection } from './sent-projection.js';

/**
 * The manager's history and its projection, kept up to date one new message at a time.
 *
 * A host hands in its whole array each call (`take`), or only what is new (`append`). For a whole
 * array, the manager finds what is new by comparing it with a private copy of the previous input
 * (or with its own history, when the host keeps that one), object by object (see `continues`: the
 * host may change its array anywhere between calls). New messages are
 * checked, their tool output cut to the limits, and appended to the history and the projection;
 * old tool results are archived in batches (see `toolSummaryBatch`), in place. Nothing else is
 * copied per call: `history` and `projection.sent` are the arrays the host receives, kept up to
 * date by later calls. Taking in what needs no cutting, spilling or summary is synchronous: only
 * those steps return a promise.
 *
 * @internal
 */
export class ManagedHistory {
  /** ctxkit's history: what the host receives as `history`. */
  history: Message[] = [];
  /** A private copy of `history`, which the host may change once it holds it. */
  private mirror: Message[] = [];
  projection: SentProjection;
  /** A private copy of the host's latest input, which the next input is compared with. */
  private known: Message[] = [];
  /** Since a compaction: its history and the messages appended since, as a host that took it holds them. */
  private compacted: Message[] | undefined;
  /** Lengths of `history` and `projection.sent` when the host last received them. */
  private handedHistory = 0;
  private handedSent = 0;
  private readonly visible = new VisibleResults();
  private readonly early = new EarlyArchive();

  constructor(private readonly options: ManagedHistoryOptions) {
    this.projection = new SentProjection(options.count);
  }

  /**
   * Takes the host's whole array: what continues the previous input (or the history) is appended,
   * anything else starts over. Returns whether a new message starts a turn (a user message the
   * host wrote), or a promise of it when a step is asynchronous.
   */
  take(input: readonly Message[], where: string, callOptions: CallOptions): boolean | Promise<boolean> {
    this.checkHandedOut(input);
    let start: number;
    if (input === this.history) {
      // The history it received, now the host's: changed anywhere? Compared with the manager's copy.
      if (!continues(input, this.mirror)) return this.restart(input, where, callOptions);
      start = this.mirror.length;
      this.history = input.slice(0, start);
      this.known = input.slice(0, start);
    } else if (continues(input, this.known)) {
      start = this.known.length;
    } else if (this.compacted !== undefined && continues(input, this.compacted)) {
      start = this.compacted.length;
      this.known = this.compacted;
    } else if (continues(input, this.mirror)) {
      start = this.mirror.length;
      this.known = this.mirror.slice();
    } else {
      return this.restart(input, where, callOptions);
    }
    // Every new message is checked before any is taken in, so a bad one leaves the state as it was.
    for (let index = start; index < input.length; index++) assertMessage(input[index], where, index);
    this.compacted = undefined;
    return this.ingest(input, start, callOptions);
  }

  /** Takes only what is new: `messages` follow the previous input. */
  append(messages: readonly Message[], where: string, callOptions: CallOptions): boolean | Promise<boolean> {
    this.checkHandedOut(undefined);
    // Named by their place in the array the host appended, not in the history.
    for (let index = 0; index < messages.length; index++) assertMessage(messages[index], where, index);
    return this.ingest(messages, 0, callOptions);
  }

  /** Notes the lengths of the arrays the host is about to receive. */
  handOut(): void {
    this.handedHistory = this.history.length;
    this.handedSent = this.projection.sent.length;
  }

  /** Adopts a compacted history; the host goes on from `known` (or its previous input) or from this history. */
  replace(history: readonly Message[], known?: readonly Message[]): void {
    this.history = [...history];
    this.mirror = [...history];
    if (known !== undefined) this.known = [...known];
    this.compacted = [...history];
    this.rebuild();
  }

  /** Whether `input` is exactly what the manager holds (the host's last input or the history). */
  holds(input: readonly Message[]): boolean {
    return (
      (input.length === this.known.length && continues(input, this.known)) ||
      (input.length === this.mirror.length && continues(input, this.mirror))
    );
  }

  /** Whether `input` continues the host's last input or the history (possibly with new messages). */
  continues(input: readonly Message[]): boolean {
    return continues(input, this.known) || continues(input, this.mirror);
  }

  /** The history `input` stands for: the manager's history plus what `input` adds, or `input` itself. */
  continuation(input: readonly Message[]): Message[] {
    if (input !== this.history && continues(input, this.known)) {
      return this.history.concat(input.slice(this.known.length));
    }
    if (continues(input, this.mirror)) return this.mirror.concat(input.slice(this.mirror.length));
    return input.slice();
  }

  private restart(input: readonly Message[], where: string, callOptions: CallOptions): boolean | Promise<boolean> {
    for (let index = 0; index < input.length; index++) assertMessage(input[index], where, index);
    this.history = [];
    this.mirror = [];
    this.known = [];
    this.compacted = undefined;
    this.rebuild();
    return this.ingest(input, 0, callOptions);
  }

  /**
   * Takes in checked messages; synchronous until a tool output needs cutting or a batch is due.
   * A step that fails (an abort) leaves the state as it was before these messages.
   */
  private ingest(input: readonly Message[], start: number, callOptions: CallOptions): boolean | Promise<boolean> {
    const before = [this.known.length, this.history.length, this.compacted?.length ?? 0] as const;
    this.projection.reserveCalls(this.early.plan(input, start, this.visible.size, this.options.config));
    const taken = this.intake(input, start, false, callOptions);
    return typeof taken === 'boolean' ? taken : this.undoOnFailure(taken, before);
  }

  /**
   * Takes in `input[from…]`, then archives a batch when one is due. Synchronous up to the first
   * tool output that needs cutting (taken in once cut, then the rest the same way) or the batch.
   */
  private intake(
    input: readonly Message[],
    from: number,
    startsTurn: boolean,
    callOptions: CallOptions,
  ): boolean | Promise<boolean> {
    for (let index = from; index < input.length; index++) {
      const message = input[index]!;
      if (message.role === 'toolResult' && !this.options.guard.fits(message)) {
        return this.options.guard.processOne(message, this.options.emit).then((kept) => {
          this.takeIn(message, kept);
          return this.intake(input, index + 1, startsTurn, callOptions);
        });
      }
      if (isHostTurn(message)) startsTurn = true;
      this.takeIn(message, message);
    }
    if (this.archiveDue()) return this.archive(callOptions).then(() => startsTurn);
    this.early.restore(this.projection, this.history);
    return startsTurn;
  }

  private undoOnFailure(step: Promise<boolean>, [known, history, compacted]: readonly number[]): Promise<boolean> {
    return step.catch((error: unknown) => {
      this.known.length = known!;
      if (this.compacted !== undefined) this.compacted.length = compacted!;
      this.history.length = history!;
      this.mirror.length = history!;
      this.early.clear();
      this.rebuild();
      throw error;
    });
  }

  /** Takes in a message of the host's (`kept` is what the history keeps: its tool output cut, or itself). */
  private takeIn(message: Message, kept: Message): void {
    this.known.push(message);
    this.compacted?.push(message);
    this.push(kept);
  }

  private push(message: Message): void {
    const index = this.history.push(message) - 1;
    this.mirror.push(message);
    const early = this.early.take(message, index);
    if (!this.projection.append(message, early)) this.rebuild();
    else if (message.role === 'toolResult' && isAgentVisible(message)) {
      this.early.sentAt(early, this.projection.lastPosition);
      this.visible.add(index, this.projection.lastPosition);
    }
  }

  /** Whether more than `toolCallCutoff + toolSummaryBatch` tool results are visible (and a strategy archives them). */
  private archiveDue(): boolean {
    const { toolSummaryStrategy: strategy, toolCallCutoff: cutoff, toolSummaryBatch: batch } = this.options.config;
    return strategy !== 'off' && this.visible.size > cutoff + batch;
  }

  /**
   * Archives the oldest visible tool results down to `toolCallCutoff`, under one summary. The
   * summary is made first: when the summarizer is aborted nothing changes.
   */
  private async archive(callOptions: CallOptions): Promise<void> {
    const batch = await summarizeBatch(this.history, this.visible, this.options, callOptions);
    const { indexes, positions, outcome } = batch;
    this.visible.drop(indexes.length);
    indexes.forEach((index, rank) => {
      const early = this.early.copyOf(index); // sent as its placeholder already
      const hidden = early ?? archiveToolResult(this.history[index] as ToolResultMessage);
      this.history[index] = hidden;
      this.mirror[index] = hidden;
      if (early === undefined) this.projection.replaceResult(positions[rank]!, hidden);
    });
    this.early.clear();
    this.push(outcome.message);
    this.options.emit(summarizedEvent(batch));
  }

  /** The host changed an array it received: the projection or the history is rebuilt from what the manager knows. */
  private checkHandedOut(input: readonly Message[] | undefined): void {
    const historyChanged = this.history.length !== this.handedHistory && input !== this.history;
    if (historyChanged) this.history = this.mirror.slice();
    if (historyChanged || this.projection.sent.length !== this.handedSent) this.rebuild();
  }

  /** Projects the history from scratch, noting its visible tool results and where they are sent. */
  private rebuild(): void {
    this.projection = projectHistory(this.history, this.options.count, this.visible, this.early);
    this.options.onRebuild();
  }
}
