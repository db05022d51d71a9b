import { StoreError } from '../errors.js';
import { parseStoredEntry } from '../session/session-index.js';
import type { SessionEntry } from '../types.js';
import type { Query } from './postgres-connection.js';

/** A row as the read queries return it: the row's sequence number, and its JSON unless cached. */
export interface EntryRow {
  seq: string;
  data: string | null;
}

interface SessionEntries {
  bySeq: Map<string, SessionEntry>;
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
  add(sessionId: string, seq: string, entry: SessionEntry): void {
    const session = this.touch(sessionId);
    if (!session.bySeq.has(seq)) this.size++;
    session.bySeq.set(seq, entry);
    session.watermark = Math.max(session.watermark, Number(seq));
    this.evict(sessionId);
  }

  /** The entries of rows, in row order: cached, parsed from the row, or fetched in one query. */
  async resolve(sessionId: string, rows: readonly EntryRow[], query: Query): Promise<SessionEntry[]> {
    const session = this.touch(sessionId);
    const missing: string[] = [];
    for (const row of rows) {
      if (session.bySeq.has(row.seq)) continue;
      if (row.data === null) missing.push(row.seq);
      else this.store(session, row.seq, row.data);
    }
    if (missing.length > 0) {
      const fetched = await query(
        `SELECT seq, coalesce(data::text, data_text) AS data FROM ${this.entriesTable} WHERE seq = ANY($1::bigint[])`,
        [missing],
      );
      for (const row of fetched.rows as EntryRow[]) this.store(session, row.seq, row.data!);
    }
    const entries = rows.map((row) => session.bySeq.get(row.seq)!);
    this.evict(sessionId);
    return entries;
  }

  clear(): void {
    this.sessions.clear();
    this.size = 0;
  }

  private store(session: SessionEntries, seq: string, data: string): void {
    const parsed = parseStoredEntry(JSON.parse(data));
    if ('problem' in parsed) {
      throw new StoreError(`Row ${seq} of ${this.entriesTable} is not a valid entry: ${parsed.problem}.`, {
        code: 'STORE_CORRUPT',
      });
    }
    session.bySeq.set(seq, parsed.entry);
    session.watermark = Math.max(session.watermark, Number(seq));
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
