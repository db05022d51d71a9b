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
 * The unanswered tool calls of a history by raw id, oldest first (several when an id is reused
 * before its result arrives).
 *
 * @internal
 */
export class OpenCalls {
  private readonly byId = new Map<string, OpenCall[]>();

  /** Notes the unanswered calls of an assistant message, newer than every call noted so far. */
  addMessage(calls: readonly OpenCall[]): void {
    for (const call of calls) {
      const waiting = this.byId.get(call.raw);
      if (waiting === undefined) this.byId.set(call.raw, [call]);
      else waiting.push(call);
    }
  }

  /**
   * The call a result of `id` answers, no longer open: the nearest earlier unanswered call of that
   * id (the first of its message when one message holds several); undefined when there is none.
   */
  take(id: string): OpenCall | undefined {
    const waiting = this.byId.get(id);
    if (waiting === undefined) return undefined;
    const nearest = waiting[waiting.length - 1]!.message;
    let slot = waiting.length - 1;
    while (slot > 0 && waiting[slot - 1]!.message === nearest) slot--;
    const call = waiting.splice(slot, 1)[0]!;
    if (waiting.length === 0) this.byId.delete(id);
    return call;
  }
}
