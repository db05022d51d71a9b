import * as z from 'zod/v4';
import { deepFreeze } from '../internal/deep-freeze.js';
import { freshCallId } from '../internal/reused-call-id.js';
import { RECALL_ID_PATTERN, recallIdOf } from '../messages/recall-id.js';
import type { SpillStore } from '../pipeline/spill-store.js';
import {
  MAX_TOOL_RESULT_HITS,
  queryWords,
  rankByQuery,
  searchToolResultsByScanning,
} from '../session/search-tool-results.js';
import type { SessionStore, ToolResultSearch } from '../session/session-store.js';
import type { Message, ToolResultMessage } from '../types.js';
import { assertObjectArgument, invalidArgument } from '../validation/assert-argument.js';
import { isArchivedResult, resultText } from './internal/archived-results.js';
import type { ContextToolDefinition } from './tool-definition.js';

/** The most matches one search returns. */
const MAX_SEARCH_LIMIT = 20;
/** Matches a search returns when the model gives no `limit`. */
const DEFAULT_SEARCH_LIMIT = 5;
/** Characters of a search match's excerpt. */
const EXCERPT_CHARACTERS = 160;

/**
 * The `recall` tool: fetch an archived tool result by its tool call id (`{ id, offset? }`), or
 * search the archived results of this session (`{ query, limit? }`). Deeply frozen: copy it to
 * change it.
 *
 * @example
 * ```ts
 * import { recallToolDefinition } from 'ctxkit/agent-tools';
 *
 * const tools = [{ type: 'function', function: { name: recallToolDefinition.name,
 *   description: recallToolDefinition.description, parameters: recallToolDefinition.inputSchema } }];
 * ```
 */
export const recallToolDefinition: ContextToolDefinition = deepFreeze({
  name: 'recall',
  description:
    'Get back a tool result that was archived or cut to save context. Pass id (the r… id its placeholder or notice names, or its tool call id) and, to read on, the offset the last page named; or pass query to search archived results by words.',
  inputSchema: {
    type: 'object',
    properties: {
      id: { type: 'string', minLength: 1, description: 'The r… id a placeholder names, or a tool call id.' },
      offset: { type: 'integer', minimum: 0, description: 'With id: character to start from.' },
      query: { type: 'string', minLength: 1, description: 'Words to search archived results for.' },
      limit: { type: 'integer', minimum: 1, maximum: MAX_SEARCH_LIMIT, description: 'With query: most matches.' },
    },
    additionalProperties: false,
  },
} as const);

/**
 * The zod schema of the `recall` input: `{ id, offset? }` or `{ query, limit? }`, exactly one of
 * `id` and `query`.
 *
 * @example
 * ```ts
 * recallInputSchema.parse({ id: 'call_17' }); // { id: 'call_17' }
 * recallInputSchema.safeParse({ id: 'a', query: 'b' }).success; // false
 * ```
 */
export const recallInputSchema = z
  .strictObject({
    id: z.string().min(1).optional(),
    offset: z.number().int().min(0).optional(),
    query: z.string().trim().min(1).optional(),
    limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).optional(),
  })
  .refine((input) => (input.id === undefined) !== (input.query === undefined), {
    message: 'pass exactly one of id (a tool call id) and query (words to search for)',
  })
  .refine((input) => input.id !== undefined || input.offset === undefined, {
    message: 'offset goes with id, not with query',
  })
  .refine((input) => input.query !== undefined || input.limit === undefined, {
    message: 'limit goes with query, not with id',
  });

/**
 * One validated call of the `recall` tool.
 *
 * @example
 * ```ts
 * const input: RecallInput = { id: 'call_17', offset: 8000 };
 * ```
 */
export type RecallInput = z.output<typeof recallInputSchema>;

/**
 * Where {@link recall} looks: the history the manager holds and, optionally, the session in a
 * store (whose branch still holds results a compaction dropped from the history).
 *
 * @example
 * ```ts
 * const source: RecallSource = { history, store, sessionId, maxCharacters: 8000 };
 * ```
 */
