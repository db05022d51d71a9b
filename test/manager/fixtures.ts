/**
 * Builders and a manager factory shared by the context-manager tests. Under the reference counter
 * 4 characters cost 1 token, so `user(1_000)` is a 1,000-token message.
 */
import {
  type AssistantMessage,
  type ContextEvent,
  createContextManager,
  referenceCounter,
  type Summarizer,
} from '../../src/index.js';
import {
  assistantMessage,
  createScriptedSummarizer,
  type ScriptedSummarizer,
  toolCallMessage,
  toolResultMessage,
  userMessage,
} from '../../src/testing/index.js';

export const user = (tokens: number, label = 'u') => userMessage(label.repeat(tokens * 4));
export const answer = (text: string, usage?: AssistantMessage['usage']) => assistantMessage(text, { usage });
export const call = (id: string) => toolCallMessage([{ id, name: 'bash', arguments: { command: id } }]);
export const result = (id: string, text: string) => toolResultMessage(id, text, { toolName: 'bash' });

export function scripted(...outputs: (string | Error | { text: string; stopReason: string })[]): ScriptedSummarizer {
  return createScriptedSummarizer(outputs.slice(0, -1), { afterScript: outputs.at(-1) ?? 'SUMMARY' });
}

export const overflowError = () =>
  Object.assign(new Error('prompt is too long: 210000 tokens > 200000 maximum'), {
    status: 400,
    error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' },
  });

/** A window of 10,000 tokens with 2,000 reserved: compaction at 8,000, warning at 8,000 × … 80% of 10,000. */
export function manager(
  summarizer: Summarizer,
  events: ContextEvent[] = [],
  extra: Parameters<typeof createContextManager>[0] extends infer O ? Partial<O> : never = {},
) {
  return createContextManager({
    summarizer,
    contextWindow: 10_000,
    counter: referenceCounter,
    config: { reserveTokens: 2_000, keepRecentTokens: 2_000, toolSummaryStrategy: 'heuristic' },
    onEvent: (event) => events.push(event),
    ...extra,
  });
}
