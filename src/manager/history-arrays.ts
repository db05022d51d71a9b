/**
 * The stage "take what is new": the arrays the manager keeps of its history and of the host's
 * input, and who may write each.
 */
import type { Message } from '../types.js';
import { continues } from './internal/host-input.js';
import { sameContent } from './internal/same-content.js';

/** Lengths of the arrays before an intake, to undo it. @internal */
export type ArrayLengths = readonly [known: number, history: number, compacted: number];

/**
 * ctxkit's history, the array the host receives as `history`, and what the host passed last, kept
 * without a copy per call:
 *
 * - `mirror` is the history, private: nothing outside the manager writes it.
 * - `history` is what the host receives. It is ctxkit's own array, appended to in place, until the
 *   host pushes onto it and hands it back; it is then the host's array, which ctxkit never writes:
 *   it stays the history while the messages in it are the history's, and is replaced by a copy of
 *   `mirror` the moment they part (a tool output cut, a batch archived). That copy is the one
 *   a host that pushes onto the returned history pays for an archive: the history it receives must
 *   hide the batch, the array it pushed onto is its own, and `mirror` must stay private to see the
 *   host's changes (docs/architecture.md, "The one copy left", says why no arrangement of arrays
 *   avoids it; `append` does not pay it).
 * - `known` is what the host passed last, which its next array is compared with. While the host
 *   goes on from the history (its first call, the returned history, a copy of it) it is not an
 *   array but `mirror` itself up to `followed` messages, with `patches`: the host's message at each
 *   index where the history keeps another (its output cut, archived). It becomes an array of its
 *   own when the host goes on from it and a summary already parted the two (the next message
 *   would sit at another index), once for a host that keeps its own array, or when a batch would
 *   make the list longer than a copy (a first call); never for a host that passes the history
 *   back, so archiving a batch of the usual size copies nothing for it.
 * - `compacted`, after a compaction, is its history and what came since, as a host that took the
 *   compacted history holds it.
 *
 * @internal
 */
export class HistoryArrays {
  history: Message[] = [];
  private hostsHistory = false;
  private mirrorArray: Message[] = [];
  /** `known` as an array of its own, or undefined while it follows `mirror`. */
  private knownArray: Message[] | undefined;
  private followed = 0;
  private patches = new Map<number, Message>();
  private compactedArray: Message[] | undefined;
  /** What the input {@link startOf} looked at last goes on from, until {@link settle}. */
  private way: 'history' | 'known' | 'compacted' | 'mirror' | undefined;

