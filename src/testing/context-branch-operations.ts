/**
 * Sessions built through a store's own appends, with compactions that keep from any entry of their
 * branch (a tool result, an earlier compaction, a label, a model or thinking change), several
 * compactions on one path, branch summaries, labels and leaf moves: the cases a context branch
 * read must cut right. Used by the store conformance suite.
 *
 * @internal
 */
import fc from 'fast-check';
import type { SessionStore } from '../session/session-store.js';
import type { SessionEntryInput } from '../session-entry.js';
import { assistantMessage, toolCallMessage, toolResultMessage, userMessage } from './message-builders.js';

/** One step of a host: append an entry of some kind (from the leaf), or move the leaf back. */
export const contextBranchOperations = fc.array(
  fc.record({
    kind: fc.constantFrom(
      'user',
      'reply',
      'tools',
      'tools',
      'compaction',
      'compaction',
      'branch_summary',
      'label',
      'model',
      'thinking',
      'custom',
      'custom_message',
      'moveLeaf',
    ),
    pick: fc.nat(),
    calls: fc.integer({ min: 1, max: 3 }),
  }),
  { minLength: 1, maxLength: 45 },
);

/** @internal */
type ContextBranchOperation = typeof contextBranchOperations extends fc.Arbitrary<(infer T)[]> ? T : never;

/** Applies the operations to a new session; returns the ids of its entries, in append order. */
export async function applyOperations(
  store: SessionStore,
  sessionId: string,
  operations: readonly ContextBranchOperation[],
): Promise<string[]> {
  const ids: string[] = [];
  let serial = 0;
  const append = async (input: SessionEntryInput) => ids.push((await store.appendEntry(sessionId, input)).id);
  for (const { kind, pick, calls } of operations) {
    serial++;
    const leaf = await store.getLeaf(sessionId);
    const target = ids.length === 0 ? undefined : ids[pick % ids.length]!;
    switch (kind) {
      case 'user':
        await append({ type: 'message', message: userMessage(`u${serial}`) });
        break;
      case 'reply':
        await append({ type: 'message', message: assistantMessage(`a${serial}`) });
        break;
      case 'tools': {
        const callIds = Array.from({ length: calls }, (_, index) => `c${serial}-${index}`);
        await append({
          type: 'message',
          message: toolCallMessage(callIds.map((id) => ({ id, name: 'bash', arguments: { n: id } }))),
        });
        for (const id of callIds) {
          await append({ type: 'message', message: toolResultMessage(id, `out ${id}`, { toolName: 'bash' }) });
        }
        break;
      }
      case 'compaction': {
        // Any entry of the leaf's branch: the store refuses one from another branch.
        const branch = leaf === null ? [] : await store.getBranch(sessionId, leaf);
        if (branch.length === 0) break;
        const kept = branch[pick % branch.length]!;
        await append({ type: 'compaction', summary: `summary ${serial}`, firstKeptEntryId: kept.id, tokensBefore: 9 });
        break;
      }
      case 'branch_summary':
        if (target !== undefined) await append({ type: 'branch_summary', fromId: target, summary: `left ${serial}` });
        break;
      case 'label':
        if (target !== undefined) await append({ type: 'label', targetId: target, label: `mark ${serial}` });
        break;
      case 'model':
        await append({ type: 'model_change', provider: `p${serial}`, modelId: `m${serial}` });
        break;
      case 'thinking':
        await append({ type: 'thinking_level_change', thinkingLevel: `level ${serial}` });
        break;
      case 'custom':
        await append({ type: 'custom', customType: 'state', data: { serial } });
        break;
      case 'custom_message':
        await append({ type: 'custom_message', customType: 'note', content: `note ${serial}`, display: true });
        break;
      default:
        if (target !== undefined) await store.setLeaf(sessionId, target);
    }
  }
  return ids;
}
