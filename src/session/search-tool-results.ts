// Finding tool results of a session branch for `recall`: the checked search request every store
// takes, the text of a result, and the scan over `getBranch` that a store without an index (the
// in-memory and JSONL stores, a host's own) is searched by.
import { SessionError } from '../errors.js';
import { recallIdOf } from '../messages/recall-id.js';
import type { SessionEntry } from '../session-entry.js';
import type { ToolResultMessage } from '../types.js';
import { describeValue } from '../validation/describe-value.js';
import type { SessionStore, ToolResultHit, ToolResultSearch } from './session-store.js';

/** The most results one query returns. */
export const MAX_TOOL_RESULT_HITS = 100;

const SEARCH_KEYS = new Set(['id', 'query', 'limit', 'leafId']);

/** A string of 1 to 1,000 characters (`query` once trimmed), else `undefined`. */
function shortText(value: unknown, trim: boolean): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = trim ? value.trim() : value;
  return text.length >= 1 && text.length <= 1000 ? text : undefined;
}

/**
 * The first problem of a search (`search.limit must be …`), or the search with `query` trimmed:
 * written by hand so a store's bundle carries no zod, and held equal to the zod schema
 * `z.strictObject({ id: z.string().min(1).max(1000).optional(), query: z.string().trim().min(1).max(1000).optional(),
 * limit: z.number().int().min(1).max(100).optional(), leafId: z.string().min(1).nullable().optional() })`
 * refined to exactly one of `id` and `query` by a property test (`test/session/is-stored-entry.test.ts`).
 *
 * @internal
 */
export function parseToolResultSearch(search: unknown): { search: ToolResultSearch } | { problem: string } {
  if (typeof search !== 'object' || search === null || Array.isArray(search)) {
    return { problem: `search must be an object, received ${describeValue(search)}` };
  }
  const { id, query, limit, leafId } = search as Record<string, unknown>;
  const unknown = Object.keys(search).filter((key) => !SEARCH_KEYS.has(key));
  const checkedQuery = shortText(query, true);
  const problem =
    id !== undefined && shortText(id, false) === undefined
      ? 'search.id must be a string of 1 to 1000 characters (a tool call id or recall id)'
      : query !== undefined && checkedQuery === undefined
        ? 'search.query must be a string of 1 to 1000 characters, not only spaces'
        : limit !== undefined &&
            !(Number.isSafeInteger(limit) && (limit as number) >= 1 && (limit as number) <= MAX_TOOL_RESULT_HITS)
          ? `search.limit must be a whole number from 1 to ${MAX_TOOL_RESULT_HITS}`
          : leafId !== undefined && leafId !== null && !(typeof leafId === 'string' && leafId.length > 0)
            ? 'search.leafId must be an entry id (a non-empty string), null, or left out'
            : unknown.length > 0
              ? `search has unknown key(s) ${unknown.join(', ')}; use id, query, limit and leafId`
              : (id === undefined) === (query === undefined)
                ? 'search: pass exactly one of id (a tool call id or recall id) and query (words)'
                : undefined;
  if (problem !== undefined) return { problem };
  return {
    search: {
      ...(id === undefined ? {} : { id: id as string }),
      ...(checkedQuery === undefined ? {} : { query: checkedQuery }),
      ...(limit === undefined ? {} : { limit: limit as number }),
      ...(leafId === undefined ? {} : { leafId: leafId as string | null }),
    },
  };
}

/**
 * Checks a {@link ToolResultSearch} where it enters a store.
 *
 * @throws `SessionError` (`INPUT_INVALID`) naming the field.
 * @internal
 */
export function checkToolResultSearch(search: unknown, where: string): ToolResultSearch & { limit: number } {
  const parsed = parseToolResultSearch(search);
  if ('problem' in parsed)
    throw new SessionError({
      message: `${where}: invalid search: ${parsed.problem}.`,
      code: 'INPUT_INVALID',
    });
  return { ...parsed.search, limit: parsed.search.limit ?? 20 };
}

/**
 * The text of a tool result as recall returns it: its text parts joined by newlines, other parts
 * named (`[image]`).
 *
 * @internal
 */
export function toolResultText(result: ToolResultMessage): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
}

/** The distinct lower-cased words of a query. @internal */
export function queryWords(query: string): string[] {
  return [...new Set(query.toLowerCase().split(/\s+/).filter(Boolean))];
}

/** The hit of a message entry holding a tool result, else `undefined`. */
function hitOf(entry: SessionEntry): ToolResultHit | undefined {
  if (entry.type !== 'message' || entry.message.role !== 'toolResult') return undefined;
  const message = entry.message;
  return {
    entryId: entry.id,
    toolCallId: message.toolCallId,
    toolName: message.toolName,
    text: toolResultText(message),
  };
}

/**
 * Ranks tool results by a query, the way every scan does: most query words found first, then most
 * occurrences, then the newest; at most `limit`. @internal
 */
export function rankByQuery<T extends { text: string }>(results: readonly T[], query: string, limit: number): T[] {
  const words = queryWords(query);
  const scored: { result: T; matched: number; hits: number; index: number }[] = [];
  results.forEach((result, index) => {
    const lower = result.text.toLowerCase();
    let matched = 0;
    let hits = 0;
    for (const word of words) {
      let at = lower.indexOf(word);
      if (at >= 0) matched++;
      while (at >= 0 && hits < 1000) {
        hits++;
        at = lower.indexOf(word, at + word.length);
      }
    }
    if (matched > 0) scored.push({ result, matched, hits, index });
  });
  return scored
    .sort((a, b) => b.matched - a.matched || b.hits - a.hits || b.index - a.index)
    .slice(0, limit)
    .map((entry) => entry.result);
}

/**
 * Searches the tool results of one branch of a session by reading the branch (`getBranch`): the
 * fallback for a store without {@link SessionStore.searchToolResults}, and what that method must
 * agree with. An `id` matches a result's tool call id or its recall id (`recallIdOf`), oldest
 * first; a `query` matches results containing any of its words as substrings, case-insensitively,
 * ranked by words found, then occurrences, then newest. Linear in the branch's size.
 *
 * @param store - The store; only `getBranch` is called.
 * @param sessionId - The session.
 * @param search - Exactly one of `id` and `query`; `limit` (default 20, at most 100) and `leafId`.
 * @returns The matching results with their entry ids.
 * @throws `SessionError` (`INPUT_INVALID`) for a malformed search; whatever `getBranch` throws.
 *
 * @example
 * ```ts
 * import { searchToolResultsByScanning } from 'ctxkit/session';
 *
 * const hits = store.searchToolResults
 *   ? await store.searchToolResults(sessionId, { query: 'checksum' })
 *   : await searchToolResultsByScanning(store, sessionId, { query: 'checksum' });
 * ```
 */
export async function searchToolResultsByScanning(
  store: Pick<SessionStore, 'getBranch'>,
  sessionId: string,
  search: ToolResultSearch,
): Promise<ToolResultHit[]> {
  const checked = checkToolResultSearch(search, 'searchToolResultsByScanning');
  const hits: ToolResultHit[] = [];
  for (const entry of await store.getBranch(sessionId, checked.leafId)) {
    const hit = hitOf(entry);
    if (hit !== undefined) hits.push(hit);
  }
  if (checked.id !== undefined) {
    const id = checked.id;
    return hits.filter((hit) => hit.toolCallId === id || recallIdOf(hit.toolCallId) === id);
  }
  return rankByQuery(hits, checked.query!, checked.limit);
}
