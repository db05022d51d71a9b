import { execFile } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describeSessionStoreConformance } from 'ctxkit/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildContextFromBranch, ConfigError, LeafConflictError, StoreError } from '../../src/index.js';
import {
  type CreateJsonlStoreOptions,
  createJsonlStore,
  JSONL_FORMAT_VERSION,
  type JsonlStoreWarning,
} from '../../src/node/index.js';
import { bundledScript } from '../harness/bundled-script.js';

describeSessionStoreConformance({
  name: 'JSONL store',
  runner: { afterEach, describe, expect, it },
  create: async () => {
    const directory = await mkdtemp(join(tmpdir(), 'ctxkit-jsonl-'));
    return {
      store: createJsonlStore({ directory }),
      reopen: () => createJsonlStore({ directory }),
      cleanup: () => rm(directory, { recursive: true, force: true }),
    };
  },
});

describe('JSONL store files', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'ctxkit-jsonl-'));
  });
  afterEach(() => rm(directory, { recursive: true, force: true }));

  const say = (text: string) => ({ type: 'message' as const, message: { role: 'user' as const, content: text } });

  it('writes a versioned header and one line per entry', async () => {
    const store = createJsonlStore({ directory });
    const { id } = await store.createSession({ id: 's1', name: 'demo' });
    const entry = await store.appendEntry(id, say('hello'));
    const lines = (await readFile(join(directory, 's1.jsonl'), 'utf8')).split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({
      type: 'session',
      version: JSONL_FORMAT_VERSION,
      id: 's1',
      name: 'demo',
    });
    expect(JSON.parse(lines[1]!)).toEqual(entry);
    expect(lines[2]).toBe('');
  });

  it('survives a torn last line, reports it, and appends after it on a new line', async () => {
    const store = createJsonlStore({ directory });
    const { id } = await store.createSession({ id: 'torn' });
    const written = [await store.appendEntry(id, say('a')), await store.appendEntry(id, say('b'))];
    await appendFile(join(directory, 'torn.jsonl'), '{"type":"message","id":"half","parentId":nu');

    const warnings: JsonlStoreWarning[] = [];
    const reopened = createJsonlStore({ directory, onWarning: (warning) => warnings.push(warning) });
    expect(await reopened.getEntries(id)).toEqual(written);
    expect(await reopened.getLeaf(id)).toBe(written[1]!.id);
    expect(warnings).toEqual([expect.objectContaining({ sessionId: 'torn', line: 4, torn: true })]);
    expect(reopened.getDiagnostics()).toEqual(warnings);

    const next = await reopened.appendEntry(id, say('c'));
    expect(next.parentId).toBe(written[1]!.id);
    const third = createJsonlStore({ directory });
    expect(await third.getEntries(id)).toEqual([...written, next]);
    expect(third.getDiagnostics()).toEqual([expect.objectContaining({ line: 4, torn: false })]);
  });

  it('skips an invalid line in the middle and keeps the rest', async () => {
    const store = createJsonlStore({ directory });
    const { id } = await store.createSession({ id: 'mid' });
    const a = await store.appendEntry(id, say('a'));
    await appendFile(join(directory, 'mid.jsonl'), '{"type":"message","id":"bad"}\n');
    // The line written behind the store's back is another writer: refused once, then read.
    await expect(store.appendEntry(id, say('b'))).rejects.toThrow(/changed by another writer/);
    const b = await store.appendEntry(id, say('b'));
    expect(b.parentId).toBe(a.id);
    const reopened = createJsonlStore({ directory });
    expect(await reopened.getEntries(id)).toEqual([a, b]);
    const [warning] = reopened.getDiagnostics();
    expect(warning).toMatchObject({ line: 3, torn: false });
    expect(warning!.reason).toContain('entry.message');
  });

  it('refuses a file from a newer format version', async () => {
    await mkdir(directory, { recursive: true });
    await writeFile(
      join(directory, 'future.jsonl'),
      `${JSON.stringify({ type: 'session', version: 99, id: 'future', createdAt: 1 })}\n`,
    );
    const store = createJsonlStore({ directory });
    const error = await store.getEntries('future').catch((caught: unknown) => caught);
    expect(StoreError.isInstance(error) && error.code).toBe('STORE_CORRUPT');
    expect(await store.listSessions()).toEqual([]);
    expect(store.getDiagnostics()[0]?.reason).toContain('version 99');
  });

  it('persists leaf moves and derives the leaf on reopen', async () => {
    const store = createJsonlStore({ directory });
    const { id } = await store.createSession();
    const a = await store.appendEntry(id, say('a'));
    await store.appendEntry(id, say('b'));
    await store.setLeaf(id, a.id);
    expect(await createJsonlStore({ directory }).getLeaf(id)).toBe(a.id);
    const c = await store.appendEntry(id, say('c'));
    expect(await createJsonlStore({ directory }).getLeaf(id)).toBe(c.id);
    await store.setLeaf(id, null);
    expect(await createJsonlStore({ directory }).getLeaf(id)).toBeNull();
  });

  it('refuses a session file whose header names another session (a copied file)', async () => {
    const store = createJsonlStore({ directory });
    await store.createSession({ id: 's1' });
    await writeFile(join(directory, 'copy.jsonl'), await readFile(join(directory, 's1.jsonl')));
    const reopened = createJsonlStore({ directory, onWarning: () => {} });
    const error = await reopened.getSession('copy').catch((caught: unknown) => caught);
    expect(StoreError.isInstance(error) && error.code).toBe('STORE_CORRUPT');
    expect(String((error as Error).message)).toContain('"s1"');
    expect((await reopened.listSessions()).map((session) => session.id)).toEqual(['s1']);
  });

  it('treats a session whose header was torn while it was created as never created', async () => {
    await writeFile(join(directory, 's1.jsonl'), '{"type":"session","vers');
    const warnings: JsonlStoreWarning[] = [];
    const store = createJsonlStore({ directory, onWarning: (warning) => warnings.push(warning) });
    expect(await store.getSession('s1')).toBeUndefined();
    expect(warnings[0]).toMatchObject({ sessionId: 's1', torn: true });
    await store.createSession({ id: 's1' });
    await store.appendEntry('s1', say('hello'));
    const reopened = createJsonlStore({ directory });
    expect(await reopened.getEntries('s1')).toHaveLength(1);
  });

  it('does not bring a removed session file back without its header', async () => {
    const store = createJsonlStore({ directory });
    await store.createSession({ id: 's1' });
    await rm(join(directory, 's1.jsonl'));
    const error = await store.appendEntry('s1', say('late')).catch((caught: unknown) => caught);
    expect(StoreError.isInstance(error)).toBe(true);
    await expect(readFile(join(directory, 's1.jsonl'))).rejects.toThrow();
  });

  it('needs a directory', () => {
    expect(() => createJsonlStore({} as CreateJsonlStoreOptions)).toThrow(/directory/);
  });

  it('refuses a second writer instead of forking the tree (two store objects)', async () => {
    const first = createJsonlStore({ directory });
    const { id } = await first.createSession({ id: 'two' });
    const a = await first.appendEntry(id, say('a'));
    const second = createJsonlStore({ directory });
    expect(await second.getLeaf(id)).toBe(a.id);
    const b = await first.appendEntry(id, say('b'));
    const refused = await second.appendEntry(id, say('from second')).catch((caught: unknown) => caught);
    expect(LeafConflictError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ code: 'LEAF_CONFLICT', expectedLeafId: a.id, currentLeafId: b.id });
    expect(String((refused as Error).message)).toMatch(/changed by another writer .*nothing was appended/);
    // The refused store reads the session again, so a retry continues after the other's entries.
    const c = await second.appendEntry(id, say('c'));
    expect(c.parentId).toBe(b.id);
    await expect(first.appendEntry(id, say('d'))).rejects.toThrow(/another writer/);
    const branch = await createJsonlStore({ directory }).getBranch(id);
    expect(branch.map((entry) => entry.id)).toEqual([a.id, b.id, c.id]);
  });

  it('keeps one linear branch when two processes append to one session', async () => {
    const store = createJsonlStore({ directory });
    await store.createSession({ id: 'race' });
    // ctxkit/node bundled once: a process starts without transpiling the sources again.
    const bundle = pathToFileURL(await bundledScript(new URL('../../src/node/index.ts', import.meta.url))).href;
    const script = `
      const { createJsonlStore } = await import(${JSON.stringify(bundle)});
      const store = createJsonlStore({ directory: process.argv[1] });
      let written = 0;
      for (let attempt = 0; written < 40 && attempt < 4000; attempt++) {
        try {
          await store.appendEntry('race', { type: 'message', message: { role: 'user', content: process.argv[2] + written } });
          written++;
        } catch (error) {
          if (!/another writer|lock file/.test(String(error))) throw error;
        }
      }
      console.log(written);
    `;
    const run = (name: string) =>
      new Promise<string>((done, fail) =>
        execFile(process.execPath, ['--input-type=module', '-e', script, directory, name], (error, stdout) =>
          error ? fail(error) : done(stdout.trim()),
        ),
      );
    expect(await Promise.all([run('p'), run('q')])).toEqual(['40', '40']);
    const reopened = createJsonlStore({ directory });
    const entries = await reopened.getEntries('race');
    expect(entries).toHaveLength(80);
    expect(reopened.getDiagnostics()).toEqual([]);
    // One linear branch: every entry's parent is the entry before it.
    expect(entries.every((entry, index) => entry.parentId === (index === 0 ? null : entries[index - 1]!.id))).toBe(
      true,
    );
  }, 30_000);

  it('takes over the lock of a writer that died, and waits for a live one', async () => {
    const store = createJsonlStore({ directory });
    const { id } = await store.createSession({ id: 'locked' });
    const lockFile = join(directory, 'locked.jsonl.lock');
    const { hostname } = await import('node:os');
    await writeFile(lockFile, JSON.stringify({ pid: 2 ** 22 + 7, host: hostname(), token: 'x', since: 0 }));
    expect(await store.appendEntry(id, say('after a dead writer'))).toHaveProperty('id');
    await expect(stat(lockFile)).rejects.toThrow();
    await writeFile(lockFile, JSON.stringify({ pid: process.pid, host: 'another-host', token: 'y', since: 0 }));
    const refused = await store.appendEntry(id, say('blocked')).catch((caught: unknown) => caught);
    expect(String((refused as Error).message)).toMatch(
      /being written by process \d+ on another-host .*delete the lock file/,
    );
    expect(await store.getEntries(id)).toHaveLength(1);
  }, 10_000);

  it('refuses lines that break the tree on open, keeping the rest readable', async () => {
    const store = createJsonlStore({ directory });
    const { id } = await store.createSession({ id: 'tree' });
    const a = await store.appendEntry(id, say('a'));
    const line = (entry: object) =>
      `${JSON.stringify({ type: 'message', timestamp: 1, message: say('x').message, ...entry })}\n`;
    await appendFile(
      join(directory, 'tree.jsonl'),
      line({ id: 'orphan', parentId: 'nowhere' }) +
        line({ id: 'self', parentId: 'self' }) +
        line({ id: 'child-of-orphan', parentId: 'orphan' }) +
        line({ id: 'fine', parentId: a.id }),
    );
    const reopened = createJsonlStore({ directory });
    expect((await reopened.getBranch(id)).map((entry) => entry.id)).toEqual([a.id, 'fine']);
    expect(reopened.getDiagnostics().map((warning) => [warning.line, warning.reason])).toEqual([
      [3, expect.stringMatching(/"orphan" names as parent "nowhere".*missing parent or a cycle/)],
      [4, expect.stringMatching(/"self" names as parent itself/)],
      [5, expect.stringMatching(/"child-of-orphan" names as parent "orphan"/)],
    ]);
    // And refused on append: a parent that is not an entry of the session.
    const refused = await reopened
      .appendEntry(id, { ...say('b'), parentId: 'orphan' })
      .catch((caught: unknown) => caught);
    expect((refused as { code?: string }).code).toBe('PARENT_MISSING');
  });

  /** A session whose lines are edited by `edit` after writing, read back by a fresh store. */
  async function editedSession(edit: (lines: string[], ids: string[]) => void) {
    const store = createJsonlStore({ directory });
    const { id } = await store.createSession({ id: 'edited' });
    const ids: string[] = [];
    for (const text of ['a', 'b', 'c', 'd']) ids.push((await store.appendEntry(id, say(text))).id);
    ids.push(
      (await store.appendEntry(id, { type: 'compaction', summary: 's', firstKeptEntryId: ids[2]!, tokensBefore: 9 }))
        .id,
    );
    ids.push((await store.appendEntry(id, say('e'))).id);
    const file = join(directory, 'edited.jsonl');
    const lines = (await readFile(file, 'utf8')).split('\n');
    edit(lines, ids);
    await writeFile(file, lines.join('\n'));
    return { id, ids, reopened: createJsonlStore({ directory }) };
  }

  it('reopens by indexing lines, and reads a damaged indexed line like the full reader', async () => {
    // Line 5 (entry d, in the kept range) keeps its first fields but loses its message: the resume
    // reads it, finds it damaged, and reads the file in full: d and its descendants are skipped.
    const { id, ids, reopened } = await editedSession((lines) => {
      lines[4] = lines[4]!.replace(/"message":\{.*\}\}$/, '"message":{"role":"nobody"}}');
    });
    const part = await reopened.getBranch(id, undefined, { from: 'context' });
    expect(part.map((entry) => entry.id)).toEqual(ids.slice(0, 3));
    expect(await reopened.getLeaf(id)).toBe(ids[2]);
    expect(reopened.getDiagnostics().map((warning) => warning.line)).toEqual([5, 6, 7]);
    expect(reopened.getDiagnostics()[0]!.reason).toContain('entry.message');
    const full = createJsonlStore({ directory });
    expect(await full.getEntries(id)).toEqual(await reopened.getEntries(id));
    expect(full.getDiagnostics()).toEqual(reopened.getDiagnostics());
  });

  it('reports a compaction line that keeps from an entry not on its branch when it reads the file, not when the context is built', async () => {
    // A hand edit: the compaction (line 6) names a kept entry that does not exist.
    const { id, ids, reopened } = await editedSession((lines, written) => {
      lines[5] = lines[5]!.replace(written[2]!, 'nowhere');
    });
    const resumed = await reopened.getBranch(id, undefined, { from: 'context' });
    expect(resumed.map((entry) => entry.id)).toEqual(ids.slice(0, 4));
    expect(buildContextFromBranch(resumed).messages).toHaveLength(4);
    expect(reopened.getDiagnostics().map((warning) => [warning.line, warning.reason])).toEqual([
      [6, expect.stringMatching(/compaction ".*" keeps from entry "nowhere", which is not on its branch before it/)],
      [7, expect.stringMatching(/names as parent ".*", which is not an earlier entry/)],
    ]);
    const full = createJsonlStore({ directory });
    expect(await full.getEntries(id)).toEqual(await reopened.getEntries(id));
    expect(full.getDiagnostics()).toEqual(reopened.getDiagnostics());
    // And one that names an entry of another branch.
    const store = createJsonlStore({ directory });
    await store.setLeaf(id, ids[1]!);
    const side = await store.appendEntry(id, say('side'));
    await store.setLeaf(id, ids[3]!);
    const file = join(directory, 'edited.jsonl');
    const compaction = {
      id: 'c2',
      parentId: ids[3],
      timestamp: 1,
      type: 'compaction',
      summary: 's',
      firstKeptEntryId: side.id,
      tokensBefore: 1,
    };
    await appendFile(file, `${JSON.stringify(compaction)}\n`);
    const again = createJsonlStore({ directory });
    expect((await again.getBranch(id, undefined, { from: 'context' })).map((entry) => entry.id)).toEqual(
      ids.slice(0, 4),
    );
    expect(again.getDiagnostics().at(-1)).toMatchObject({
      reason: expect.stringMatching(/keeps from entry ".*", which is not on its branch/),
    });
  });

  it('reads only the context branch on reopen; a damaged line before it is found by the first read that reaches it', async () => {
    const { id, ids, reopened } = await editedSession((lines) => {
      // Entry a's line is damaged past its first fields, before the kept range: a resume never reads it.
      lines[1] = lines[1]!.replace('"content":"a"', '"content":7');
    });
    const part = await reopened.getBranch(id, undefined, { from: 'context' });
    expect(part.map((entry) => entry.id)).toEqual(ids.slice(2));
    expect(reopened.getDiagnostics()).toEqual([]);
    // A full read parses every line, finds the damaged one, and reads the file as the full reader does.
    expect(await reopened.getEntries(id)).toEqual([]);
    expect(reopened.getDiagnostics().map((warning) => warning.line)).toEqual([2, 3, 4, 5, 6, 7]);
  });

  it('reads a hand-written line whose fields come in another order, and a repeated id, in full', async () => {
    const { id, ids, reopened } = await editedSession((lines, written) => {
      const entry = JSON.parse(lines[4]!) as Record<string, unknown>;
      const { id: entryId, ...rest } = entry;
      lines[4] = JSON.stringify({ ...rest, id: entryId });
      lines.splice(7, 0, JSON.stringify({ ...JSON.parse(lines[6]!), parentId: written[5] }));
    });
    expect((await reopened.getBranch(id)).map((entry) => entry.id)).toEqual(ids);
    // Appending needs every id: the repeated one is found, and the file is read in full.
    const next = await reopened.appendEntry(id, say('f'));
    expect(next.parentId).toBe(ids[5]);
    expect(reopened.getDiagnostics()).toEqual([
      expect.objectContaining({ line: 8, reason: expect.stringContaining('second entry') }),
    ]);
  });

  it('reads a copied line (a repeated id among indexed lines) as the full reader does', async () => {
    // A copy of c (changed text, same id) follows e, and f follows the copy by the id they share:
    // the full reader skips the copy and hangs f under the first c, never under the copy.
    const { id, ids, reopened } = await editedSession((lines, written) => {
      const copy = { ...JSON.parse(lines[3]!), parentId: written[5], message: { role: 'user', content: 'c2' } };
      const f = { ...JSON.parse(lines[6]!), id: 'f', parentId: written[2], message: { role: 'user', content: 'f' } };
      lines.splice(7, 0, JSON.stringify(copy), JSON.stringify(f));
    });
    const texts = (entries: { type: string; message?: { content: unknown } }[]) =>
      entries.map((entry) => entry.message?.content ?? entry.type);
    expect(texts(await reopened.getBranch(id))).toEqual(['a', 'b', 'c', 'f']);
    expect(await reopened.getLeaf(id)).toBe('f');
    expect(reopened.getDiagnostics()).toEqual([
      expect.objectContaining({ line: 8, reason: expect.stringContaining(`second entry with id "${ids[2]}"`) }),
    ]);
    const context = createJsonlStore({ directory });
    expect(texts(await context.getBranch(id, undefined, { from: 'context' }))).toEqual(['a', 'b', 'c', 'f']);
  });

  it('never names a damaged last line as the leaf, nor appends under it', async () => {
    const { id, ids, reopened } = await editedSession((lines) => {
      lines[6] = lines[6]!.replace('"content":"e"', '"content":{"e":1}');
    });
    expect(await reopened.getLeaf(id)).toBe(ids[4]);
    expect(reopened.getDiagnostics()).toEqual([expect.objectContaining({ line: 7 })]);
    const appending = createJsonlStore({ directory });
    expect((await appending.appendEntry(id, say('f'))).parentId).toBe(ids[4]);
  });

  it('reads back ids that are not ASCII (their bytes compared as text)', async () => {
    const store = createJsonlStore({ directory });
    const { id } = await store.createSession({ id: 'unicode' });
    const ids = ['é1', '条目-2', '🙂3', 'plain'];
    let parentId: string | null = null;
    for (const entryId of ids) parentId = (await store.appendEntry(id, { ...say(entryId), id: entryId, parentId })).id;
    const reopened = createJsonlStore({ directory });
    expect((await reopened.getBranch(id)).map((entry) => entry.id)).toEqual(ids);
    expect(await reopened.getLeaf(id)).toBe('plain');
    expect(reopened.getDiagnostics()).toEqual([]);
  });

  it('reads an indexed line whose JSON repeats "id" with another value as the full reader does', async () => {
    // JSON.parse keeps the last of two equal keys: the line's head says e, its entry has another id
    // of the same length (so only the bytes can tell them apart).
    let other = '';
    const { id, ids } = await editedSession((lines, written) => {
      other = 'x'.repeat(written[5]!.length);
      // A child by the head's id: the full reader skips it, as its parent is not an entry.
      lines.splice(7, 0, JSON.stringify({ ...JSON.parse(lines[6]!), id: 'child', parentId: written[5] }));
      lines[6] = lines[6]!.replace(/\}$/, `,"id":"${other}"}`);
    });
    for (const from of ['root', 'context'] as const) {
      const reopened = createJsonlStore({ directory });
      const branch = await reopened.getBranch(id, undefined, { from });
      expect(branch.at(-1)?.id).toBe(other);
      expect(branch.map((entry) => entry.id).slice(0, -1)).toEqual(from === 'root' ? ids.slice(0, 5) : ids.slice(2, 5));
      expect(await reopened.getLeaf(id)).toBe(other);
      expect(reopened.getDiagnostics()).toEqual([
        expect.objectContaining({ line: 8, reason: expect.stringContaining('"child" names as parent') }),
      ]);
    }
  });

  it('reads a session in full when its first read needs every entry, as the indexed read finds it', async () => {
    const { id } = await editedSession((lines) => {
      const entry = JSON.parse(lines[2]!) as Record<string, unknown>;
      const { id: entryId, ...rest } = entry;
      lines[2] = JSON.stringify({ ...rest, id: entryId }); // hand-written: parsed whole by the index
      lines[3] = lines[3]!.replace('"content":"c"', '"content":7'); // damaged past its first fields
      lines[7] = '{"type":"message","id":"half"'; // torn
    });
    const indexed = createJsonlStore({ directory });
    await indexed.getBranch(id, undefined, { from: 'context' });
    const entries = await indexed.getEntries(id);
    const messages = await indexed.getMessages(id);
    expect(entries.map((entry) => entry.id)).toHaveLength(2);
    for (const first of ['getEntries', 'getMessages'] as const) {
      const fresh = createJsonlStore({ directory });
      if (first === 'getMessages') expect(await fresh.getMessages(id)).toEqual(messages);
      expect(await fresh.getEntries(id)).toEqual(entries);
      expect(await fresh.getMessages(id)).toEqual(messages);
      // The same lines reported, each once; in line order, as a full read finds them.
      const byLine = (warnings: JsonlStoreWarning[]) => [...warnings].sort((a, b) => a.line - b.line);
      expect(fresh.getDiagnostics()).toEqual(byLine(indexed.getDiagnostics()));
    }
  });

  it('reads a file an editor saved with a byte order mark and CRLF line ends', async () => {
    const { id, ids } = await editedSession((lines) => {
      lines[0] = `\uFEFF${lines[0]}`;
      for (let index = 0; index < lines.length - 1; index++) lines[index] = `${lines[index]}\r`;
    });
    const store = createJsonlStore({ directory });
    expect((await store.getBranch(id)).map((entry) => entry.id)).toEqual(ids);
    expect(await store.getLeaf(id)).toBe(ids.at(-1));
    expect((await createJsonlStore({ directory }).getEntries(id)).map((entry) => entry.id)).toEqual(ids);
    expect(store.getDiagnostics()).toEqual([]);
    const [listed] = await createJsonlStore({ directory }).listSessions();
    expect(listed?.id).toBe(id);
  });

  it('refuses an append that would pass maxSessionBytes, before the file grows', async () => {
    const store = createJsonlStore({ directory, maxSessionBytes: 600 });
    const { id } = await store.createSession({ id: 'capped' });
    await store.appendEntry(id, say('x'.repeat(100)));
    const before = (await stat(join(directory, 'capped.jsonl'))).size;
    const refused = await store.appendEntry(id, say('y'.repeat(500))).catch((caught: unknown) => caught);
    expect(StoreError.isInstance(refused)).toBe(true);
    expect(String((refused as Error).message)).toMatch(/over maxSessionBytes \(600\); nothing was appended/);
    expect((await stat(join(directory, 'capped.jsonl'))).size).toBe(before);
    expect(await createJsonlStore({ directory }).getEntries(id)).toHaveLength(1);
    expect(() => createJsonlStore({ directory, maxSessionBytes: 0 })).toThrow(ConfigError);
  });
});
