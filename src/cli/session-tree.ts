import type { SessionEntry } from '../session-entry.js';
import { messageText, preview } from './message-text.js';

/** One branch of the session tree: the path from the root to a leaf. */
export interface BranchInfo {
  /** The branch's last entry. */
  leafId: string;
  /** Whether it is the session's current branch. */
  current: boolean;
  /** Entries from the root to the leaf. */
  entryCount: number;
  /** The entry where the branch leaves the branch it was forked from (`null` for the first). */
  forkedAt: string | null;
  /** The labels on the branch's entries. */
  labels: string[];
  /** The branch's last message, cut to one line. */
  lastMessage: string | null;
  timestamp: number;
}

/** A label a host put on an entry. */
export interface LabelInfo {
  targetId: string;
  label: string;
  timestamp: number;
}

/**
 * The branches of a session tree, oldest first; the current one is marked.
 *
 * @internal
 */
export function describeBranches(entries: readonly SessionEntry[], leafId: string | null): BranchInfo[] {
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const children = new Map<string, number>();
  for (const entry of entries) {
    if (entry.parentId !== null) children.set(entry.parentId, (children.get(entry.parentId) ?? 0) + 1);
  }
  const labels = labelsByTarget(entries);
  const claimed = new Set<string>();
  const branches: BranchInfo[] = [];
  const leaves = entries.filter((entry) => !children.has(entry.id));
  // The current leaf may be an inner entry (the host moved back): it is a branch too.
  if (leafId !== null && children.has(leafId)) {
    const inner = byId.get(leafId);
    if (inner !== undefined) leaves.push(inner);
  }
  for (const leaf of leaves) {
    let entryCount = 0;
    let forkedAt: string | null = null;
    let lastMessage: string | null = null;
    const branchLabels: string[] = [];
    const seen = new Set<string>();
    for (let entry: SessionEntry | undefined = leaf; entry !== undefined && !seen.has(entry.id); ) {
      seen.add(entry.id);
      entryCount++;
      const label = labels.get(entry.id);
      if (label !== undefined) branchLabels.unshift(label.label);
      if (lastMessage === null && entry.type === 'message') lastMessage = preview(messageText(entry.message), 60);
      if (forkedAt === null && claimed.has(entry.id) && entry !== leaf) forkedAt = entry.id;
      entry = entry.parentId === null ? undefined : byId.get(entry.parentId);
    }
    for (const id of seen) claimed.add(id);
    branches.push({
      leafId: leaf.id,
      current: leaf.id === leafId,
      entryCount,
      forkedAt,
      labels: branchLabels,
      lastMessage,
      timestamp: leaf.timestamp,
    });
  }
  return branches;
}

function labelsByTarget(entries: readonly SessionEntry[]): Map<string, LabelInfo> {
  const labels = new Map<string, LabelInfo>();
  for (const entry of entries) {
    if (entry.type !== 'label') continue;
    if (entry.label === undefined || entry.label.length === 0) labels.delete(entry.targetId);
    else labels.set(entry.targetId, { targetId: entry.targetId, label: entry.label, timestamp: entry.timestamp });
  }
  return labels;
}

/**
 * The labels in force (the latest label of each entry; an empty label removes it), in order.
 *
 * @internal
 */
export function describeLabels(entries: readonly SessionEntry[]): LabelInfo[] {
  return [...labelsByTarget(entries).values()];
}
