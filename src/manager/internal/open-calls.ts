/** An unanswered tool call: where it is, and where its synthetic result was sent (-1 when its message is not sent). @internal */
export interface OpenCall {
  /** Index of its assistant message in the history. */
  message: number;
  /** Where its synthetic result sits in the projection, or -1. */
  sent: number;
  /** The id it was sent with (renamed when reused). */
  id: string;
  /** Its id in the history. */
  readonly raw: string;
}

/**
 * The unanswered tool calls of a history by raw id: one call per id (no array) in the common case,
 * several when an id is reused before its result arrives.
 *
 * The calls of the newest assistant message wait in a list of their own, out of the map: their
 * results most often follow at once, and are found there without a map entry made and removed
 * for each call. They join the map, in order, when a newer message brings calls.
 *
 * @internal
 */
export class OpenCalls {
  private readonly byId = new Map<string, OpenCall | OpenCall[]>();
  /** The newest message's calls (undefined once answered), and how many are still open. */
  private newest: (OpenCall | undefined)[] = [];
  private newestOpen = 0;

  /** Notes the unanswered calls of an assistant message, newer than every call noted so far. */
  addMessage(calls: OpenCall[]): void {
    if (calls.length === 0) return;
    if (this.newestOpen > 0) for (const call of this.newest) if (call !== undefined) this.add(call);
    this.newest = calls;
    this.newestOpen = calls.length;
  }

  /**
   * The call a result of `id` answers, no longer open: the nearest earlier unanswered call of that
   * id (the first of its message when one message holds several); undefined when there is none.
   */
  take(id: string): OpenCall | undefined {
    if (this.newestOpen > 0) {
      const newest = this.newest;
      for (let rank = 0; rank < newest.length; rank++) {
        const call = newest[rank];
        if (call === undefined || call.raw !== id) continue;
        newest[rank] = undefined;
        this.newestOpen--;
        return call;
      }
    }
    return this.takeOlder(id);
  }

  /** Notes an unanswered call under its raw id (before any renaming), after every call in the map. */
  private add(call: OpenCall): void {
    const waiting = this.byId.get(call.raw);
    if (waiting === undefined) this.byId.set(call.raw, call);
    else if (Array.isArray(waiting)) waiting.push(call);
    else this.byId.set(call.raw, [waiting, call]);
  }

  private takeOlder(id: string): OpenCall | undefined {
    const waiting = this.byId.get(id);
    if (waiting === undefined) return undefined;
    if (!Array.isArray(waiting)) {
      this.byId.delete(id);
      return waiting;
    }
    const nearest = waiting[waiting.length - 1]!.message;
    let slot = waiting.length - 1;
    while (slot > 0 && waiting[slot - 1]!.message === nearest) slot--;
    const call = waiting.splice(slot, 1)[0]!;
    if (waiting.length === 0) this.byId.delete(id);
    return call;
  }
}
