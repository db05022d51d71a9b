/**
 * History indexes of the visible tool results, oldest first, and where each is sent in the
 * projection: what the manager archives from, in batches, without walking the history.
 *
 * @internal
 */
export class VisibleResults {
  private indexes: number[] = [];
  /** Where each is sent (the projection's position, or -1 when not sent). */
  private positions: number[] = [];
  private head = 0;

  /** Visible results. */
  get size(): number {
    return this.indexes.length - this.head;
  }

  /** Notes a visible result at history index `index`, sent at `position` (after every one noted so far). */
  add(index: number, position: number): void {
    this.indexes.push(index);
    this.positions.push(position);
  }

  /** The history indexes of the `count` oldest visible results. */
  oldest(count: number): number[] {
    return this.indexes.slice(this.head, this.head + count);
  }

  /** Where the `count` oldest visible results are sent. */
  oldestPositions(count: number): number[] {
    return this.positions.slice(this.head, this.head + count);
  }

  /** The `count` oldest are archived: no longer visible. */
  drop(count: number): void {
    this.head += count;
    if (this.head > 1_024 && this.head * 2 > this.indexes.length) {
      this.indexes = this.indexes.slice(this.head);
      this.positions = this.positions.slice(this.head);
      this.head = 0;
    }
  }

  /** Forgets every result (the history is about to be noted again). */
  clear(): void {
    this.indexes = [];
    this.positions = [];
    this.head = 0;
  }
}
