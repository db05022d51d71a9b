import { mixHash } from '../../internal/mix-hash.js';
import type { Message } from '../../types.js';

/** Slots of the table at first; it doubles past three quarters full. */
const FIRST_CAPACITY = 64;

/** The byte of a hash kept beside its slot (never 0, which marks an empty slot). */
function tagOf(hash: number): number {
  return (hash >>> 24) | 1;
}

/** FNV-1a over the UTF-16 code units of an id, mixed (see {@link mixHash}). */
function hashOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < id.length; index++) hash = Math.imul(hash ^ id.charCodeAt(index), 0x01000193);
  return mixHash(hash);
}

/**
 * The tool-call ids a {@link SentProjection} has met, in about 5 bytes per sent call instead of a
 * map entry per id (which took 18 bytes per message on a 100k-message history):
 * - the raw ids sent as a call's id, in an open-addressing table of `Int32Array` slots that hold
 *   where the sent message carrying the id sits (plus one; 0 is empty), and a byte of the id's
 *   hash per slot. The id itself is not stored: a probe whose byte matches reads it back from
 *   that message, so a slot never answers for another id;
 * - the raw ids that hold a `#` (the only ones a fresh id `id#k` can equal), in a set;
 * - the next suffix to try per reused id. The fresh ids made are not kept: `id#k` was made when
 *   `k` is below the next suffix of `id` and `id#k` was no raw id when its turn came (a raw id
 *   noted later than that is reported fresh, and the projection is rebuilt with it noted first).
 *   Fresh ids of two different ids never coincide: both end in `#` and their own suffix.
 *
 * @internal
 */
export class CallIds {
  private slots = new Int32Array(FIRST_CAPACITY);
  private tags = new Uint8Array(FIRST_CAPACITY);
  private size = 0;
  /** The sent position up to which the last {@link grow} placed every call already. */
  private grownThrough = -1;
  /** Raw ids with a `#` seen in the history. */
  private readonly marked = new Set<string>();
  /** The next suffix to try per id: every fresh id of it is below. */
  private readonly nextSuffix = new Map<string, number>();

  /** @param sent - The projection's sent messages, which the table's positions point into. */
  constructor(private readonly sent: readonly Message[]) {}

  /** Notes a raw id of the history (a call's or a result's). */
  note(id: string): void {
    if (id.includes('#')) this.marked.add(id);
  }

  /** Whether `id` is a fresh id this projection made (asked of a raw id before it is noted). */
  isFresh(id: string): boolean {
    // `includes` first: most ids hold no `#`, and V8's `lastIndexOf` is about three times slower.
    if (this.nextSuffix.size === 0 || !id.includes('#')) return false;
    const hash = id.lastIndexOf('#');
    const next = this.nextSuffix.get(id.slice(0, hash));
    if (next === undefined) return false;
    const digits = id.slice(hash + 1);
    const suffix = Number(digits);
    return suffix >= 2 && suffix < next && String(suffix) === digits && !this.marked.has(id);
  }

  /** Whether a call was sent under the raw id `id`. */
  wasSent(id: string): boolean {
    const hash = hashOf(id);
    const tag = tagOf(hash);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const stored = this.tags[slot]!;
      if (stored === 0) return false;
      if (stored === tag && this.carries(this.slots[slot]! - 1, id)) return true;
    }
  }

  /**
   * Notes that the sent message at `position` (the newest) carries a call under the raw id `id`,
   * not sent before; every raw id of that message is noted before the next message is sent.
   */
  addSent(id: string, position: number): void {
    if ((this.size + 1) * 4 > this.slots.length * 3) this.grow();
    if (position <= this.grownThrough) return; // placed by the growth
    this.place(id, position);
    this.size++;
  }

  /** Makes room for `calls` more sent ids at once (a long history taken in whole), instead of doubling as they come. */
  reserve(calls: number): void {
    let capacity = this.slots.length;
    while ((this.size + calls + 1) * 4 > capacity * 3) capacity *= 2;
    if (capacity > this.slots.length) this.grow(capacity);
  }

  /** `id#k` with the smallest `k` ≥ 2 that is neither a raw id nor a fresh id; `nextSuffix` is a lower bound of it. */
  freshId(id: string): string {
    let suffix = this.nextSuffix.get(id) ?? 2;
    let candidate = `${id}#${suffix}`;
    while (this.marked.size > 0 && this.marked.has(candidate)) candidate = `${id}#${++suffix}`;
    this.nextSuffix.set(id, suffix + 1);
    return candidate;
  }

  /** Whether the sent message at `position` has a tool call sent under `id`. */
  private carries(position: number, id: string): boolean {
    const content = this.sent[position]!.content;
    if (typeof content === 'string') return false;
    for (const part of content) if (part.type === 'toolCall' && part.id === id) return true;
    return false;
  }

  private place(id: string, position: number): void {
    const hash = hashOf(id);
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.tags[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = position + 1;
    this.tags[slot] = tagOf(hash);
  }

  /**
   * Doubles the table and places again every call sent under its raw id: every call of a sent
   * message whose id is not fresh (a raw id is sent once; a repeat is renamed to a fresh id). A
   * walk over the sent messages in order, which reads memory far faster than following the old
   * slots, and needs no probe to tell one id from another.
   */
  private grow(capacity = this.slots.length * 2): void {
    this.slots = new Int32Array(capacity);
    this.tags = new Uint8Array(capacity);
    let placed = 0;
    for (let position = 0; position < this.sent.length; position++) {
      const message = this.sent[position]!;
      if (message.role !== 'assistant') continue;
      for (const part of message.content) {
        if (part.type !== 'toolCall' || this.isFresh(part.id)) continue;
        this.place(part.id, position);
        placed++;
      }
    }
    this.size = placed;
    this.grownThrough = this.sent.length - 1;
  }
}
