/**
 * The tool-call ids a {@link SentProjection} has met, and the fresh ids it gives reused ones:
 * - the raw ids sent as a call's id (a set);
 * - the raw ids that hold a `#` (the only ones a fresh id `id#k` can equal), in a set;
 * - the next suffix to try per reused id. The fresh ids made are not kept: `id#k` was made when
 *   `k` is below the next suffix of `id` and `id#k` was no raw id when its turn came (a raw id
 *   noted later than that is reported fresh, and the projection is rebuilt with it noted first).
 *   Fresh ids of two different ids never coincide: both end in `#` and their own suffix.
 *
 * @internal
 */
export class CallIds {
  /** Raw ids sent as a call's id. */
  private readonly sent = new Set<string>();
  /** Raw ids with a `#` seen in the history. */
  private readonly marked = new Set<string>();
  /** The next suffix to try per id: every fresh id of it is below. */
  private readonly nextSuffix = new Map<string, number>();

  /** Notes a raw id of the history (a call's or a result's). */
  note(id: string): void {
    if (id.includes('#')) this.marked.add(id);
  }

  /** Whether `id` is a fresh id this projection made (asked of a raw id before it is noted). */
  isFresh(id: string): boolean {
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
    return this.sent.has(id);
  }

  /** Notes that a call was sent under the raw id `id`. */
  addSent(id: string): void {
    this.sent.add(id);
  }

  /** `id#k` with the smallest `k` ≥ 2 that is neither a raw id nor a fresh id; `nextSuffix` is a lower bound of it. */
  freshId(id: string): string {
    let suffix = this.nextSuffix.get(id) ?? 2;
    let candidate = `${id}#${suffix}`;
    while (this.marked.size > 0 && this.marked.has(candidate)) candidate = `${id}#${++suffix}`;
    this.nextSuffix.set(id, suffix + 1);
    return candidate;
  }
}
