import { freshCallId } from '../../internal/reused-call-id.js';

/**
 * The tool-call ids a {@link SentProjection} has met, and the fresh ids it gives reused ones (named
 * as `prepareModelMessages` names them, `call_0` → `call_0_2`):
 * - the raw ids sent as a call's id;
 * - every raw id of the history (a fresh id must equal none of them);
 * - the fresh ids made, and the next suffix to try per reused id, so renaming the n-th reuse of
 *   an id costs the same as the first (a history that reuses `call_0` in every turn is not probed
 *   from `_2` each time).
 *
 * @internal
 */
export class CallIds {
  /** Raw ids sent as a call's id. */
  private readonly sent = new Set<string>();
  /** Raw ids seen in the history. */
  private readonly raw = new Set<string>();
  /** Fresh ids made. */
  private readonly fresh = new Set<string>();
  /** The next suffix to try per id: every fresh id of it is below. */
  private readonly nextSuffix = new Map<string, number>();

  /** Notes a raw id of the history (a call's or a result's). */
  note(id: string): void {
    this.raw.add(id);
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

  /** The first fresh name of `id` that is neither a raw id nor a fresh id made already. */
  freshId(id: string): string {
    const candidate = freshCallId(id, (name) => this.raw.has(name) || this.fresh.has(name), this.nextSuffix);
    this.fresh.add(candidate);
    return candidate;
  }
}
