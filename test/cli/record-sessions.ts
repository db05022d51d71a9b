// Records the sessions the command-line tests read, through the public API only.
import { appendFileSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createContextManager, heuristicSummarizer, type Message, type SessionStore } from 'ctxkit';
import { createJsonlStore } from 'ctxkit/node';
import { createSqliteStore } from 'ctxkit/sqlite';
import { assistantMessage, toolCallMessage, toolResultMessage, userMessage } from 'ctxkit/testing';

/** An HTML payload that must never run in the report. */
export const XSS_PAYLOAD = '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">';

/** Terminal escapes (a window title, a color) that must never reach the terminal raw. */
export const TERMINAL_PAYLOAD = '\u001b]0;owned\u0007\u001b[31mred';

/** Unicode bidi controls that reorder what is displayed (a file name that reads as another). */
export const BIDI_PAYLOAD = 'invoice\u202Efdp.exe \u2066isolated\u2069 \u202Aembedded\u202C';

/** Text before a search hit that changes length under case folding ("İ" lowercases to two units). */
export const CASE_FOLD_PAYLOAD = 'İİİİ the parser again';

export interface RecordedSessions {
  directory: string;
  /** A few turns with tool calls, the XSS payload in one message. */
  plain: string;
  /** Compacted several times by the manager, with more tool results than the cutoff. */
  compacted: string;
  compactions: number;
  /** Two branches and labels. */
  branched: string;
  /** The plain session with a torn last line. */
  torn: string;
  /** A SQLite database with two sessions ("alpha" plain, "beta" compacted). */
  sqlite: string;
}

const MODEL = 'gpt-4o';

/** The system prompt the compacted session was recorded with (a replay with the recorded settings passes it). */
export const SYSTEM_PROMPT = 'You are a careful coding agent.';

function toolOutput(turn: number, call: number): string {
  const lines = [`src/parser.ts(${turn * 10 + call},5): error TS2345: Argument of type 'Token' is not assignable.`];
  for (let line = 0; line < 110; line++) {
    lines.push(`  at parseExpression (src/parser.ts:${line + turn}:${call}) while reading token ${line * 7 + turn}`);
  }
  return lines.join('\n');
}

async function append(store: SessionStore, sessionId: string, message: Message): Promise<void> {
  await store.appendEntry(sessionId, { type: 'message', message });
}

/** A few turns, each with one tool call; the second user message carries the XSS payload. */
async function recordPlain(store: SessionStore, sessionId: string): Promise<void> {
  for (let turn = 1; turn <= 3; turn++) {
    const text =
      turn === 2
        ? `Please look at this: ${XSS_PAYLOAD}`
        : turn === 3
          ? `Turn 3: fix the parser. ${TERMINAL_PAYLOAD} ${CASE_FOLD_PAYLOAD} ${BIDI_PAYLOAD}`
          : `Turn ${turn}: fix the parser.`;
    await append(store, sessionId, userMessage(text));
    await append(store, sessionId, {
      ...toolCallMessage([{ id: `call_${turn}`, name: 'typecheck', arguments: { turn } }]),
      usage: { input: 200 * turn, output: 20 },
      model: MODEL,
    });
    const error = `src/parser.ts(${turn},1): error TS1005: ';' expected.`;
    await append(store, sessionId, toolResultMessage(`call_${turn}`, error, { toolName: 'typecheck', isError: true }));
    // The last answer carries bidi controls: `inspect` prints it as the branch's last message.
    const answer = `Turn ${turn}: fixed one error.${turn === 3 ? ` ${BIDI_PAYLOAD}` : ''}`;
    await append(store, sessionId, { ...assistantMessage(answer), model: MODEL });
  }
}

