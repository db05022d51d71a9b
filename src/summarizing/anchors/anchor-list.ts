import { type Anchor, anchorIdentity } from './anchor.js';

/**
 * Collects anchors once each, in first-mention order; a later mention of a file or command updates it.
 * A fact reported again by another command gains that command among its `sources`.
 *
 * @internal
 */
export class AnchorList {
  private readonly byIdentity = new Map<string, Anchor>();
  add(anchor: Anchor): void {
    const identity = anchorIdentity(anchor);
    const known = this.byIdentity.get(identity);
    if (!known) {
      this.byIdentity.set(identity, anchor);
      return;
    }
    if (anchor.required) known.required = true;
    // A file the agent changed itself (its anchor reported by no run) stays changed when git then
    // reports it: git's next run must not withdraw what an edit made.
    if (known.category === 'file-changed' && known.sources === undefined) return;
    for (const source of anchor.sources ?? []) {
      if (known.sources?.includes(source)) continue;
      known.sources = [...(known.sources ?? []), source];
    }
  }
  replace(anchor: Anchor): void {
    this.byIdentity.set(anchorIdentity(anchor), anchor);
  }
  has(anchor: Anchor): boolean {
    return this.byIdentity.has(anchorIdentity(anchor));
  }
  delete(anchor: Anchor): void {
    this.byIdentity.delete(anchorIdentity(anchor));
  }
  /** Removes every anchor `resolved` says is resolved. */
  deleteWhere(resolved: (anchor: Anchor) => boolean): void {
    for (const [identity, anchor] of this.byIdentity) if (resolved(anchor)) this.byIdentity.delete(identity);
  }
  /**
   * A new run of `source` states its facts afresh: each fact it reported is no longer its, and a fact
   * no other command reports leaves (the run adds back what it still reports).
   */
  withdraw(source: string): void {
    for (const [identity, anchor] of this.byIdentity) {
      if (!anchor.sources?.includes(source)) continue;
      const rest = anchor.sources.filter((other) => other !== source);
      if (rest.length === 0) this.byIdentity.delete(identity);
      else this.byIdentity.set(identity, { ...anchor, sources: rest });
    }
  }
  values(): Anchor[] {
    return [...this.byIdentity.values()];
  }
}
