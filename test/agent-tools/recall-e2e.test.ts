import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createContextTools } from '../../src/agent-tools/index.js';
import {
  type AssistantMessage,
  createContextManager,
  createInMemorySessionStore,
  heuristicSummarizer,
  type Message,
  type SessionStore,
} from '../../src/index.js';
import { assistantMessage, toolCallMessage, toolResultMessage, userMessage } from '../../src/testing/index.js';

// A scripted agent: step 0 reads a build log, steps 1–39 read the docs, then it must answer with
// the artifact's checksum, a plain line in the middle of the log that no summary has reason to keep.
// It reads only what it is sent, as a model does.
const DOCS = ['README.md', 'docs/context-manager.md', 'docs/architecture.md', 'docs/session-tree.md'].map((path) =>
  readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8'),
);
const CHECKSUM = 'sha256-5f1c0e9a7b2d4c3e8f6a1b0d9c8e7f6a';
const BUILD_LOG = Array.from({ length: 400 }, (_, line) =>
  line === 200 ? `artifact checksum ${CHECKSUM}` : `step ${line}: compiled module ${line} in ${(line * 7) % 90} ms`,
).join('\n');
const STEPS = 40;

function textOf(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => ('text' in part ? part.text : '')).join('\n');
}

/** The scripted model's next reply to what it was sent. */
function model(sent: readonly Message[], canRecall: boolean, step: number): AssistantMessage {
  if (step === 0) return toolCallMessage([{ id: 'c0', name: 'read', arguments: { path: 'build.log' } }]);
  if (step < STEPS) {
    const doc = DOCS[step % DOCS.length]!;
    const at = (step * 1500) % Math.max(1, doc.length - 1500);
    return toolCallMessage([
      { id: `c${step}`, name: 'read', arguments: { path: 'docs', at, text: doc.slice(at, at + 1500) } },
    ]);
  }
  const found = sent
    .map(textOf)
    .join('\n')
    .match(/artifact checksum (\S+)/);
  if (found) return assistantMessage(`The checksum is ${found[1]}.`);
  if (!canRecall) return assistantMessage('I cannot tell: the build log is no longer in my context.');
  // The result of the call that read the build log: the placeholder, sent under the call's id.
  const call = sent
    .flatMap((message) =>
      message.role === 'assistant' ? message.content.filter((part) => part.type === 'toolCall') : [],
    )
    .find((part) => part.arguments['path'] === 'build.log');
  const archived = sent.find((message) => message.role === 'toolResult' && message.toolCallId === call?.id);
  expect(archived?.meta?.kind).toBe('tool_result_archived');
  return toolCallMessage([{ id: 'r1', name: 'recall', arguments: { id: call!.id } }]);
}

function runTool(call: { id: string; arguments: Record<string, unknown> }): Message {
  const path = call.arguments['path'];
  return toolResultMessage(call.id, path === 'build.log' ? BUILD_LOG : String(call.arguments['text']), {
    toolName: 'read',
  });
}

async function runAgent(options: { canRecall: boolean; store: SessionStore }): Promise<string> {
  const session = await options.store.createSession();
  const manager = createContextManager({
    summarizer: heuristicSummarizer,
    contextWindow: 200_000,
    store: options.store,
    sessionId: session.id,
    // The reference tail: the ~21k-token session is never compacted, so the placeholder stays sent
    // (the cost-aware default tail of 5,508 tokens would compact it into the summary).
    config: { toolCallCutoff: 4, toolSummaryBatch: 8, toolSummaryStrategy: 'heuristic', keepRecentTokens: 20_000 },
  });
  const tools = createContextTools(manager, { store: options.store, sessionId: session.id });
  const record = async (messages: Message[]) => {
    for (const message of messages) await options.store.appendEntry(session.id, { type: 'message', message });
  };
  let history: Message[] = [userMessage('Read the build log, then the docs, then tell me the artifact checksum.')];
  await record(history);
  for (let step = 0; step <= STEPS + 1; step++) {
    const prepared = await manager.prepare(history);
    history = prepared.history;
    const reply = model(prepared.messages, options.canRecall, step);
    const results: Message[] = [];
    for (const part of reply.content) {
      if (part.type !== 'toolCall') continue;
      if (tools.handles(part.name)) {
        const answer = await tools.handle({ name: part.name, arguments: part.arguments }, history);
        results.push(toolResultMessage(part.id, answer!.content, { toolName: part.name, isError: answer!.isError }));
      } else results.push(runTool(part));
    }
    history = [...history, reply, ...results];
    await record([reply, ...results]);
    if (results.length === 0) return textOf(reply);
  }
  throw new Error('the agent did not finish');
}

describe('an agent that needs a fact archived 40 steps earlier', () => {
  it('cannot finish without recall, and finishes with it by the id of the archived result', async () => {
    expect(await runAgent({ canRecall: false, store: createInMemorySessionStore() })).toMatch(/cannot tell/);
    expect(await runAgent({ canRecall: true, store: createInMemorySessionStore() })).toBe(
      `The checksum is ${CHECKSUM}.`,
    );
  });
});
