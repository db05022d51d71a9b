/**
 * Helpers shared by the manager tests that drive an agent session of tool steps through
 * `runWithOverflowRecovery`: the recorded tool output of `npm run corpus`, a session store that
 * remembers every message appended, and one tool step against a provider that rejects a request
 * over its window as a real one does.
 */
import { readFileSync } from 'node:fs';
import {
  type AssistantMessage,
  approximateCounter,
  type ContextManager,
  createInMemorySessionStore,
  type Message,
  sumMessageTokens,
} from 'ctxkit';
import { checkToolPairing } from 'ctxkit/testing';

/** A command and what it printed. */
export interface ToolOutput {
  command: string;
  text: string;
}

interface Corpus {
  entries: { name: string; command: string; output: string }[];
  texts: { name: string; text: string }[];
}

/** The recorded runs of `npm run corpus` (test/fixtures/tool-outputs/real), then its texts as `cat` runs. */
export function corpusOutputs(): ToolOutput[] {
  const corpus = JSON.parse(
    readFileSync(new URL('../fixtures/tool-outputs/real/corpus.json', import.meta.url), 'utf8'),
  ) as Corpus;
  return [
    ...corpus.entries.map((entry) => ({ command: entry.command, text: entry.output })),
    ...corpus.texts.map((text) => ({ command: `cat ${text.name}`, text: text.text })),
  ];
}

/** An in-memory session, with every message `add`ed to it kept in `appended` to check the store against. */
export async function recordingStore() {
  const store = createInMemorySessionStore();
  const { id: sessionId } = await store.createSession();
  const appended: Message[] = [];
  const add = async (...messages: Message[]) => {
    for (const message of messages) {
      appended.push(message);
      await store.appendEntry(sessionId, { type: 'message', message });
    }
  };
  const transcript = async () => (await store.getMessages(sessionId)).map((entry) => entry.message);
  return { store, sessionId, appended, add, transcript };
}

/** The provider of {@link toolStep}. */
export interface ScriptedProvider {
  /** Its context window: a request over it is rejected with a 400 "prompt is too long". */
  window: number;
  /** The manager's system prompt, counted with each request. */
  system: string;
  /** Receives the size of every request sent, accepted or not. */
  sent?: number[];
  /** Called with each request's size before the window is checked (an assertion, say). */
  check?: (tokens: number) => void;
}

/**
 * One agent step: `history` sent through `manager.runWithOverflowRecovery` to a provider that checks
 * every tool call has its result, counts the request as the manager's default counter does, and
 * answers with a call of `output.command`; the step's result is `output.text`.
 * @returns the history to send next, and the two messages the step added (the call and its result).
 */
export async function toolStep(
  manager: ContextManager,
  history: Message[],
  id: string,
  output: ToolOutput,
  provider: ScriptedProvider,
): Promise<{ history: Message[]; added: [AssistantMessage, Message] }> {
  const { result, history: kept } = await manager.runWithOverflowRecovery(history, async (messages) => {
    checkToolPairing(messages);
    const tokens = sumMessageTokens(messages, approximateCounter) + approximateCounter.count(provider.system);
    provider.sent?.push(tokens);
    provider.check?.(tokens);
    if (tokens > provider.window)
      throw Object.assign(new Error(`prompt is too long: ${tokens} tokens > ${provider.window} maximum`), {
        status: 400,
      });
    return {
      role: 'assistant',
      content: [{ type: 'toolCall', id, name: 'bash', arguments: { command: output.command } }],
      stopReason: 'toolUse',
      usage: { input: tokens, output: 20 },
    } satisfies AssistantMessage;
  });
  const answer: Message = {
    role: 'toolResult',
    toolCallId: id,
    toolName: 'bash',
    content: [{ type: 'text', text: output.text }],
  };
  return { history: [...kept, result, answer], added: [result, answer] };
}