export interface RecallSource {
  /** The history the manager returned last: its archived copies keep the whole outputs. */
  history: readonly Message[];
  /** The session store the manager records in; its branch is read, never written. */
  store?: SessionStore | undefined;
  /** The session in `store`: the only one read. */
  sessionId?: string | undefined;
  /** Characters of a page of a recalled result. @default 8000 */
  maxCharacters?: number | undefined;
  /**
   * The spill store the manager cuts outputs into: a result whose notice names a file of it is
   * read back whole through its `read` (checked against the SHA-256 in the notice). Nothing else
   * on disk is read.
   */
  spillStore?: SpillStore | undefined;
}

/** A tool result recall can return: its id, tool and text. */
interface Recallable {
  id: string;
  toolName: string;
  text: string;
}

/** The first line of a page of `id` from `offset`: the loop guard looks for it in the history. */
function pageHeader(id: string, offset: number): string {
  return `[recall ${id} from ${offset}]`;
}

function firstText(message: ToolResultMessage): string {
  const part = message.content[0];
  return part?.type === 'text' ? part.text : '';
}

/** Whether a page of `id` from `offset` is still visible to the model in `history`. */
function stillVisible(history: readonly Message[], header: string): boolean {
  for (let index = history.length - 1; index >= 0; index--) {
    const message = history[index]!;
    if (message.role !== 'toolResult' || message.toolName !== recallToolDefinition.name) continue;
    if (message.meta?.agentVisible === false) continue;
    if (firstText(message).startsWith(`${header}\n`)) return true;
  }
  return false;
}

/**
 * The session's tool results a store search finds: through the store's index
 * (`searchToolResults`) where it has one, else by scanning its branch. Empty without a store.
 */
async function fromStore(source: RecallSource, search: ToolResultSearch): Promise<Recallable[]> {
  const { store, sessionId } = source;
  if (store === undefined || sessionId === undefined) return [];
  const hits = store.searchToolResults
    ? await store.searchToolResults(sessionId, search)
    : await searchToolResultsByScanning(store, sessionId, search);
  return hits.map((hit) => ({ id: hit.toolCallId, toolName: hit.toolName, text: hit.text }));
}

/** `raw#k`: how ctxkit named the k-th result of a reused id before it sent `raw_k`; still taken. */
const LEGACY_REUSED_ID = /^(.*)#(\d+)$/;
/** `raw_k`: the name ctxkit sends the k-th result of a reused id under (unless `raw` was long or alphanumeric). */
const REUSED_ID = /^(.*)_\d+$/;

/**
 * The tool results `id` may name, oldest first: the store's (the whole outputs the host recorded)
 * and then the history's results whose ids the store lacks. The store is asked for `id` and for the
 * raw id a reused id's name shows (`call_0` for `call_0_2` or `call_0#2`).
 */
async function candidatesFor(source: RecallSource, id: string): Promise<Recallable[]> {
  const bases = new Set([id]);
  if (!RECALL_ID_PATTERN.test(id))
    for (const pattern of [LEGACY_REUSED_ID, REUSED_ID]) {
      const base = pattern.exec(id)?.[1];
      if (base) bases.add(base);
    }
  const stored: Recallable[] = [];
  for (const base of bases) stored.push(...(await fromStore(source, { id: base })));
  const ids = new Set(stored.map((result) => result.id));
  const inHistory: Recallable[] = [];
  for (const message of source.history)
    if (message.role === 'toolResult' && !ids.has(message.toolCallId))
      inHistory.push({ id: message.toolCallId, toolName: message.toolName, text: resultText(message) });
  return [...stored, ...inHistory];
}

/**
 * The id each result is sent under, named as `prepareModelMessages` names them: the first result
 * of an id under the id itself, a later one under a fresh name (`call_0_2`, `call_0_3`…) that is
 * no other result's id.
 */
