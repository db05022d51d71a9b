import { isAgentVisible } from '../counting/is-agent-visible.js';
import { archiveToolResult } from '../messages/internal/kept-tool-results.js';
import type { Message, ToolResultMessage } from '../types.js';
import type { CallOptions } from './context-manager-types.js';
import { EarlyArchive } from './internal/early-archive.js';
import { type ArrayLengths, HistoryArrays } from './internal/history-arrays.js';
import { continues, isHostTurn } from './internal/host-input.js';
import { checkAndTally, type IntakeTally } from './internal/intake-tally.js';
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
 * old tool results are archived in batches (see `toolSummaryBatch`), in place. Nothing is copied
 * per call: `history` and `projection.sent` are the arrays the host receives, kept up to date by
 * later calls (see {@link HistoryArrays} for who writes which array). Taking in what needs no cutting, spilling or summary is synchronous: only
 * those steps return a promise.
 *
 * @internal
 */
export class ManagedHistory {
  private readonly arrays = new HistoryArrays();
  projection: SentProjection;
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
    const start = this.arrays.startOf(input);
    if (start < 0) return this.restart(input, where, callOptions);
    // Every new message is checked before any is taken in, so a bad one leaves the state as it was.
    const tally = checkAndTally(input, start, where);
    this.arrays.settle();
    return this.ingest(input, start, tally, callOptions);
  }

  /** Takes only what is new: `messages` follow the previous input. */
  append(messages: readonly Message[], where: string, callOptions: CallOptions): boolean | Promise<boolean> {
    this.checkHandedOut(undefined);
    // Named by their place in the array the host appended, not in the history.
    return this.ingest(messages, 0, checkAndTally(messages, 0, where), callOptions);
  }

  /** ctxkit's history: what the host receives as `history`. */
  get history(): Message[] {
    return this.arrays.history;
  }

  /** Notes the lengths of the arrays the host is about to receive. */
  handOut(): void {
    this.handedHistory = this.history.length;
    this.handedSent = this.projection.sent.length;
  }

  /** Adopts a compacted history; the host goes on from `known` (or its previous input) or from this history. */
  replace(history: readonly Message[], known?: readonly Message[]): void {
    this.arrays.replace(history, known);
    this.rebuild();
  }

  /** Whether `input` is exactly what the manager holds (the host's last input or the history). */
  holds(input: readonly Message[]): boolean {
    const { known, mirror } = this.arrays;
    return (
      (input.length === known.length && continues(input, known)) ||
      (input.length === mirror.length && continues(input, mirror))
    );
  }

  /**
   * The history `input` stands for when it continues the host's last input or the history
   * (possibly with new messages): the manager's history plus what `input` adds; else undefined.
   */
  continuation(input: readonly Message[]): Message[] | undefined {
    const { known, mirror } = this.arrays;
    if (input !== this.history && continues(input, known)) return mirror.concat(input.slice(known.length));
    if (continues(input, mirror)) return mirror.concat(input.slice(mirror.length));
    return undefined;
  }

  private restart(input: readonly Message[], where: string, callOptions: CallOptions): boolean | Promise<boolean> {
    const tally = checkAndTally(input, 0, where);
    this.arrays.clear();
    this.rebuild();
    return this.ingest(input, 0, tally, callOptions);
  }

  /**
   * Takes in checked messages; synchronous until a tool output needs cutting or a batch is due.
   * A step that fails (an abort) leaves the state as it was before these messages.
   */
  private ingest(
    input: readonly Message[],
    start: number,
    tally: IntakeTally,
    callOptions: CallOptions,
  ): boolean | Promise<boolean> {
    const before = this.arrays.lengths();
    this.early.plan(tally, this.visible.size, this.options.config);
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
    this.early.restore(this.projection, this.arrays.mirror);
    return startsTurn;
  }

  private undoOnFailure(step: Promise<boolean>, before: ArrayLengths): Promise<boolean> {
    return step.catch((error: unknown) => {
      this.arrays.truncate(before);
      this.early.clear();
      this.rebuild();
      throw error;
    });
  }

  /** Takes in a message of the host's (`kept` is what the history keeps: its tool output cut, or itself). */
  private takeIn(message: Message, kept: Message): void {
    this.project(kept, this.arrays.takeIn(message, kept));
  }

  /** Projects the message at history index `index`, just appended. */
  private project(message: Message, index: number): void {
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
    const batch = await summarizeBatch(this.arrays.mirror, this.visible, this.options, callOptions);
    const { indexes, positions, outcome } = batch;
    this.visible.drop(indexes.length);
    // A loop, not a callback: a closure made per call is compiled again by V8 once it is hot.
    const hidden: ToolResultMessage[] = [];
    for (let rank = 0; rank < indexes.length; rank++) {
      const index = indexes[rank]!;
      const early = this.early.copyOf(index); // sent as its placeholder already
      const copy = early ?? archiveToolResult(this.arrays.mirror[index] as ToolResultMessage);
      if (early === undefined) this.projection.replaceResult(positions[rank]!, copy);
      hidden.push(copy);
    }
    this.arrays.replaceAt(indexes, hidden);
    this.early.clear();
    this.project(outcome.message, this.arrays.push(outcome.message));
    this.options.emit(summarizedEvent(batch));
  }

  /**
   * The host changed an array it received: the history becomes a copy of the private one again (it
   * pushed onto it without passing it: the array is the host's; the projection, made from the
   * private copy, still holds, and with it any usage the host recorded), the projection is rebuilt.
   */
  private checkHandedOut(input: readonly Message[] | undefined): void {
    if (this.history.length !== this.handedHistory && input !== this.history) this.arrays.restoreHistory();
    if (this.projection.sent.length !== this.handedSent) this.rebuild();
  }

  /** Projects the history from scratch, noting its visible tool results and where they are sent. */
  private rebuild(): void {
    this.projection = projectHistory(this.arrays.mirror, this.options.count, this.visible, this.early);
    this.options.onRebuild();
  }
}
