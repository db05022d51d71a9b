/** The arrays the manager keeps of its history and of the host's input, and who may write each. */
import type { Message } from '../../types.js';
import { continues } from './host-input.js';

/** Lengths of the arrays before an intake, to undo it. @internal */
export type ArrayLengths = readonly [known: number, history: number, compacted: number];

/**
 * ctxkit's history, the array the host receives as `history`, and a private copy of the host's
 * latest input, kept without a copy per call:
 *
 * - `mirror` is the history, private: nothing outside the manager writes it.
 * - `history` is what the host receives. It is ctxkit's own array, appended to in place, until the
 *   host pushes onto it and hands it back; it is then the host's array, which ctxkit never writes:
 *   it stays the history while the messages in it are the history's (nothing cut or archived),
 *   and becomes a copy of `mirror` the moment they would part.
 * - `known` is what the host passed last, which its next array is compared with. While that holds
 *   the history's messages it is `mirror` itself, copied only when the two part.
 * - `compacted`, after a compaction, is its history and what came since, as a host that took the
 *   compacted history holds it.
 *
 * @internal
 */
export class HistoryArrays {
  history: Message[] = [];
  private hostsHistory = false;
  private mirrorArray: Message[] = [];
  private knownArray: Message[] = [];
  private knownIsMirror = false;
  private compactedArray: Message[] | undefined;
  /** What the input {@link startOf} looked at last goes on from, until {@link settle}. */
  private way: 'history' | 'known' | 'compacted' | 'mirror' | undefined;

  get mirror(): readonly Message[] {
    return this.mirrorArray;
  }

  get known(): readonly Message[] {
    return this.knownArray;
  }

  /**
   * Where `input` goes on from what these arrays hold, or -1: it starts over. Changes nothing until
   * {@link settle}: an input refused for a bad new message leaves the arrays as they were.
   */
  startOf(input: readonly Message[]): number {
    this.way = undefined;
    if (input === this.history) {
      // The history it received, now the host's: changed anywhere? Compared with the private copy.
      if (continues(input, this.mirrorArray)) this.way = 'history';
    } else if (continues(input, this.knownArray)) this.way = 'known';
    else if (this.compactedArray !== undefined && continues(input, this.compactedArray)) this.way = 'compacted';
    else if (continues(input, this.mirrorArray)) this.way = 'mirror';
    if (this.way === 'known') return this.knownArray.length;
    if (this.way === 'compacted') return this.compactedArray!.length;
    return this.way === undefined ? -1 : this.mirrorArray.length;
  }

  /**
   * The host goes on from the array {@link startOf} found: notes what the host holds now (its
   * history, the compacted history, a copy of the history). A compacted history stays a way in
   * until the host takes it or the next compaction: `append` cannot tell which array the host
   * pushes onto, so a whole array that continues another way must not decide it either (the two
   * would then answer differently when the host goes back to the compacted array).
   */
  settle(): void {
    if (this.way === 'history') this.hostsHistory = true;
    if (this.way === 'history' || this.way === 'mirror') this.shareKnown();
    else if (this.way === 'compacted') {
      this.ownKnown(this.compactedArray!);
      this.compactedArray = undefined;
    }
    this.way = undefined;
  }

  /** Everything starts over, empty. */
  clear(): void {
    this.ownHistory([]);
    this.mirrorArray = [];
    // The host's messages are the history's until one is cut or archived: a long history taken in
    // whole is then copied once (when its first batch is archived), not pushed onto both arrays.
    this.shareKnown();
    this.compactedArray = undefined;
  }

  /** A compacted history; the host goes on from `known` (or its previous input) or from it. */
  replace(history: readonly Message[], known?: readonly Message[]): void {
    if (known !== undefined) this.ownKnown([...known]);
    else this.unshareKnown();
    this.ownHistory([...history]);
    this.mirrorArray = [...history];
    this.compactedArray = [...history];
  }

  /** A message of the host's; the history keeps `kept` (its tool output cut, or itself). Returns its index. */
  takeIn(message: Message, kept: Message): number {
    if (kept !== message) this.unshareKnown();
    if (!this.knownIsMirror) this.knownArray.push(message);
    this.compactedArray?.push(message);
    return this.push(kept);
  }

  /** A message of ctxkit's (a summary) at the end of the history. Returns its index. */
  push(message: Message): number {
    const index = this.mirrorArray.push(message) - 1;
    if (!this.hostsHistory) this.history.push(message);
    else if (this.history[index] !== message) this.ownHistory(this.mirrorArray.slice());
    return index;
  }

  /** Replaces messages of the history (old tool results archived), not the host's. */
  replaceAt(indexes: readonly number[], replacements: readonly Message[]): void {
    this.unshareKnown();
    if (this.hostsHistory) this.ownHistory(this.mirrorArray.slice());
    // A loop, not a callback: a closure made per call is compiled again by V8 once it is hot.
    const { history, mirrorArray: mirror } = this;
    for (let rank = 0; rank < indexes.length; rank++) {
      history[indexes[rank]!] = replacements[rank]!;
      mirror[indexes[rank]!] = replacements[rank]!;
    }
  }

  /** The host changed the `history` it received (not handed back whole): it becomes the private copy again. */
  restoreHistory(): void {
    this.ownHistory(this.mirrorArray.slice());
  }

  lengths(): ArrayLengths {
    return [this.knownArray.length, this.mirrorArray.length, this.compactedArray?.length ?? 0];
  }

  /** Back to `lengths` (an intake that failed). */
  truncate([known, history, compacted]: ArrayLengths): void {
    this.knownArray.length = known;
    if (this.compactedArray !== undefined) this.compactedArray.length = compacted;
    this.mirrorArray.length = history;
    if (this.hostsHistory) this.ownHistory(this.mirrorArray.slice());
    else this.history.length = history;
  }

  private ownHistory(history: Message[]): void {
    this.history = history;
    this.hostsHistory = false;
  }

  private shareKnown(): void {
    this.knownArray = this.mirrorArray;
    this.knownIsMirror = true;
  }

  private ownKnown(known: Message[]): void {
    this.knownArray = known;
    this.knownIsMirror = false;
  }

  private unshareKnown(): void {
    if (this.knownIsMirror) this.ownKnown(this.mirrorArray.slice());
  }
}