function sentNames(results: readonly Recallable[]): string[] {
  const raw = new Set(results.map((result) => result.id));
  const sent = new Set<string>();
  const nextSuffix = new Map<string, number>();
  return results.map((result) => {
    const name = sent.has(result.id)
      ? freshCallId(result.id, (candidate) => raw.has(candidate) || sent.has(candidate), nextSuffix)
      : result.id;
    sent.add(name);
    return name;
  });
}

/**
 * The result `id` names: a recall id (`r` and eight characters, from a placeholder or a notice);
 * its exact tool call id (the first result of a reused id); the name the manager sends a later
 * result of a reused id under (`call_0_2`); or `raw#k`, that name as ctxkit wrote it before (a
 * model may still hold it from an older summary or recall). Several results under one recall id
 * (a reused tool call id) come back as a list.
 */
function find(results: readonly Recallable[], id: string): Recallable | Recallable[] | undefined {
  const exact = results.find((result) => result.id === id);
  if (exact !== undefined) return exact;
  if (RECALL_ID_PATTERN.test(id)) {
    const named = results.filter((result) => recallIdOf(result.id) === id);
    return named.length <= 1 ? named[0] : named;
  }
  const renamed = sentNames(results).indexOf(id);
  if (renamed >= 0) return results[renamed];
  const legacy = LEGACY_REUSED_ID.exec(id);
  if (legacy === null) return undefined;
  const same = results.filter((result) => result.id === legacy[1]);
  return same[Number(legacy[2]) - 1];
}

const number = new Intl.NumberFormat('en-US');

async function fetchById(source: RecallSource, id: string, offset: number): Promise<string> {
  const header = pageHeader(id, offset);
  if (stillVisible(source.history, header))
    return `[recall ${id}: that page is already in your context from an earlier recall; read it there, or pass another offset]`;
  const candidates = await candidatesFor(source, id);
  const found = find(candidates, id);
  if (found === undefined)
    return `[recall ${id}: no tool result of this session has that id; pass the r… id a placeholder names or a tool call id, or search with query]`;
  if (Array.isArray(found)) {
    const names = sentNames(candidates);
    const listed = found.map((result) => names[candidates.indexOf(result)]);
    return `[recall ${id}: ${found.length} results share that id (a reused tool call id); recall one by its tool call id: ${listed.join(', ')}]`;
  }
  const result = found;
  if (result.toolName === recallToolDefinition.name)
    return `[recall ${id}: that result was itself a recall; recall the id it named instead]`;
  const spilled = await readSpilled(source, result.text);
  if (spilled !== undefined) result.text = spilled;
  const total = result.text.length;
  if (offset >= total && total > 0)
    return `[recall ${id}: offset ${number.format(offset)} is past the end (${number.format(total)} characters)]`;
  const size = source.maxCharacters ?? 8000;
  let end = Math.min(total, offset + size);
  // Never split a surrogate pair: the next page starts where this one ends.
  if (end < total && /[\uD800-\uDBFF]/.test(result.text[end - 1] ?? '')) end--;
  const page = result.text.slice(offset, end);
  const more =
    end < total
      ? `\n[truncated: ${number.format(end - offset)} of ${number.format(total)} characters shown from ${number.format(offset)}; recall with offset ${end} for more]`
      : '';
  return `${header}\n${page}${more}`;
}

/** The notice of a cut output saved to the spill store: its path and SHA-256. */
const SPILL_NOTICE = /Full output saved to (.+?) \(SHA-256 ([0-9a-f]{64})\)/;

async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The whole output of a result cut with a spill notice, read back through the spill store and
 * checked against the notice's SHA-256; `undefined` when there is no notice, no readable store, or
 * the file is gone or changed (then the cut text is returned as it is).
 */