/** A tool loop driven through the context manager, which compacts into the store several times. */
async function recordCompacted(store: SessionStore, sessionId: string): Promise<number> {
  let compactions = 0;
  const manager = createContextManager({
    contextWindow: 16_000,
    // Replay decides by the thresholds alone (a session does not record its prompt cache's timing).
    costAware: false,
    config: {
      reserveTokens: 3_000,
      keepRecentTokens: 2_000,
      toolSummaryStrategy: 'heuristic',
      toolCallCutoff: 4,
      toolSummaryBatch: 0,
    },
    summarizer: heuristicSummarizer,
    store,
    sessionId,
    systemPrompt: SYSTEM_PROMPT,
    onEvent: (event) => {
      if (event.type === 'compaction-end' && event.error === undefined && event.storeError === undefined) compactions++;
    },
  });
  let history: Message[] = [];
  for (let turn = 1; turn <= 20; turn++) {
    const user = userMessage(`Turn ${turn}: keep fixing the parser.`);
    history = [...history, user];
    await append(store, sessionId, user);
    for (let call = 1; call <= 3; call++) {
      const { history: kept } = await manager.prepare(history);
      const id = `t${turn}_${call}`;
      const assistant = { ...toolCallMessage([{ id, name: 'typecheck', arguments: { turn, call } }]), model: MODEL };
      const result = toolResultMessage(id, toolOutput(turn, call), { toolName: 'typecheck', isError: true });
      history = [...kept, assistant, result];
      await append(store, sessionId, assistant);
      await append(store, sessionId, result);
    }
    const { history: kept } = await manager.prepare(history);
    const answer = { ...assistantMessage(`Turn ${turn}: fixed three errors in parseExpression.`), model: MODEL };
    history = [...kept, answer];
    await append(store, sessionId, answer);
    ({ history } = await manager.afterTurn(history));
  }
  return compactions;
}

/** Two branches from the second turn, labels on both. */
async function recordBranched(store: SessionStore, sessionId: string): Promise<void> {
  await recordPlain(store, sessionId);
  const entries = await store.getEntries(sessionId);
  const forkPoint = entries[3]!.id;
  const firstLeaf = await store.getLeaf(sessionId);
  await store.appendEntry(sessionId, { type: 'label', targetId: firstLeaf!, label: 'first-attempt' });
  await store.setLeaf(sessionId, forkPoint);
  await append(store, sessionId, userMessage('Try another approach: rewrite the tokenizer.'));
  await append(store, sessionId, { ...assistantMessage('Rewrote the tokenizer.'), model: MODEL });
  await store.appendEntry(sessionId, { type: 'label', targetId: forkPoint, label: 'fork-point' });
}

/** Records every session under `directory`. */
export async function recordSessions(directory: string): Promise<RecordedSessions> {
  const jsonl = createJsonlStore({ directory });
  await jsonl.createSession({ id: 'plain', name: 'plain session' });
  await recordPlain(jsonl, 'plain');
  await jsonl.createSession({ id: 'compacted', name: 'compacted session' });
  const compactions = await recordCompacted(jsonl, 'compacted');
  await jsonl.createSession({ id: 'branched' });
  await recordBranched(jsonl, 'branched');
  await jsonl.close();

  const tornDirectory = join(directory, 'torn');
  const torn = join(tornDirectory, 'plain.jsonl');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(tornDirectory, { recursive: true });
  copyFileSync(join(directory, 'plain.jsonl'), torn);
  appendFileSync(torn, '{"type":"message","id":"cut","parentId":null,"timestamp":1,"message":{"role":"user","con');

  const sqlite = join(directory, 'sessions.db');
  const database = new Database(sqlite);
  const store = createSqliteStore({ database });
  await store.createSession({ id: 'alpha' });
  await recordPlain(store, 'alpha');
  // The compacted session again, entry by entry (ids, parents and timestamps kept).
  await store.createSession({ id: 'beta' });
  for (const entry of await createJsonlStore({ directory }).getEntries('compacted')) {
    await store.appendEntry('beta', entry);
  }
  database.close();

  return {
    directory,
    plain: join(directory, 'plain.jsonl'),
    compacted: join(directory, 'compacted.jsonl'),
    compactions,
    branched: join(directory, 'branched.jsonl'),
    torn,
    sqlite,
  };
}
