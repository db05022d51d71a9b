/** Fair shares of one budget among several items. Internal. */

/**
 * Splits `total` among items that need `needs[i]` each: every item gets a share in proportion to
 * its weight (`weights[i]`, 1 when not given), and what an item leaves of its share goes to the
 * others, in the same proportions (weighted water-filling). Shares are whole numbers whose sum is at
 * most `total`; an item never gets more than it needs.
 *
 * @internal
 */
export function shareBudget(needs: readonly number[], total: number, weights?: readonly number[]): number[] {
  // Loops, not callbacks: closures made per call are compiled again by V8 once they are hot.
  const shares: number[] = [];
  let open: number[] = [];
  for (let index = 0; index < needs.length; index++) {
    shares.push(0);
    if (needs[index]! > 0) open.push(index);
  }
  const weightOf = (index: number) => Math.max(1, Math.floor(weights?.[index] ?? 1));
  let left = Math.max(0, Math.floor(total));
  while (open.length > 0 && left > 0) {
    let weight = 0;
    for (const index of open) weight += weightOf(index);
    // Fewer units than weights: the rest goes, a weight's worth each, to the first items in order.
    const unit = Math.max(1, Math.floor(left / weight));
    const still: number[] = [];
    for (const index of open) {
      const give = Math.min(unit * weightOf(index), needs[index]! - shares[index]!, left);
      shares[index]! += give;
      left -= give;
      if (shares[index]! < needs[index]!) still.push(index);
    }
    open = still;
  }
  return shares;
}
