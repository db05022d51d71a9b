// One session of another domain's conversation, driven through the public API as a host would:
// every turn appended to a session store, every model call through `runWithOverflowRecovery`
// against a provider that refuses a request over the window or with a tool call parted from its
// result. What the session sent, compacted and stored is returned for the tests to check.
import {
  type AssistantMessage,
  type ContextEvent,
  createContextManager,
  createInMemorySessionStore,
  estimateMessageTokens,
  heuristicSummarizer,
  type Message,
  type ToolCall,
  type ToolResultMessage,
  type UserMessage,
} from 'ctxkit';
import { summaryText } from 'ctxkit/summarizing';
import { checkToolPairing, checkWellFormedText } from 'ctxkit/testing';
import { createTokenizerCounter } from 'ctxkit/tokenizer';

/** The provider's own count: OpenAI's o200k encoding, exact. */
const providerCounter = createTokenizerCounter();

/** One turn: what the user says, the tools the assistant runs (with their output), and its answer. */
export interface DomainTurn {
  user: UserMessage['content'];
  tools?: { name: string; arguments: Record<string, unknown>; output: string }[];
  answer: string;
}

export interface DomainSessionResult {
  /** Every request the provider received, in order. */
  requests: Message[][];
  /** Every message the host appended, in order. */
  appended: Message[];
  /** The message entries of the stored branch, in order. */
  stored: Message[];
  events: ContextEvent[];
  /** The checkpoint text of every compaction, in order. */
  checkpoints: string[];
  /** Problems of the invariants checked on every request (empty when all held). */
  problems: string[];
}

export interface DomainSessionOptions {
  contextWindow?: number;
  reserveTokens?: number;
}

/** The tokens of a request as the provider counts it (exactly, with o200k; the manager only estimates). */
export const requestTokens = (messages: readonly Message[]) =>
  messages.reduce((total, message) => total + estimateMessageTokens(message, providerCounter), 0);

/**
 * Runs `turns` through a manager with the heuristic summarizer and an in-memory session store,
 * checking every request: within the window, every tool call with exactly one result.
 */
export async function runDomainSession(
  turns: readonly DomainTurn[],
  { contextWindow = 3_000, reserveTokens = 500 }: DomainSessionOptions = {},
): Promise<DomainSessionResult> {
  const store = createInMemorySessionStore();
  const { id: sessionId } = await store.createSession();
  const events: ContextEvent[] = [];
  const manager = createContextManager({
    contextWindow,
    summarizer: heuristicSummarizer,
    store,
    sessionId,
    config: { reserveTokens },
    onEvent: (event) => events.push(event),
  });
  const requests: Message[][] = [];
  const appended: Message[] = [];
  const problems: string[] = [];
  let history: Message[] = [];
  const append = async (message: Message) => {
    appended.push(message);
    history.push(message);
    await store.appendEntry(sessionId, { type: 'message', message });
  };
  const provider = (reply: AssistantMessage) => async (messages: Message[]) => {
    const tokens = requestTokens(messages);
    if (tokens > contextWindow) throw new Error(`context_length_exceeded: ${tokens} tokens > ${contextWindow}`);
    requests.push([...messages]);
    for (const problem of checkToolPairing(messages)) problems.push(`request ${requests.length}: ${problem}`);
    return reply;
  };
  for (const [index, turn] of turns.entries()) {
    await append({ role: 'user', content: turn.user });
    const calls: ToolCall[] = (turn.tools ?? []).map((tool, position) => ({
      type: 'toolCall',
      id: `call_${index}_${position}`,
      name: tool.name,
      arguments: tool.arguments,
    }));
    if (calls.length > 0) {
      const step = await manager.runWithOverflowRecovery(
        history,
        provider({ role: 'assistant', content: calls, stopReason: 'toolUse' }),
      );
      history = [...step.history];
      await append(step.result);
      for (const [position, tool] of (turn.tools ?? []).entries()) {
        const result: ToolResultMessage = {
          role: 'toolResult',
          toolCallId: calls[position]!.id,
          toolName: tool.name,
          content: [{ type: 'text', text: tool.output }],
        };
        await append(result);
      }
    }
    const step = await manager.runWithOverflowRecovery(
      history,
      provider({ role: 'assistant', content: [{ type: 'text', text: turn.answer }], stopReason: 'stop' }),
    );
    history = [...step.history];
    await append(step.result);
  }
  const stored = (await store.getBranch(sessionId)).flatMap((entry) =>
    entry.type === 'message' ? [entry.message] : [],
  );
  const checkpoints = events.flatMap((event) =>
    event.type === 'compaction-end' && event.summary !== undefined ? [event.summary] : [],
  );
  for (const request of requests) {
    const summary = request.map((message) => summaryText(message)).find((text) => text !== undefined);
    if (summary !== undefined) for (const problem of checkWellFormedText(summary)) problems.push(problem);
  }
  return { requests, appended, stored, events, checkpoints, problems };
}

/** A sentence repeated to pad a message to about `tokens` tokens, as a long real message would be. */
export const padding = (sentence: string, tokens: number) =>
  ` ${sentence}`.repeat(Math.ceil((tokens * 4) / (sentence.length + 1)));
