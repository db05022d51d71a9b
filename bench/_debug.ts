import { ANTHROPIC, OPENAI, runScriptedSession, fact } from '../test/native/native-session.js';
import { resolveNativeCompactions } from 'ctxkit';
const legs = [
  { target: OPENAI, turns: 10 },
  { target: ANTHROPIC, turns: 4 },
  { target: OPENAI, turns: 4 },
  { target: OPENAI, turns: 4, rotateKey: true },
];
const outcome = await runScriptedSession({ compaction: (process.argv[2] ?? 'native') as never, contextWindow: 60_000, legs });
console.log(outcome.factsKept, outcome.facts);
for (const e of outcome.events) if (e.type === 'native-compaction' || e.type === 'compaction-end') console.log(e.type, (e as any).action ?? (e as any).reason, (e as any).compaction?.provider, (e as any).compaction?.summary?.length);
const readable = resolveNativeCompactions((await outcome.manager.prepare(outcome.history)).messages).messages;
console.log(JSON.stringify(readable[0]).slice(0, 6000));
for (let n = 1; n <= 22; n++) console.log(n, JSON.stringify(readable).includes(fact(n)));
const texts = JSON.stringify(readable.map((m) => m.content));
let k = 0; for (let n = 1; n <= 22; n++) if (texts.includes(fact(n))) k++;
console.log('in text', k, 'summary chars', String(readable[0].content).length);
console.log(String(readable[0].content).slice(-1500));
