import { StoreError } from '../errors.js';
import { markStoreEntries } from '../session/check-entries.js';
import { parseStoredEntry } from '../session/parse-stored-entry.js';
import type { SessionEntry } from '../session-entry.js';
import type { Query } from './postgres-connection.js';

/**
 * What the read queries return: a JSON array of pairs, each row's sequence number and its entry
 * (`null` for rows the cache should have), in order; `null` for no rows.
 *
 * @internal
 */
export interface EntryList {
  list: string | null;
}

interface SessionEntries {
  bySeq: Map<number, SessionEntry>;
  /** The highest sequence number cached; rows above it come with their JSON. */
  watermark: number;
}

/**
 * The entries the store has read or written, by row sequence number, so that repeated reads
 * return the same frozen objects and fetch only the JSON of rows not seen before.
 *
 * It never decides what exists: every read asks the server which rows are on the branch (or in
 * the session), and the cache only supplies the content of a row it names. Sequence numbers are
 * never reused (not even after a rollback), and rows are never updated, so a rolled-back append
 * leaves nothing that a later read could return. Whole sessions are evicted, least recently used
 * first, beyond `maxEntries`.
 *
 * @internal
 */
export class EntryCache {
  private readonly sessions = new Map<string, SessionEntries>();
  private size = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly entriesTable: string,
  ) {}

  /** The sequence number above which reads must send the JSON of rows. */
  watermark(sessionId: string): string {
    return String(this.sessions.get(sessionId)?.watermark ?? 0);
  }

  /** Remembers an entry the store has just written. */
  add(sessionId: string, seq: number, entry: SessionEntry): void {
    const session = this.touch(sessionId);
    if (!session.bySeq.has(seq)) this.size++;
    session.bySeq.set(seq, entry);
    session.watermark = Math.max(session.watermark, seq);
    this.evict(sessionId);
  }

  /** The entries of the listed rows, in order: cached, parsed from the list, or fetched in one query. */
  async resolve(sessionId: string, list: EntryList, query: Query): Promise<SessionEntry[]> {
    const pairs = (list.list === null ? [] : JSON.parse(list.list)) as unknown[];
    const seqs: number[] = [];
    const session = this.touch(sessionId);
    const missing: number[] = [];
    for (let position = 0; position < pairs.length; position += 2) {
      const seq = pairs[position] as number;
      const value = pairs[position + 1];
      seqs.push(seq);
      if (session.bySeq.has(seq)) continue;
      if (value === null) missing.push(seq);
      else this.store(session, seq, value);
    }
    if (missing.length > 0) {
      const fetched = await query(
        `SELECT seq, coalesce(data_text, data::text) AS data FROM ${this.entriesTable} WHERE seq = ANY($1::bigint[])`,
        [missing],
      );
      for (const row of fetched.rows as { seq: string; data: string }[]) {
        this.store(session, Number(row.seq), JSON.parse(row.data));
      }
    }
    const entries = seqs.map((seq) => session.bySeq.get(seq)!);
    this.evict(sessionId);
    return markStoreEntries(entries);
  }

  clear(): void {
    this.sessions.clear();
    this.size = 0;
  }

  private store(session: SessionEntries, seq: number, value: unknown): void {
    const parsed = parseStoredEntry(value);
    if ('problem' in parsed) {
      throw new StoreError({
        message: `Row ${seq} of ${this.entriesTable} is not a valid entry: ${parsed.problem}.`,
        code: 'STORE_CORRUPT',
      });
    }
    session.bySeq.set(seq, parsed.entry);
    session.watermark = Math.max(session.watermark, seq);
    this.size++;
  }

  /** The session's entries, marked as the most recently used. */
  private touch(sessionId: string): SessionEntries {
    let session = this.sessions.get(sessionId);
    if (session === undefined) session = { bySeq: new Map(), watermark: 0 };
    else this.sessions.delete(sessionId);
    this.sessions.set(sessionId, session);
    return session;
  }

  private evict(keep: string): void {
    for (const [sessionId, session] of this.sessions) {
      if (this.size <= this.maxEntries) return;
      if (sessionId === keep) continue;
      this.sessions.delete(sessionId);
      this.size -= session.bySeq.size;
    }
  }
}
