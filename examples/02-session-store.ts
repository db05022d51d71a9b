/**
 * A durable session: a coding-agent conversation is persisted in a JSONL session store, compacted
 * (the compaction is an entry in the tree; no history is deleted), continued, then reopened from
 * disk, and the context the model would see is rebuilt from the tree. Finally the session branches
 * back to an earlier entry with a summary of the abandoned work.
 *
 * Run: node --import tsx examples/02-session-store.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  approximateCounter,
  buildContextFromBranch,
  heuristicSummarizer,
  type Message,
  prepareModelMessages,
  resolveConfig,
  sumMessageTokens,
} from 'ctxkit';
import { createJsonlStore } from 'ctxkit/node';
import { branchSession, compactSession } from 'ctxkit/session';
import { createCodingSession } from './fixtures/coding-session.js';

const counter = approximateCounter;
const config = resolveConfig({ contextWindow: 64_000, reserveTokens: 8_000, keepRecentTokens: 6_000 });
const tokens = (messages: readonly Message[]) => sumMessageTokens(messages, counter).toLocaleString('en-US');

const directory = await mkdtemp(join(tmpdir(), 'ctxkit-sessions-'));
try {
  // 1. Persist a conversation: one entry per message, each appended durably (written and fsynced).
  const store = createJsonlStore({ directory, onWarning: (warning) => console.warn('skipped:', warning) });
  const session = await store.createSession({ name: 'Parser refactor', metadata: { cwd: '/project' } });
  await store.appendEntry(session.id, { type: 'model_change', provider: 'openai', modelId: 'gpt-4o' });
  for (const message of createCodingSession({ turns: 10 })) {
    await store.appendEntry(session.id, { type: 'message', message });
  }
  const before = buildContextFromBranch(await store.getBranch(session.id));
  console.log(`Stored ${before.messages.length} messages, ${tokens(before.messages)} tokens in the context.`);

  // 2. Compact the branch: the summary becomes a compaction entry, a child of the leaf.
  const { entry, context } = await compactSession({
    store,
    sessionId: session.id,
    summarizer: heuristicSummarizer,
    config,
    counter,
  });
  console.log(
    `Compacted: ${entry.tokensBefore.toLocaleString('en-US')} tokens before; the context is now the summary and ${context.messages.length - 1} kept messages (${tokens(context.messages)} tokens), from entry ${entry.firstKeptEntryId}.`,
  );
  await store.appendEntry(session.id, {
    type: 'message',
    message: { role: 'user', content: 'Now update the changelog.' },
  });
  await store.close();

  // 3. Reopen from disk and rebuild the context: summary, kept entries, and what came after.
  const reopened = createJsonlStore({ directory });
  const rebuilt = buildContextFromBranch(await reopened.getBranch(session.id));
  const transcript = await reopened.getMessages(session.id);
  console.log(
    `Reopened: the transcript still holds all ${transcript.length} messages; the model gets ${rebuilt.messages.length} (${tokens(rebuilt.messages)} tokens) on ${rebuilt.provider}/${rebuilt.model}.`,
  );
  console.log(
    `The first message sent:\n  ${String(rebuilt.messages[0]?.content)
      .split('\n')
      .filter((line) => line.trim())
      .slice(0, 3)
      .join('\n  ')}\n  …`,
  );
  const request = prepareModelMessages(rebuilt.messages);
  console.log(`prepareModelMessages: ${request.length} messages ready for the provider.`);

  // 4. Branch back to before the compaction, summarizing the abandoned branch.
  const toEntryId = before.entryIds[4]!;
  const branched = await branchSession({
    store: reopened,
    sessionId: session.id,
    toEntryId,
    summarizer: heuristicSummarizer,
  });
  const side = buildContextFromBranch(await reopened.getBranch(session.id));
  console.log(
    `Branched back to ${toEntryId}: ${branched.abandoned.length} entries left behind (still stored), the new branch has ${side.messages.length} messages ending with a ${side.messages.at(-1)?.meta?.kind}.`,
  );
  console.log(`Entries in the file: ${(await reopened.getEntries(session.id)).length}; none was deleted.`);
} finally {
  await rm(directory, { recursive: true, force: true });
}
