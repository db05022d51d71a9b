/**
 * Mixes a 32-bit hash (FNV-1a, say) so that its low bits, which pick a slot of an open-addressing
 * table, depend on every bit: FNV-1a's own low bits barely differ between ids like `call_1`,
 * `call_2` or `e1`, `e2`, and would pile them into long runs of slots.
 *
 * @internal
 */
export function mixHash(hash: number): number {
  let mixed = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  mixed = Math.imul(mixed ^ (mixed >>> 13), 0xc2b2ae35);
  return (mixed ^ (mixed >>> 16)) >>> 0;
}