  get mirror(): readonly Message[] {
    return this.mirrorArray;
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
    } else if (this.continuesKnown(input)) this.way = 'known';
    else if (this.compactedArray !== undefined && continues(input, this.compactedArray)) this.way = 'compacted';
    else if (continues(input, this.mirrorArray)) this.way = 'mirror';
    if (this.way === 'known') return this.knownLength;
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
    if (this.way === 'history' || this.way === 'mirror') this.followMirror();
    else if (this.way === 'compacted') {
      this.setKnown(this.compactedArray!);
      this.compactedArray = undefined;
    }
    this.way = undefined;
  }

  /** Whether `input` is exactly what the manager holds: the host's last input or the history. */
  holds(input: readonly Message[]): boolean {
    return (
      (input.length === this.knownLength && this.continuesKnown(input)) ||
      (input.length === this.mirrorArray.length && continues(input, this.mirrorArray))
    );
  }

  /**
   * The history `input` stands for when it continues the host's last input or the history
   * (possibly with new messages): the manager's history plus what `input` adds; else undefined.
   */
  continuation(input: readonly Message[]): Message[] | undefined {
    const mirror = this.mirrorArray;
    if (input !== this.history && this.continuesKnown(input)) return mirror.concat(input.slice(this.knownLength));
    if (continues(input, mirror)) return mirror.concat(input.slice(mirror.length));
    return undefined;
  }

  /** Everything starts over, empty. */
  clear(): void {
    this.ownHistory([]);
    this.mirrorArray = [];
    this.followMirror();
    this.compactedArray = undefined;
  }

  /** A compacted history; the host goes on from `known` (or its previous input) or from it. */
  replace(history: readonly Message[], known?: readonly Message[]): void {
    if (known === undefined) this.ownKnown();
    else this.setKnown([...known]);
    this.ownHistory([...history]);
    this.mirrorArray = [...history];
    this.compactedArray = [...history];
  }

  /** A message of the host's; the history keeps `kept` (its tool output cut, or itself). Returns its index. */
  takeIn(message: Message, kept: Message): number {
    // A summary parted `known` from the history: the host's next message sits at another index.
    if (this.knownArray === undefined && this.followed !== this.mirrorArray.length) this.ownKnown();
    if (this.knownArray !== undefined) this.knownArray.push(message);
    else {
      if (kept !== message) this.patches.set(this.followed, message);
      this.followed++;
    }
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
    if (this.hostsHistory) this.ownHistory(this.mirrorArray.slice());
    // A patch takes about four array slots: a batch that would make the list longer than a copy
    // (the thousands of results a first call archives) makes `known` an array of its own instead.
    if (this.knownArray === undefined && 4 * (this.patches.size + indexes.length) > this.followed) this.ownKnown();
    const { history, mirrorArray: mirror, patches } = this;
    for (let rank = 0; rank < indexes.length; rank++) {
      const index = indexes[rank]!;
      // What the host passed keeps its own message (the first one the history replaced there).
      if (this.knownArray === undefined && index < this.followed && !patches.has(index))
        patches.set(index, mirror[index]!);
      history[index] = replacements[rank]!;
      mirror[index] = replacements[rank]!;
    }
  }

  /** The host changed the `history` it received (not handed back whole): it becomes the private copy again. */
  restoreHistory(): void {
    this.ownHistory(this.mirrorArray.slice());
  }

  lengths(): ArrayLengths {
    return [this.knownLength, this.mirrorArray.length, this.compactedArray?.length ?? 0];
  }

  /** Back to `lengths` (an intake that failed). */
  truncate([known, history, compacted]: ArrayLengths): void {
    if (this.knownArray !== undefined) this.knownArray.length = known;
    else {
      this.followed = known;
      for (const index of this.patches.keys()) if (index >= known) this.patches.delete(index);
    }
    if (this.compactedArray !== undefined) this.compactedArray.length = compacted;
    this.mirrorArray.length = history;
    if (this.hostsHistory) this.ownHistory(this.mirrorArray.slice());
    else this.history.length = history;
  }

  private get knownLength(): number {
    return this.knownArray?.length ?? this.followed;
  }

  /** Whether `input` starts with every message the host passed last. */
  private continuesKnown(input: readonly Message[]): boolean {
    if (this.knownArray !== undefined) return continues(input, this.knownArray);
    const { mirrorArray: mirror, followed, patches } = this;
    if (input.length < followed) return false;
    for (const [index, message] of patches) if (!continuesAt(input, index, message)) return false;
    for (let index = 0; index < followed; index++) {
      if (!Object.is(input[index], mirror[index]) && !patches.has(index) && !continuesAt(input, index, mirror[index]!))
        return false;
    }
    return true;
  }

  /** Makes `known` an array of its own: the history's messages it follows, with the host's where they part. */
  private ownKnown(): void {
    if (this.knownArray !== undefined) return;
    const known = this.mirrorArray.slice(0, this.followed);
    for (const [index, message] of this.patches) known[index] = message;
    this.setKnown(known);
  }

  private setKnown(known: Message[]): void {
    this.knownArray = known;
    if (this.patches.size > 0) this.patches = new Map();
  }

  private followMirror(): void {
    this.knownArray = undefined;
    this.followed = this.mirrorArray.length;
    if (this.patches.size > 0) this.patches = new Map();
  }

  private ownHistory(history: Message[]): void {
    this.history = history;
    this.hostsHistory = false;
  }
}

/** Whether the host's message at `index` is `message` or equal to it in content (see {@link continues}). */
function continuesAt(input: readonly Message[], index: number, message: Message): boolean {
  return Object.is(input[index], message) || sameContent(input[index], message);
}
