import type { CompactionEntry, SessionEntry, SessionEntryType } from '../session-entry.js';

/** The entries of a session by position, as the session index holds them. @internal */
interface EntriesByPosition {
  typeAt(position: number): SessionEntryType;
  idOf(position: number): string;
  entryAt(position: number): SessionEntry;
}

/**
 * Where the context branch of a path starts, as an index into `positions` (the path's positions,
 * leaf first), or `-1` for the whole path: no compaction, a kept entry that is not on the path, or
 * a kept tool result whose call is not on it.
 *
 * @internal
 */
function contextCut(index: EntriesByPosition, positions: readonly number[]): number {
  const latest = positions.findIndex((position) => index.typeAt(position) === 'compaction');
  if (latest < 0) return -1;
  const keepFrom = (index.entryAt(positions[latest]!) as CompactionEntry).firstKeptEntryId;
  let cut = -1;
  for (let at = latest + 1; at < positions.length && cut < 0; at++) {
    if (index.idOf(positions[at]!) === keepFrom) cut = at;
  }
  if (cut < 0) return -1;
  const kept = index.entryAt(positions[cut]!);
  if (kept.type !== 'message' || kept.message.role !== 'toolResult') return cut;
  const callId = kept.message.toolCallId;
  for (let at = cut + 1; at < positions.length; at++) {
    if (index.typeAt(positions[at]!) !== 'message') continue;
    const candidate = index.entryAt(positions[at]!);
    if (candidate.type !== 'message' || candidate.message.role !== 'assistant') continue;
    if (candidate.message.content.some((part) => part.type === 'toolCall' && part.id === callId)) return at;
  }
  return -1;
}

/**
 * The context branch of a path, as indexes into `positions` (leaf first) in root-first order: the
 * latest model and thinking-level changes before the cut, then the path from the cut to the leaf;
 * `undefined` when the context branch is the whole path (see {@link contextCut}).
 *
 * @internal
 */
export function contextBranchOrder(index: EntriesByPosition, positions: readonly number[]): number[] | undefined {
  const cut = contextCut(index, positions);
  if (cut < 0) return undefined;
  let model = -1;
  let thinking = -1;
  for (let at = cut + 1; at < positions.length && (model < 0 || thinking < 0); at++) {
    const type = index.typeAt(positions[at]!);
    if (type === 'model_change' && model < 0) model = at;
    else if (type === 'thinking_level_change' && thinking < 0) thinking = at;
  }
  // `positions` runs leaf first: a larger index is nearer the root, so it comes first.
  const order = [model, thinking].filter((at) => at >= 0).sort((a, b) => b - a);
  for (let at = cut; at >= 0; at--) order.push(at);
  return order;
}
