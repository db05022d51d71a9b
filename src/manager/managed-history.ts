import type { ContextConfig } from '../config/index.js';
import type { Summarizer } from '../summarizing/summarizer-types.js';
import type { Message } from '../types.js';
import type { CallOptions } from './context-manager-types.js';
import type { CostPolicy } from './cost-policy.js';
import type { ContextEvent } from './events.js';
import { type ArrayLengths, HistoryArrays } from './history-arrays.js';
import { checkNew, isHostTurn } from './internal/host-input.js';
import { SentProjection } from './sent-projection.js';
import { ToolBatches } from './tool-batches.js';
import type { ToolOutputGuard } from './tool-output-guard.js';

/** What {@link ManagedHistory} needs from the manager. @internal */
interface ManagedHistoryOptions {
  config: ContextConfig;
  count: (message: Message) => number;
  guard: ToolOutputGuard;
  summarizer: Summarizer;
  emit: (event: ContextEvent) => void;
  /** Called when the projection is rebuilt from scratch (usage recorded before it no longer applies). */
  onRebuild: () => void;
  /** The cost-aware archive policy, when on. */
  policy?: CostPolicy | undefined;
  /** Told of each usage anchor the projection takes in (see {@link SentProjection}). */
  observe?: ((prompt: number, estimate: number) => void) | undefined;
}

/**
 * The manager's history and what is sent of it, kept up to date one new message at a time, through
 * the first four stages of a call, in order:
 *
 * 1. take what is new ({@link HistoryArrays}): the host hands in its whole array (`take`), which
 *    is compared object by object with the arrays it may go on from (the host may change its
 *    array anywhere between calls), or only what is new (`append`); every new message is checked
 *    before any is taken in;
 * 2. guard tool output ({@link ToolOutputGuard}): a new tool result over the limits is cut (and spilled);
 * 3. archive a batch ({@link ToolBatches}): past `toolCallCutoff + toolSummaryBatch` visible
 *    results, the oldest are archived behind one summary;
 * 4. project what is sent ({@link SentProjection}): each message kept is appended to what is sent,
 *    with its token count.
 *
 * Nothing is copied per call: `history` and `projection.sent` are the arrays the host receives,
 * kept up to date by later calls. Taking in what needs no cutting, spilling or summary is
 * synchronous: only those steps return a promise.
 *
 * @internal
 */
export class ManagedHistory {
  private readonly arrays = new HistoryArrays();
  private readonly batches: ToolBatches;
  projection: SentProjection;
  /** Lengths of `history` and `projection.sent` when the host last received them. */
  private handedHistory = 0;
  private handedSent = 0;

  constructor(private readonly options: ManagedHistoryOptions) {
    this.projection = new SentProjection(options.count, options.observe);
    this.batches = new ToolBatches(options);
  }

  /**
   * Takes the host's whole array: what continues the previous input (or the history) is taken in,
   * anything else starts over. Returns whether a new message starts a turn (a user message the
   * host wrote), or a promise of it when a step is asynchronous.
   */
  take(input: readonly Message[], where: string, callOptions: CallOptions): boolean | Promise<boolean> {
    this.checkHandedOut(input);
    // 1. Take what is new: where the input goes on from what the manager holds (-1: nowhere).
    const start = this.arrays.startOf(input);
    checkNew(input, Math.max(0, start), where);
    if (start < 0) {
      this.arrays.clear();
      this.rebuild();
    } else this.arrays.settle();
    return this.takeNew(input, Math.max(0, start), callOptions);
  }

  /** Takes only what is new: `messages` follow the previous input. */
  append(messages: readonly Message[], where: string, callOptions: CallOptions): boolean | Promise<boolean> {
    this.checkHandedOut(undefined);
    checkNew(messages, 0, where);
    return this.takeNew(messages, 0, callOptions);
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
    return this.arrays.holds(input);
  }

  /**
   * The history `input` stands for when it continues the host's last input or the history
   * (possibly with new messages): the manager's history plus what `input` adds; else undefined.
   */
  continuation(input: readonly Message[]): Message[] | undefined {
    return this.arrays.continuation(input);
  }

  /**
   * Takes in the checked messages `input[start…]`, then archives a batch when one is due. A step
   * that fails (an abort) leaves the state as it was before these messages.
   */
  private takeNew(input: readonly Message[], start: number, callOptions: CallOptions): boolean | Promise<boolean> {
    const before = this.arrays.lengths();
    const taken = this.intake(input, start, false, callOptions);
    return typeof taken === 'boolean' ? taken : this.undoOnFailure(taken, before);
  }

  /**
   * Runs stages 2–4 on each message of `input[from…]`, then stage 3's archive when a batch is due.
   * Synchronous up to the first tool output that needs cutting (taken in once cut, then the rest
   * the same way) or the batch.
   */
  private intake(
    input: readonly Message[],
    from: number,
    startsTurn: boolean,
    callOptions: CallOptions,
  ): boolean | Promise<boolean> {
    const { guard, emit } = this.options;
    for (let index = from; index < input.length; index++) {
      const message = input[index]!;
      // 2. Guard tool output: a result over the limits is cut (an async step), then taken in.
      if (message.role === 'toolResult' && !guard.fits(message)) {
        return guard.cut(message, emit).then((kept) => {
          this.takeIn(message, kept);
          return this.intake(input, index + 1, startsTurn, callOptions);
        });
      }
      if (isHostTurn(message)) startsTurn = true;
      this.takeIn(message, message);
    }
    // 3. Archive a batch, when one is due.
    if (this.batches.due(this.projection)) return this.archiveBatch(callOptions).then(() => startsTurn);
    return startsTurn;
  }

  private undoOnFailure(step: Promise<boolean>, before: ArrayLengths): Promise<boolean> {
    return step.catch((error: unknown) => {
      this.arrays.truncate(before);
      this.rebuild();
      throw error;
    });
  }

  /** A message of the host's enters the history (`kept` is what the history keeps: its tool output cut, or itself), then what is sent. */
  private takeIn(message: Message, kept: Message): void {
    this.project(kept, this.arrays.takeIn(message, kept));
  }

  /** 4. Projects the message just appended at history index `index`, noting where a tool result is sent. */
  private project(message: Message, index: number): void {
    if (!this.projection.append(message)) this.rebuild();
    else this.batches.note(message, index, this.projection.lastPosition);
  }

  /** 3. Archives the batch due: the summary is made first (when the summarizer is aborted nothing changes), then applied. */
  private async archiveBatch(callOptions: CallOptions): Promise<void> {
    const batch = await this.batches.archive(this.arrays.mirror, this.projection, callOptions);
    this.arrays.replaceAt(batch.indexes, batch.copies);
    this.project(batch.summary, this.arrays.push(batch.summary));
    this.options.emit(batch.event);
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

  /** Projects the history from scratch (a new raw id equal to a fresh one, a history replaced or changed), noting its tool results. */
  private rebuild(): void {
    const history = this.arrays.mirror;
    const projection = new SentProjection(this.options.count, this.options.observe);
    projection.seedIds(history);
    this.batches.restart();
    for (let index = 0; index < history.length; index++) {
      projection.append(history[index]!);
      this.batches.note(history[index]!, index, projection.lastPosition);
    }
    this.projection = projection;
    this.options.onRebuild();
  }
}
