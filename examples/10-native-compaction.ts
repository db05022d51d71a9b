/**
 * A conversation that moves between OpenAI (Responses) and Anthropic, each compacting natively on
 * its side, with ctxkit keeping the way back: each provider gets its own compaction payload, the
 * other gets the portable summary, and the session is recorded in a JSONL store. The lines marked
 * `// ctxkit` are the glue.
 *
 * Run: OPENAI_API_KEY=… ANTHROPIC_API_KEY=… node --import tsx examples/10-native-compaction.ts
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { createContextManager, heuristicSummarizer, type Message, type ModelTarget, nativeCompaction } from 'ctxkit';
import { anthropicCompactionParams, fromAnthropicMessage, toAnthropic } from 'ctxkit/anthropic';
import { createJsonlStore } from 'ctxkit/node';
import { fromOpenAIResponse, openaiCompactionParams, toOpenAIResponses } from 'ctxkit/openai';
import OpenAI from 'openai';

if (!process.env['OPENAI_API_KEY'] || !process.env['ANTHROPIC_API_KEY']) {
  console.log('Set OPENAI_API_KEY and ANTHROPIC_API_KEY to run this example.');
  process.exit(0);
}

const openai = new OpenAI();
const anthropic = new Anthropic();
const systemPrompt = 'You are a concise assistant.';
const store = createJsonlStore({ directory: mkdtempSync(join(tmpdir(), 'ctxkit-native-')) });
const { id: sessionId } = await store.createSession();
const manager = createContextManager({
  contextWindow: 200_000,
  summarizer: heuristicSummarizer,
  systemPrompt,
  store,
  sessionId,
  compaction: nativeCompaction('auto'), // ctxkit: native where the model has it, ctxkit's own compaction otherwise
});

const gpt: ModelTarget = { provider: 'openai', api: 'openai-responses', model: 'gpt-5' };
const claude: ModelTarget = { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-6' };

/** One model call to `target`, with its native compaction turned on below ctxkit's trigger. */
async function callModel(target: ModelTarget, messages: Message[]) {
  const native = manager.nativeCompaction(target); // ctxkit
  if (target.api === 'openai-responses') {
    const response = await openai.responses.create({
      model: target.model,
      input: toOpenAIResponses({ systemPrompt, messages }).items, // ctxkit
      ...(native ? openaiCompactionParams(native) : {}), // ctxkit
    });
    return fromOpenAIResponse(response).message; // ctxkit
  }
  const { system, messages: wire } = toAnthropic({ systemPrompt, messages }); // ctxkit
  const response = await anthropic.beta.messages.create({
    model: target.model,
    max_tokens: 1_024,
    system,
    messages: wire,
    ...(native ? anthropicCompactionParams(native) : {}), // ctxkit
  } as Anthropic.Beta.Messages.MessageCreateParamsNonStreaming);
  return fromAnthropicMessage(response as never).message; // ctxkit
}

let history: Message[] = [];
for (const [index, target] of [gpt, claude, gpt].entries()) {
  const user: Message = { role: 'user', content: `Question ${index + 1}: name one prime above ${index * 10}.` };
  history.push(user);
  await store.appendEntry(sessionId, { type: 'message', message: user });
  const { result, history: kept } = await manager.runWithOverflowRecovery(
    history,
    (messages) => callModel(target, messages),
    { target }, // ctxkit: the model of this call decides what is sent
  );
  history = [...kept, result];
  await store.appendEntry(sessionId, { type: 'message', message: result });
  for (const part of result.content) if (part.type === 'text') console.log(`${target.model}: ${part.text}`);
}
for (const native of manager.stats(history).nativeCompactions) {
  console.log(
    `native compaction by ${native.provider} ${native.model}: ${native.summary ?? '(opaque, not summarized)'}`,
  );
}
