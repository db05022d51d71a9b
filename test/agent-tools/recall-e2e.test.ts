import { describe, expect, it } from 'vitest';
import { createContextTools, recallIdOf } from '../../src/agent-tools/index.js';
import {
  type AssistantMessage,
  type ContextConfigInput,
  createContextManager,
  createInMemorySessionStore,
  heuristicSummarizer,
  type Message,
  type SessionStore,
} from '../../src/index.js';
import { assistantMessage, toolCallMessage, toolResultMessage, userMessage } from '../../src/testing/index.js';
import { BUILD_LOG, CHECKSUM, DOCS, STEPS } from './recall-script.js';

// A scripted agent: step 0 reads a build log, steps 1–39 read the docs, then it must answer with
// the artifact's checksum, a plain line in the middle of the log that no summary has reason to keep.
// It reads only what it is sent, as a model does.

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
  // The id of the build log's result: in its placeholder while the result is still sent, else in
  // the line the checkpoint keeps for it once a compaction folded the placeholder away.
  const call = sent
    .flatMap((message) =>
      message.role === 'assistant' ? message.content.filter((part) => part.type === 'toolCall') : [],
    )
    .find((part) => part.arguments['path'] === 'build.log');
  const placeholder = sent.find((message) => message.role === 'toolResult' && message.toolCallId === call?.id);
  const id = placeholder
    ? /^\[archived (r[0-9a-z]{8}):/.exec(textOf(placeholder))?.[1]
    : /^.*\b(r[0-9a-z]{8})\b.*build\.log.*$/m.exec(sent.map(textOf).join('\n'))?.[1];
  if (!id) return assistantMessage('I cannot find the build log: neither its result nor its recall id is sent.');
  return toolCallMessage([{ id: 'r1', name: 'recall', arguments: { id } }]);
}

function runTool(call: { id: string; arguments: Record<string, unknown> }): Message {
  const path = call.arguments['path'];
  return toolResultMessage(call.id, path === 'build.log' ? BUILD_LOG : String(call.arguments['text']), {
    toolName: 'read',
  });
}

interface Run {
  answer: string;
  /** The ids the model passed to `recall`. */
  recalled: string[];
  /** Whether the last request sent began with a compaction summary. */
  compacted: boolean;
}

async function runAgent(options: {
  canRecall: boolean;
  store: SessionStore;
  config?: ContextConfigInput;
}): Promise<Run> {
  const session = await options.store.createSession();
  const manager = createContextManager({
    summarizer: heuristicSummarizer,
    contextWindow: 200_000,
    store: options.store,
    sessionId: session.id,
    config: { toolCallCutoff: 4, toolSummaryBatch: 8, toolSummaryStrategy: 'heuristic', ...options.config },
  });
  const tools = createContextTools(manager, { store: options.store, sessionId: session.id });
  const record = async (messages: Message[]) => {
    for (const message of messages) await options.store.appendEntry(session.id, { type: 'message', message });
  };
  const recalled: string[] = [];
  let compacted = false;
  let history: Message[] = [userMessage('Read the build log, then the docs, then tell me the artifact checksum.')];
  await record(history);
  for (let step = 0; step <= STEPS + 1; step++) {
    const prepared = await manager.prepare(history);
    history = prepared.history;
    compacted = prepared.messages[0]?.meta?.kind === 'compaction_summary';
    const reply = model(prepared.messages, options.canRecall, step);
    const results: Message[] = [];
    for (const part of reply.content) {
      if (part.type !== 'toolCall') continue;
      if (tools.handles(part.name)) {
        recalled.push(String(part.arguments['id']));
        const answer = await tools.handle({ name: part.name, arguments: part.arguments }, history);
        results.push(toolResultMessage(part.id, answer!.content, { toolName: part.name, isError: answer!.isError }));
      } else results.push(runTool(part));
    }
    history = [...history, reply, ...results];
    await record([reply, ...results]);
    if (results.length === 0) return { answer: textOf(reply), recalled, compacted };
  }
  throw new Error('the agent did not finish');
}

describe('an agent that needs a fact archived 40 steps earlier', () => {
  it('cannot finish without recall, and finishes with it by the id of the archived result', async () => {
    // The reference tail: the ~21k-token session is never compacted, so the placeholder stays sent.
    const config = { keepRecentTokens: 20_000 };
    const without = await runAgent({ canRecall: false, store: createInMemorySessionStore(), config });
    expect(without.answer).toMatch(/cannot tell/);
    const run = await runAgent({ canRecall: true, store: createInMemorySessionStore(), config });
    expect(run).toEqual({ answer: `The checksum is ${CHECKSUM}.`, recalled: [recallIdOf('c0')], compacted: false });
  });

  it('finishes by the recall id the checkpoint keeps once the default policy compacted the placeholder away', async () => {
    // The cost-aware default tail (~5.5k tokens here) compacts the session: the build log's
    // placeholder is folded into the checkpoint, which names its recall id on a pinned line.
    const without = await runAgent({ canRecall: false, store: createInMemorySessionStore() });
    expect(without.compacted).toBe(true);
    expect(without.answer).toMatch(/cannot tell/);
    const run = await runAgent({ canRecall: true, store: createInMemorySessionStore() });
    expect(run).toEqual({ answer: `The checksum is ${CHECKSUM}.`, recalled: [recallIdOf('c0')], compacted: true });
  });
});
