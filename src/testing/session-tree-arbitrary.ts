import fc from 'fast-check';
import type { SessionEntry } from '../session-entry.js';
import type { Message } from '../types.js';
import { assistantMessage, toolCallMessage, toolResultMessage, userMessage } from './message-builders.js';

const user = (text: string): Message => userMessage(text);
const assistant = (text: string): Message => assistantMessage(text);
const call = (ids: string[], text?: string): Message =>
  toolCallMessage(
    ids.map((id) => ({ id, name: 'run', arguments: { id } })),
    text,
  );
const result = (id: string): Message => toolResultMessage(id, `output of ${id}`, { toolName: 'run' });

/**
 * A random session tree made of whole turns (a user message; or an assistant message with tool
 * calls followed by one result per call; or a plain assistant reply), each attached after the
 * end of a random earlier turn, with the occasional compaction, branch summary, label or model
 * change. Every root-to-turn-end path is a well-paired conversation. Used by the store
 * conformance suite and the session tests.
 *
 * @internal
 */
export const sessionTreeArbitrary = fc
  .array(
    fc.record({
      parent: fc.nat(),
      kind: fc.constantFrom(
        'user',
        'reply',
        'tools',
        'tools',
        'compaction',
        'branch_summary',
        'label',
        'model',
        'custom_message',
      ),
      calls: fc.integer({ min: 1, max: 3 }),
      keep: fc.nat(),
    }),
    { minLength: 1, maxLength: 40 },
  )
  .map((turns) => {
    const entries: SessionEntry[] = [];
    const turnEnds: (string | null)[] = [null];
    const turnStarts = new Map<string, string[]>();
    let next = 0;
    const add = (parentId: string | null, body: Record<string, unknown>): string => {
      const id = `n${next++}`;
      entries.push({ id, parentId, timestamp: next, ...body } as SessionEntry);
      return id;
    };
    for (const turn of turns) {
      const parent = turnEnds[turn.parent % turnEnds.length]!;
      const starts = parent === null ? [] : (turnStarts.get(parent) ?? []);
      const firstIndex = entries.length;
      let end: string;
      switch (turn.kind) {
        case 'user':
          end = add(parent, { type: 'message', message: user(`u${next}`) });
          break;
        case 'reply':
          end = add(parent, { type: 'message', message: assistant(`a${next}`) });
          break;
        case 'tools': {
          const ids = Array.from({ length: turn.calls }, (_, index) => `c${next}-${index}`);
          end = add(parent, { type: 'message', message: call(ids, turn.calls > 1 ? 'working' : undefined) });
          for (const id of ids) end = add(end, { type: 'message', message: result(id) });
          break;
        }
        case 'compaction': {
          if (starts.length === 0 || parent === null) continue;
          end = add(parent, {
            type: 'compaction',
            summary: `summary ${next}`,
            firstKeptEntryId: starts[turn.keep % starts.length]!,
            tokensBefore: 100,
          });
          break;
        }
        case 'branch_summary':
          end = add(parent, { type: 'branch_summary', fromId: parent ?? 'none', summary: `left ${next}` });
          break;
        case 'label':
          end = add(parent, { type: 'label', targetId: parent ?? 'none', label: 'mark' });
          break;
        case 'model':
          end = add(parent, { type: 'model_change', provider: 'p', modelId: `m${next}` });
          break;
        default:
          end = add(parent, { type: 'custom_message', customType: 'note', content: `note ${next}` });
      }
      // Turn starts on the path to this turn's end: valid places for a compaction to keep from.
      const startId = entries[firstIndex]!.id;
      turnStarts.set(end, [...starts, ...(turn.kind === 'compaction' ? [] : [startId])]);
      turnEnds.push(end);
    }
    return entries;
  })
  .filter((entries) => entries.length > 0);
