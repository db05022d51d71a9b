import { ANTHROPIC, OPENAI, runScriptedSession, fact } from '../test/native/native-session.js';
import { resolveNativeCompactions } from 'ctxkit';
const legs = [
  { target: OPENAI, turns: 8 }, { target: ANTHROPIC, turns: 3 }, { target: OPENAI, turns: 3 }, { target: OPENAI, turns: 4, rotateKey: true },
];
const outcome = await runScriptedSession({ compaction: 'native', openaiCompaction: 'endpoint', contextWindow: 60_000, legs });
for (const e of outcome.events) if (e.type === 'native-compaction') console.log(e.type, (e as any).action, (e as any).compaction?.provider, (e as any).compaction?.summary?.length);
const readable = resolveNativeCompactions((await outcome.manager.prepare(outcome.history)).messages).messages;
const texts = JSON.stringify(readable.map((m) => m.content));
for (let n = 1; n <= 18; n++) if (!texts.includes(fact(n))) console.log('lost', n, fact(n));
console.log(String(readable[0]!.content).slice(0, 3000));
console.log(readable.length, readable.map(m => m.role).join(','));
const users = (l: any[]) => l.filter((m) => m.role === 'user').map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)).slice(0, 40));
console.log('HISTORY', users(outcome.history));
console.log('READABLE', users(readable));
const entries = await outcome.store.getEntries(outcome.sessionId);
console.log(entries.map((e: any) => e.type === 'message' ? (e.message.role === 'user' ? 'U:' + String(e.message.content).slice(5, 8) : e.message.role[0]) : e.type === 'compaction' ? `C(${e.details?.reason},kept=${e.firstKeptEntryId})` : e.type).join(' '));
console.log(entries.filter((e: any) => e.type === 'compaction').map((e: any) => entries.findIndex((x: any) => x.id === e.firstKeptEntryId)));
