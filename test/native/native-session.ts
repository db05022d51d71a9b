// One scripted coding session that moves between providers, driven through the real `openai` and
// `@anthropic-ai/sdk` clients against the loopback servers: the host loop any agent has, with
// ctxkit's manager in it. Used by the end-to-end test and by the native-compaction bench.

import Anthropic from '@anthropic-ai/sdk';
import {
  type AssistantMessage,
  approximateCounter,
  type ContextEvent,
  type ContextManager,
  createContextManager,
  createInMemorySessionStore,
  heuristicSummarizer,
  type Message,
  type ModelTarget,
  nativeCompaction,
  resolveNativeCompactions,
  type SessionStore,
  type Summarizer,
  type ToolCall,
} from 'ctxkit';
import { anthropicCompactionParams, fromAnthropicMessage, toAnthropic } from 'ctxkit/anthropic';
import { fromOpenAIResponse, openaiCompactionParams, readOpenAICompaction, toOpenAIResponses } from 'ctxkit/openai';
import OpenAI from 'openai';
import { type AnthropicServer, startAnthropicServer } from '../anthropic/loopback-anthropic-server.js';
import { type FakeOpenAI, startFakeOpenAI } from '../openai/fake-openai-server.js';

export const OPENAI: ModelTarget = { provider: 'openai', api: 'openai-responses', model: 'gpt-5' };
export const ANTHROPIC: ModelTarget = { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-6' };

const SYSTEM = 'You are a careful coding agent. Use the tools to read the logs and fix the parser.';
const OPENAI_TOOLS = [
  { type: 'function' as const, name: 'read_file', parameters: { type: 'object', properties: {} }, strict: false },
  { type: 'function' as const, name: 'run_tests', parameters: { type: 'object', properties: {} }, strict: false },
];
const ANTHROPIC_TOOLS = [{ name: 'read_log', input_schema: { type: 'object' as const, properties: {} } }];

/** A leg of the script: a provider for some user turns, optionally after rotating its key. */
export interface Leg {
  target: ModelTarget;
  turns: number;
  /** Rotate this provider's compaction key first: every payload it signed so far goes stale. */
  rotateKey?: boolean;
}

/** What one scripted run measured. */
export interface SessionOutcome {
  /** Model requests sent (the retried one after a refusal included). */
  requests: number;
  /** Prompt tokens the servers counted over every model request. */
  promptTokens: number;
  /** Summarizer calls ctxkit made (compaction and portable summaries). */
  summarizerCalls: number;
  /** ctxkit's estimate of the text those calls sent (what a model summarizer would be billed as input). */
  summarizerTokens: number;
  /** Compactions the providers ran natively. */
  nativeCompactions: number;
  /** Compactions ctxkit's client path ran. */
  clientCompactions: number;
  /** Payloads a provider refused (the scripted key rotation). */
  refused: number;
  /** Requests refused for breaking a rule. */
  rejected: number;
  /** User turns that ended with an answer. */
  answered: number;
  /** Turns that died (an error reached the host). */
  dead: number;
  /** Facts (one per user turn) readable in the final context by any model. */
  factsKept: number;
  facts: number;
  /**
   * Facts OpenAI's model read in the last request it answered (the loopback's view: what a
   * compaction item stands for is read as its summary), of those stated up to then.
   */
  factsReadByOpenAI: number;
  factsSentToOpenAI: number;
  events: ContextEvent[];
  manager: ContextManager;
  store: SessionStore;
  sessionId: string;
  history: Message[];
}

/** The user's fact of turn `n`: what the retention count looks for in the final context. */
export const fact = (n: number) => `FACT-${n}=${((n * 7919) % 100_000).toString(36)}`;

/** Tool output of a few thousand tokens, different per call. */
function toolOutput(seed: number): string {
  const lines: string[] = [];
  for (let line = 0; line < 120; line++) {
    lines.push(`not ok ${seed}.${line} - parser case ${line} # expected ${(seed + line) % 7} got ${(seed * line) % 5}`);
  }
  return lines.join('\n');
}

/** A summarizer that counts its calls. */
function counting(inner: Summarizer, calls: { count: number; tokens: number }): Summarizer {
  return {
    summarize(request) {
      calls.count++;
      calls.tokens += approximateCounter.count(request.text);
      return inner.summarize(request);
    },
  };
}

/** Starts both loopback servers with one window. */
export async function startServers(contextWindow: number): Promise<{
  openai: FakeOpenAI;
  anthropic: AnthropicServer;
  close(): Promise<void>;
}> {
  const openai = await startFakeOpenAI({ contextWindow, maxOutputTokens: 16_384 });
  const anthropic = await startAnthropicServer({ contextWindow, toolCallsPerTurn: 2 });
  return { openai, anthropic, close: async () => void (await Promise.all([openai.close(), anthropic.close()])) };
}

/** A script to run, and who compacts. */
export interface ScriptOptions {
  legs: Leg[];
  /** `'native'`: the manager gets `nativeCompaction('native')`. */
  compaction: 'client' | 'native';
  contextWindow: number;
  store?: SessionStore;
  /**
   * How OpenAI compacts natively: `'inline'` (`context_management` on each request) or
   * `'endpoint'` (the host calls `POST /responses/compact` once the context passes the manager's
   * native threshold, and appends `readOpenAICompaction`'s turn). @default 'inline'
   */
  openaiCompaction?: 'inline' | 'endpoint';
}

/**
 * Runs the script with the real clients: each user turn states a fact and asks for a fix; the model
 * calls tools until it answers. `compaction` picks who compacts.
 */
export async function runScriptedSession(options: ScriptOptions): Promise<SessionOutcome> {
  const servers = await startServers(options.contextWindow);
  try {
    return await drive(options, servers);
  } finally {
    await servers.close();
  }
}

async function drive(
  options: ScriptOptions,
  servers: Awaited<ReturnType<typeof startServers>>,
): Promise<SessionOutcome> {
  const endpoint = options.openaiCompaction === 'endpoint';
  const openai = new OpenAI({ apiKey: 'test', baseURL: servers.openai.baseURL, maxRetries: 0 });
  const anthropic = new Anthropic({ apiKey: 'test', baseURL: servers.anthropic.url, maxRetries: 0 });
  const store = options.store ?? createInMemorySessionStore();
  const { id: sessionId } = await store.createSession();
  const calls = { count: 0, tokens: 0 };
  const events: ContextEvent[] = [];
  const manager = createContextManager({
    contextWindow: options.contextWindow,
    summarizer: counting(heuristicSummarizer, calls),
    systemPrompt: SYSTEM,
    tools: OPENAI_TOOLS,
    store,
    sessionId,
    compaction: options.compaction === 'native' ? nativeCompaction('native') : 'client',
    // Compaction alone is measured: tool results are not batched behind summaries.
    config: { toolSummaryStrategy: 'off', reserveTokens: 4_096 },
    onEvent: (event) => events.push(event),
  });
  let history: Message[] = [];
  const add = async (message: Message) => {
    history.push(message);
    await store.appendEntry(sessionId, { type: 'message', message });
  };

  async function callModel(target: ModelTarget, messages: Message[]) {
    const native = manager.nativeCompaction(target);
    if (target.api === 'openai-responses') {
      const response = await openai.responses.create({
        model: target.model,
        input: toOpenAIResponses({ systemPrompt: SYSTEM, messages }).items,
        tools: OPENAI_TOOLS,
        store: false,
        ...(native && !endpoint ? openaiCompactionParams(native) : {}),
      });
      return fromOpenAIResponse(response);
    }
    const { system, messages: wire } = toAnthropic({ systemPrompt: SYSTEM, messages });
    const response = await anthropic.beta.messages.create({
      model: target.model,
      max_tokens: 2_048,
      system: system as never,
      tools: ANTHROPIC_TOOLS,
      messages: wire as never,
      ...(native ? (anthropicCompactionParams(native) as never) : {}),
    });
    return fromAnthropicMessage(response as never);
  }

  /** The host's standalone compaction: past the native threshold, `POST /responses/compact`. */
  async function compactByEndpoint(target: ModelTarget) {
    const native = manager.nativeCompaction(target);
    const prepared = await manager.prepare(history, { target });
    history = [...prepared.history];
    if (native === undefined || manager.stats(history).currentUsage <= native.threshold) return;
    const compacted = await openai.responses.compact({
      model: target.model,
      input: toOpenAIResponses({ systemPrompt: SYSTEM, messages: prepared.messages }).items as never,
    });
    await add(readOpenAICompaction(compacted, { model: target.model }));
    history = [...(await manager.prepare(history, { target })).history];
  }

  let turn = 0;
  let answered = 0;
  let dead = 0;
  let requests = 0;
  for (const leg of options.legs) {
    if (leg.rotateKey) {
      if (leg.target.provider === 'openai') servers.openai.native.rotateKey();
      else servers.anthropic.native.rotateKey();
    }
    for (let index = 0; index < leg.turns; index++) {
      turn++;
      await add({ role: 'user', content: `Turn ${turn}: note ${fact(turn)}, then fix the next failing parser case.` });
      try {
        for (let step = 0; step < 6; step++) {
          if (endpoint && leg.target.api === 'openai-responses') await compactByEndpoint(leg.target);
          const run = await manager.runWithOverflowRecovery(
            history,
            (messages) => {
              requests++;
              return callModel(leg.target, messages);
            },
            { target: leg.target },
          );
          if (run.result.usage) manager.recordUsage(run.result.usage);
          history = [...run.history];
          await add(run.result.message);
          const toolCalls = run.result.message.content.filter((part): part is ToolCall => part.type === 'toolCall');
          if (toolCalls.length === 0) {
            answered++;
            break;
          }
          for (const call of toolCalls) {
            await add({
              role: 'toolResult',
              toolCallId: call.id,
              toolName: call.name,
              content: [{ type: 'text', text: toolOutput(turn * 10 + requests) }],
            });
          }
        }
      } catch (error) {
        dead++;
        events.push({ type: 'compaction-end', error } as never);
      }
    }
  }
  // Counted before the check below, whose call without a target writes any portable summary still missing.
  const summarizerCalls = calls.count;
  const summarizerTokens = calls.tokens;
  const readable = resolveNativeCompactions((await manager.prepare(history)).messages).messages;
  // The text a model reads: contents only (a summary's anchors in its meta are never sent).
  const text = JSON.stringify(readable.map((message) => message.content));
  let factsKept = 0;
  for (let n = 1; n <= turn; n++) if (text.includes(fact(n))) factsKept++;
  // The turns up to the last one spent on OpenAI, and the facts of those its model read last.
  let openaiTurns = 0;
  let counted = 0;
  for (const leg of options.legs) {
    counted += leg.turns;
    if (leg.target.api === 'openai-responses') openaiTurns = counted;
  }
  const read = servers.openai.log.lastModelInput;
  let factsReadByOpenAI = 0;
  for (let n = 1; n <= openaiTurns; n++) if (read.includes(fact(n))) factsReadByOpenAI++;
  const promptTokens =
    servers.openai.log.requests.reduce((sum, request) => sum + (request.summary ? 0 : request.promptTokens), 0) +
    servers.anthropic.stats.promptTokens.reduce((sum, tokens) => sum + tokens, 0);
  return {
    requests,
    promptTokens,
    summarizerCalls,
    summarizerTokens,
    nativeCompactions: servers.openai.native.compactions + servers.anthropic.native.compactions,
    clientCompactions: events.filter(
      (event) => event.type === 'compaction-end' && event.error === undefined && event.reason !== undefined,
    ).length,
    refused: servers.openai.native.refused + servers.anthropic.native.refused,
    rejected: servers.openai.log.rejected.length + servers.anthropic.stats.rejected.length,
    answered,
    dead,
    factsKept,
    facts: turn,
    factsReadByOpenAI,
    factsSentToOpenAI: openaiTurns,
    events,
    manager,
    store,
    sessionId,
    history,
  };
}

export type { AssistantMessage };
