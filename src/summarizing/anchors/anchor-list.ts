import { type Anchor, anchorIdentity } from './anchor.js';

/**
 * Collects anchors once each, in first-mention order; a later mention of a file or command updates it.
 *
 * @internal
 */
export class AnchorList {
  private readonly byIdentity = new Map<string, Anchor>();
  add(anchor: Anchor): void {
    const identity = anchorIdentity(anchor);
    const known = this.byIdentity.get(identity);
    if (!known) this.byIdentity.set(identity, anchor);
    else if (anchor.required) known.required = true;
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
  values(): Anchor[] {
    return [...this.byIdentity.values()];
  }
}
