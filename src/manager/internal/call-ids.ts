/**
 * The tool-call ids a {@link SentProjection} has met, and the fresh ids it gives reused ones:
 * - the raw ids sent as a call's id;
 * - the raw ids that hold a `#` (the only ones a fresh id `id#k` can equal);
 * - the fresh ids made, and the next suffix to try per reused id, so renaming the n-th reuse of
 *   an id costs the same as the first (a history that reuses `call_0` in every turn is not probed
 *   from `#2` each time).
 *
 * @internal
 */
export class CallIds {
  /** Raw ids sent as a call's id. */
  private readonly sent = new Set<string>();
  /** Raw ids with a `#` seen in the history. */
  private readonly marked = new Set<string>();
  /** Fresh ids made. */
  private readonly fresh = new Set<string>();
  /** The next suffix to try per id: every fresh id of it is below. */
  private readonly nextSuffix = new Map<string, number>();

  /** Notes a raw id of the history (a call's or a result's). */
  note(id: string): void {
    if (id.includes('#')) this.marked.add(id);
  }

  /** Whether `id` is a fresh id this projection made (asked of a raw id before it is noted). */
  isFresh(id: string): boolean {
    return this.fresh.has(id);
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
    while (this.marked.has(candidate)) candidate = `${id}#${++suffix}`;
    this.nextSuffix.set(id, suffix + 1);
    this.fresh.add(candidate);
    return candidate;
  }
}
