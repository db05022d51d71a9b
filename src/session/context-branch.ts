/**
 * The context branch of a path: the part of a root-to-leaf path that the leaf's context is built
 * from (see `SessionStore.getBranch` with `{ from: 'context' }`), and the check that recognizes
 * one when `buildContextFromBranch` walks it.
 *
 * @internal
 */
import { SessionError } from '../errors.js';
import type { CompactionEntry, SessionEntry } from '../session-entry.js';
import { describeValue } from '../validation/describe-value.js';

/**
 * Where the latest compaction's kept range starts: the index of its `firstKeptEntryId` in `path`,
 * moved back to the tool call that entry answers when it is a tool result (a hand-made cut).
 *
 * @internal
 */
export function backToCall(path: readonly SessionEntry[], first: number): number {
  const entry = path[first];
  if (entry?.type !== 'message' || entry.message.role !== 'toolResult') return first;
  const id = entry.message.toolCallId;
  for (let index = first - 1; index >= 0; index--) {
    const candidate = path[index]!;
    if (candidate.type !== 'message' || candidate.message.role !== 'assistant') continue;
    if (candidate.message.content.some((part) => part.type === 'toolCall' && part.id === id)) return index;
  }
  return first;
}

const METADATA_TYPES = new Set(['model_change', 'thinking_level_change']);

/** Whether an entry only sets context metadata (the model, the thinking level). @internal */
function isMetadataEntry(entry: SessionEntry): boolean {
  return METADATA_TYPES.has(entry.type);
}

/**
 * The context branch of a whole root-first path: from the latest compaction's kept range (see
 * {@link backToCall}) to the leaf, preceded by the latest `model_change` and
 * `thinking_level_change` before it. A path without a compaction, or whose compaction keeps from
 * an entry that is not on it (a corrupt tree, reported when the context is built), is returned whole.
 *
 * @internal
 */
export function contextBranchOf(path: SessionEntry[]): SessionEntry[] {
  let latest = -1;
  for (let index = path.length - 1; index >= 0 && latest < 0; index--)
    if (path[index]!.type === 'compaction') latest = index;
  if (latest < 0) return path;
  const keepFrom = (path[latest] as CompactionEntry).firstKeptEntryId;
  let first = -1;
  for (let index = latest - 1; index >= 0 && first < 0; index--) if (path[index]!.id === keepFrom) first = index;
  if (first < 0) return path;
  const cut = backToCall(path, first);
  // A tool result whose call is nowhere on the path: the whole path (its context keeps from the result).
  if (cut === first && isToolResult(path[first]!)) return path;
  first = cut;
  let model = -1;
  let thinking = -1;
  for (let index = first - 1; index >= 0 && (model < 0 || thinking < 0); index--) {
    const { type } = path[index]!;
    if (type === 'model_change' && model < 0) model = index;
    else if (type === 'thinking_level_change' && thinking < 0) thinking = index;
  }
  const head = [model, thinking].filter((index) => index >= 0).sort((a, b) => a - b);
  return [...head.map((index) => path[index]!), ...path.slice(first)];
}

/**
 * Whether `from` asks for the context branch; throws a `SessionError` naming the caller for
 * anything but `'root'`, `'context'` or nothing.
 *
 * @internal
 */
export function wantsContextBranch(functionName: string, options: unknown): boolean {
  if (options === undefined || options === null) return false;
  const from = typeof options === 'object' ? (options as { from?: unknown }).from : options;
  if (typeof options === 'object' && (from === undefined || from === 'root' || from === 'context')) {
    return from === 'context';
  }
  throw new SessionError({
    message: `${functionName}: options.from must be 'root' (the whole path) or 'context' (the context branch), got ${describeValue(from)}.`,
    code: 'INPUT_INVALID',
  });
}

/**
 * The entries ahead of a walk that stopped at a missing parent, when the array is a context
 * branch: the walk (leaf first) passed the latest compaction's kept range, and every entry before
 * the walk's last one in the array is a metadata entry. `undefined` when it is not one (the
 * missing parent is then an error).
 *
 * @internal
 */
export function contextBranchHead(
  list: readonly SessionEntry[],
  walked: readonly SessionEntry[],
): SessionEntry[] | undefined {
  const compaction = walked.findIndex((entry) => entry.type === 'compaction');
  if (compaction < 0) return undefined;
  const keepFrom = (walked[compaction] as CompactionEntry).firstKeptEntryId;
  let cut = -1;
  for (let index = compaction + 1; index < walked.length && cut < 0; index++)
    if (walked[index]!.id === keepFrom) cut = index;
  if (cut < 0) return undefined;
  // A kept range starting at a tool result starts at its call: the call must be in the branch.
  const path = walked.slice(cut).reverse();
  if (backToCall(path, path.length - 1) === path.length - 1 && isToolResult(walked[cut]!)) return undefined;
  const stop = list.indexOf(walked[walked.length - 1]!);
  if (stop < 0) return undefined;
  const head = list.slice(0, stop);
  return head.every(isMetadataEntry) ? head : undefined;
}

function isToolResult(entry: SessionEntry): boolean {
  return entry.type === 'message' && entry.message.role === 'toolResult';
}
