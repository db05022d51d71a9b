import type { Message } from '../../types.js';

/** Slots of the table at first; it doubles past three quarters full. */
const FIRST_CAPACITY = 64;

/** The byte of a hash kept beside its slot (never 0, which marks an empty slot). */
function tagOf(hash: number): number {
  return (hash >>> 24) | 1;
}

/** FNV-1a over the UTF-16 code units of an id. */
function hashOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < id.length; index++) hash = Math.imul(hash ^ id.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}

/**
 * The tool-call ids a {@link SentProjection} has met, in about 5 bytes per sent call instead of a
 * map entry per id (which took 18 bytes per message on a 100k-message history):
 * - the raw ids sent as a call's id, in an open-addressing table of `Int32Array` slots that hold
 *   where the sent message carrying the id sits (plus one; 0 is empty), and a byte of the id's
 *   hash per slot. The id itself is not stored: a probe whose byte matches reads it back from
 *   that message, so a slot never answers for another id;
 * - the raw ids that hold a `#` (the only ones a fresh id `id#k` can equal), in a set;
 * - the fresh ids made for reused ids, and the next suffix to try per reused id.
 *
 * @internal
 */
export class CallIds {
  private slots = new Int32Array(FIRST_CAPACITY);
  private tags = new Uint8Array(FIRST_CAPACITY);
  private size = 0;
  /** Raw ids with a `#` seen in the history. */
  private readonly marked = new Set<string>();
  /** Fresh ids made (all sent), and the next suffix to try per id. */
  private readonly fresh = new Set<string>();
  private readonly nextSuffix = new Map<string, number>();

  /** @param sent - The projection's sent messages, which the table's positions point into. */
  constructor(private readonly sent: readonly Message[]) {}

  /** Notes a raw id of the history (a call's or a result's). */
  note(id: string): void {
    if (id.includes('#')) this.marked.add(id);
  }

  /** Whether `id` is a fresh id this projection made. */
  isFresh(id: string): boolean {
    return this.fresh.size > 0 && this.fresh.has(id);
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

  /** Notes that the sent message at `position` carries a call under the raw id `id` (not sent before). */
  addSent(id: string, position: number): void {
    if ((this.size + 1) * 4 > this.slots.length * 3) this.grow();
    this.place(id, position);
    this.size++;
  }

  /** `id#k` with the smallest `k` ≥ 2 that is neither a raw id nor a fresh id; `nextSuffix` is a lower bound of it. */
  freshId(id: string): string {
    let suffix = this.nextSuffix.get(id) ?? 2;
    let candidate = `${id}#${suffix}`;
    while (this.marked.has(candidate) || this.fresh.has(candidate)) candidate = `${id}#${++suffix}`;
    this.nextSuffix.set(id, suffix + 1);
    this.fresh.add(candidate);
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

  /** Doubles the table: every raw (not fresh) call id of the messages it points to is placed again, once. */
  private grow(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    this.tags = new Uint8Array(old.length * 2);
    let placed = 0;
    for (const stored of old) {
      if (stored === 0) continue;
      const content = this.sent[stored - 1]!.content;
      if (typeof content === 'string') continue;
      for (const part of content) {
        if (part.type !== 'toolCall' || this.isFresh(part.id) || this.wasSent(part.id)) continue;
        this.place(part.id, stored - 1);
        placed++;
      }
    }
    this.size = placed;
  }
}
