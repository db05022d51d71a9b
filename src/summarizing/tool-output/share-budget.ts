/** Fair shares of one budget among several items. Internal. */

/**
 * Splits `total` among items that need `needs[i]` each: every item gets an equal share, and what an
 * item leaves of its share goes to the others, evenly (water-filling). Shares are whole numbers whose
 * sum is at most `total`; an item never gets more than it needs.
 *
 * @internal
 */
export function shareBudget(needs: readonly number[], total: number): number[] {
  // Loops, not callbacks: closures made per call are compiled again by V8 once they are hot.
  const shares: number[] = [];
  let open: number[] = [];
  for (let index = 0; index < needs.length; index++) {
    shares.push(0);
    if (needs[index]! > 0) open.push(index);
  }
  let left = Math.max(0, Math.floor(total));
  while (open.length > 0 && left > 0) {
    const each = Math.floor(left / open.length);
    if (each === 0) {
      // Fewer units than items: one each to the first items, in order.
      for (const index of open) {
        if (left === 0) break;
        shares[index]!++;
        left--;
      }
      break;
    }
    const still: number[] = [];
    for (const index of open) {
      const give = Math.min(each, needs[index]! - shares[index]!);
      shares[index]! += give;
      left -= give;
      if (shares[index]! < needs[index]!) still.push(index);
    }
    open = still;
  }
  return shares;
}
