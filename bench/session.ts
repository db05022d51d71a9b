/**
 * A long tool-heavy session with the default settings and a small window, as a host runs it: the
 * prefix-stable share (the request of one call is a byte-identical prefix of the next one's, which
 * is what a provider's prompt cache needs), summarizer calls per 100 model calls, and how many
 * calls ran on the provider's usage rather than on estimates.
 */
import {
  type AssistantMessage,
  approximateCounter,
  type ContextConfigInput,
  createContextManager,
  type Message,
  sumMessageTokens,
} from '../src/index.js';
import { RealisticMix } from './histories.js';
import { countingSummarizer, SYSTEM_PROMPT } from './managers.js';

export interface SessionResult {
  label: string;
  modelCalls: number;
  prefixStable: number;
  summarizerCalls: Record<string, number>;
  usageBacked: number;
  compactions: number;
  archivedEvents: number;
}

/** The provider's own count of a request (a different counter from the manager's, as in real life). */
function providerCount(messages: readonly Message[]): number {
  return Math.round(sumMessageTokens(messages, approximateCounter) * 1.07) + 40;
}

/**
 * Runs `calls` model calls: each turn a user message, then tool steps until the model answers.
 * The model's reply carries usage, which the host also reports with `recordUsage`.
 */
export async function runSession(options: {
  label: string;
  calls: number;
  contextWindow: number;
  config?: ContextConfigInput;
}): Promise<SessionResult> {
  const summarizer = countingSummarizer();
  let compactions = 0;
  let archivedEvents = 0;
  const manager = createContextManager({
    summarizer,
    contextWindow: options.contextWindow,
    config: options.config ?? {},
    systemPrompt: SYSTEM_PROMPT,
    onEvent(event) {
      if (event.type === 'compaction-end' && event.error === undefined) compactions++;
      if (event.type === 'tool-results-summarized') archivedEvents++;
    },
  });
  const mix = new RealisticMix('unique', 11, 1);
  let history: Message[] = [mix.userMessage()];
  let previous: string[] | undefined;
  let prefixStable = 0;
  let usageBacked = 0;
  let stepsLeft = 0;
  for (let call = 0; call < options.calls; call++) {
    const prepared = await manager.prepare(history);
    const sent = prepared.messages.map((message) => JSON.stringify(message));
    if (previous !== undefined && isPrefix(previous, sent)) prefixStable++;
    if (prepared.usage.source !== 'estimate') usageBacked++;
    previous = sent;
    const input = providerCount(prepared.messages);
    const usage = { input, output: 60 };
    manager.recordUsage(usage);
    history = [...prepared.history];
    if (stepsLeft === 0) stepsLeft = 3 + (call % 9);
    stepsLeft--;
    if (stepsLeft > 0) {
      const [assistant, ...results] = mix.toolStep();
      history.push({ ...(assistant as AssistantMessage), usage }, ...results);
    } else {
      history.push({ ...mix.assistantText(), usage }, mix.userMessage());
    }
  }
  return {
    label: options.label,
    modelCalls: options.calls,
    prefixStable: prefixStable / (options.calls - 1),
    summarizerCalls: { ...summarizer.calls },
    usageBacked: usageBacked / options.calls,
    compactions,
    archivedEvents,
  };
}

function isPrefix(previous: readonly string[], next: readonly string[]): boolean {
  if (previous.length > next.length) return false;
  for (let index = 0; index < previous.length; index++) if (previous[index] !== next[index]) return false;
  return true;
}