async function readSpilled(source: RecallSource, text: string): Promise<string | undefined> {
  const notice = SPILL_NOTICE.exec(text);
  const read = source.spillStore?.read;
  if (notice === null || read === undefined) return undefined;
  try {
    const full = await read.call(source.spillStore, notice[1]!);
    return (await sha256Hex(full)) === notice[2] ? full : undefined;
  } catch {
    return undefined;
  }
}

function excerpt(text: string, at: number): string {
  const start = Math.max(0, at - EXCERPT_CHARACTERS / 4);
  const clip = text.slice(start, start + EXCERPT_CHARACTERS).replace(/\s+/g, ' ');
  return `${start > 0 ? '…' : ''}${clip}${start + EXCERPT_CHARACTERS < text.length ? '…' : ''}`;
}

async function search(source: RecallSource, query: string, limit: number): Promise<string> {
  // What the model still sees is left out: the history's visible results, by id.
  const visible = new Set<string>();
  const archived: Recallable[] = [];
  for (const message of source.history) {
    if (message.role !== 'toolResult') continue;
    if (isArchivedResult(message))
      archived.push({ id: message.toolCallId, toolName: message.toolName, text: resultText(message) });
    else visible.add(message.toolCallId);
  }
  const stored = (
    await fromStore(source, { query, limit: Math.min(MAX_TOOL_RESULT_HITS, limit + visible.size + 5) })
  ).filter((result) => !visible.has(result.id));
  const ids = new Set(stored.map((result) => result.id));
  const pool = [...stored, ...archived.filter((result) => !ids.has(result.id))].filter(
    (result) => result.toolName !== recallToolDefinition.name,
  );
  const label = JSON.stringify(query.length > 80 ? `${query.slice(0, 80)}…` : query);
  const ranked = rankByQuery(pool, query, limit);
  if (ranked.length === 0) return `[recall search ${label}: no archived tool result matches]`;
  const words = queryWords(query);
  const lines = ranked.map((result) => {
    const lower = result.text.toLowerCase();
    const first = Math.min(...words.map((word) => lower.indexOf(word)).filter((at) => at >= 0), lower.length);
    return `- ${result.id} (${result.toolName}, ${number.format(result.text.length)} chars): ${excerpt(result.text, first)}`;
  });
  return [
    `[recall search ${label}: ${ranked.length} match${ranked.length === 1 ? '' : 'es'}, best first; recall one by its id]`,
    ...lines,
  ].join('\n');
}

/**
 * Runs one validated `recall` call over this session's archive: the history's archived copies
 * and, when a store and session are given, the session's branch; a result cut into the spill
 * store is read back through `source.spillStore`. Reads nothing else: no other session, no other
 * file. The id is the `r…` id a placeholder or notice names, or a tool call id. An id fetch returns one page of at most `maxCharacters` characters, with a
 * `[truncated: X of Y …]` marker naming the offset to read on from; fetching a page that an
 * earlier recall still shows in the history, or the result of a recall, returns a one-line note
 * instead (so a recall loop stays small). A search ranks the archived results (not the ones
 * still visible) by the query words they contain and lists the best with an excerpt each.
 *
 * @param input - The call, as {@link recallInputSchema} returns it.
 * @param source - The history and, optionally, the store and session.
 * @returns The text of the tool result to send back.
 * @throws Whatever `source.store.getBranch` throws.
 *
 * @example
 * ```ts
 * const text = await recall({ id: 'call_17' }, { history, store, sessionId });
 * ```
 */
export async function recall(input: RecallInput, source: RecallSource): Promise<string> {
  assertObjectArgument(input, 'recall', 'input', 'an object ({ id } or { query })');
  assertObjectArgument(source, 'recall', 'source', 'an object ({ history, store?, sessionId?, spillStore? })');
  if (!Array.isArray(source.history))
    throw invalidArgument('recall', 'source.history', 'an array of messages', source.history);
  if (input.id !== undefined) return fetchById(source, input.id, input.offset ?? 0);
  return search(source, input.query ?? '', input.limit ?? DEFAULT_SEARCH_LIMIT);
}
