// The soak: one long tool-using session per client family — the real `openai` client (Chat
// Completions and Responses), `@anthropic-ai/sdk`, and the `ai` SDK with and without ctxkit's
// middleware — against the loopback provider servers, behind a proxy that forces overflows (at a
// turn's first call, two turns in a row, and on the call right after a compaction), 500s and 429s.
// Tool outputs run from one line to 500,000 characters; assistant turns carry thinking with and
// without signatures (not through the AI SDK, whose thinking and approvals another change handles).
// A session is dead when anything escapes its loop.

import { createAnthropic } from '@ai-sdk/anthropic';
import Anthropic from '@anthropic-ai/sdk';
import { generateText, jsonSchema, type ModelMessage, stepCountIs, tool, wrapLanguageModel } from 'ai';
import {
  type AssistantMessage,
  type ContextEvent,
  type ContextManager,
  createContextManager,
  type Message,
  type ToolCall,
  type ToolResultMessage,
} from 'ctxkit';
import { createGenerateTextSummarizer, ctxkitMiddleware, fromGenerateTextResult, toModelMessages } from 'ctxkit/ai-sdk';
import { createAnthropicSummarizer, fromAnthropicMessage, toAnthropic } from 'ctxkit/anthropic';
import {
  createOpenAISummarizer,
  fromOpenAIChatCompletion,
  fromOpenAIResponse,
  toOpenAIChat,
  toOpenAIResponses,
} from 'ctxkit/openai';
import { checkToolPairing } from 'ctxkit/testing';
import OpenAI from 'openai';
import { startAnthropicServer } from '../anthropic/loopback-anthropic-server.js';
import { startFakeOpenAI } from '../openai/fake-openai-server.js';
import { type Fault, type FaultProxy, startFaultProxy } from './fault-proxy.js';

export type SoakFamily = 'openai-chat' | 'openai-responses' | 'anthropic' | 'ai-sdk-middleware' | 'ai-sdk-converters';

export const SOAK_FAMILIES: readonly SoakFamily[] = [
  'openai-chat',
  'openai-responses',
  'anthropic',
  'ai-sdk-middleware',
  'ai-sdk-converters',
];

/** What one session did. */
export interface SoakReport {
  family: SoakFamily;
  turns: number;
  /** Turns completed before the session ended. */
  completed: number;
  /** 1 when something escaped the loop (then `deadError` says what), else 0. */
  dead: number;
  deadError?: string;
  modelRequests: number;
  summarizerCalls: number;
  forced: Record<Fault, number>;
  /** Overflows the servers answered on their own (the prompt was over their window). */
  serverOverflows: number;
  /** Requests a server or the proxy refused for breaking a rule (the forced faults are not counted). */
  rejected: string[];
  /** Tool calls in the final history without a result. */
  unanswered: number;
  compactions: { threshold: number; overflow: number; failed: number };
  recoveries: number;
  rungs: Record<string, number>;
  toolCalls: number;
  largestToolOutput: number;
  seconds: number;
}

const WINDOW = 32_000;
const SYSTEM = 'You are a careful coding agent. Use the tools to read logs and fix the repository.';
const OPENAI_MODEL = 'gpt-4o';
const CLAUDE = 'claude-sonnet-4-6';

/** Tool output sizes, in characters: one line to 500,000 characters. */
const SIZES = [40, 600, 4_000, 30_000, 120_000, 500_000, 60, 12_000];
const bodies = new Map<number, string>();

/** A tool output of about `SIZES[seed % n]` characters, different for each call (its first line). */
function toolOutput(seed: number, name: string): string {
  const size = SIZES[seed % SIZES.length]!;
  let body = bodies.get(size);
  if (body === undefined) {
    const lines: string[] = [];
    let length = 0;
    for (let line = 0; length < size; line++) {
      const text =
        line % 3 === 0
          ? `src/module${line % 40}/file${line}.ts(${line % 300},5): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.`
          : `not ok ${line} - parser handles case ${line} # expected ${line % 7} got ${line % 5}`;
      lines.push(text);
      length += text.length + 1;
    }
    body = lines.join('\n').slice(0, Math.max(1, size - 1));
    bodies.set(size, body);
  }
  return `${name} #${seed}\n${body}`;
}

/**
 * Where faults go: a forced overflow at the first call of every ninth turn and of two turns in a
 * row every fifty, and on the call right after a threshold compaction; a 500 and a 429 every few
 * calls (the SDKs retry them). At most one overflow is forced per turn that has not recovered yet:
 * the manager recovers once per turn by design.
 */
class FaultSchedule {
  private calls = 0;
  private recovered = false;
  constructor(private readonly proxy: FaultProxy) {}

  private force(): void {
    if (!this.recovered && !this.proxy.queue.includes('overflow')) this.proxy.queue.push('overflow');
  }

  startTurn(turn: number): void {
    this.recovered = false;
    if (turn % 9 === 4 || turn % 50 === 20 || turn % 50 === 21) this.force();
  }

  beforeCall(): void {
    this.calls++;
    if (this.calls % 11 === 6) this.proxy.queue.push('500');
    if (this.calls % 17 === 10) this.proxy.queue.push('429');
  }

  onEvent(event: ContextEvent): void {
    if (event.type !== 'compaction-end') return;
    if (event.reason === 'overflow') this.recovered = true;
    else if (event.reason === 'threshold' && event.error === undefined) this.force();
  }
}

/** Counts of what the manager reported. */
class EventTally {
  compactions = { threshold: 0, overflow: 0, failed: 0 };
  recoveries = 0;
  rungs: Record<string, number> = {};

  take(event: ContextEvent): void {
    if (event.type !== 'compaction-end') return;
    if (event.error !== undefined) {
      this.compactions.failed++;
      return;
    }
    if (event.reason === 'overflow') {
      this.recoveries++;
      this.compactions.overflow++;
    } else if (event.reason === 'threshold') this.compactions.threshold++;
    for (const rung of event.rungs ?? []) this.rungs[rung.rung] = (this.rungs[rung.rung] ?? 0) + 1;
  }
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return `${error.name}${typeof code === 'string' ? ` ${code}` : ''}: ${error.message.slice(0, 400)}`;
  }
  return String(error).slice(0, 400);
}

/** Thinking on an assistant turn: signed on most turns, unsigned (as from another provider) on every third. */
function withThinking(message: AssistantMessage, turn: number, step: number): AssistantMessage {
  if (message.content.some((part) => part.type === 'thinking')) return message;
  const signed = turn % 3 !== 0;
  return {
    ...message,
    content: [
      {
        type: 'thinking',
        thinking: `Turn ${turn}, step ${step}: read the failing output before changing the parser.`,
        ...(signed ? { signature: `EqQBCkgIARABGAIiQL${turn}x${step}` } : {}),
      },
      ...message.content,
    ],
  };
}

interface Harness {
  manager: ContextManager;
  schedule: FaultSchedule;
  tally: EventTally;
}

function harness(proxy: FaultProxy, build: (onEvent: (event: ContextEvent) => void) => ContextManager): Harness {
  const schedule = new FaultSchedule(proxy);
  const tally = new EventTally();
  const manager = build((event) => {
    tally.take(event);
    schedule.onEvent(event);
  });
  return { manager, schedule, tally };
}

interface LoopOutcome {
  completed: number;
  dead: number;
  deadError?: string;
  unanswered: number;
  toolCalls: number;
  largest: number;
}

/** A host loop over ctxkit messages: one user message per turn, tool steps until the model answers. */
async function hostLoop(
  { manager, schedule }: Harness,
  turns: number,
  call: (messages: Message[]) => Promise<AssistantMessage>,
  thinking: boolean,
): Promise<LoopOutcome> {
  let history: Message[] = [];
  const outcome: LoopOutcome = { completed: 0, dead: 0, unanswered: 0, toolCalls: 0, largest: 0 };
  let seed = 0;
  try {
    for (let turn = 1; turn <= turns; turn++) {
      schedule.startTurn(turn);
      history.push({ role: 'user', content: `Turn ${turn}: fix the next failing parser test.` });
      for (let step = 0; step < 8; step++) {
        schedule.beforeCall();
        const run = await manager.runWithOverflowRecovery(history, call);
        const message = thinking ? withThinking(run.result, turn, step) : run.result;
        history = [...run.history, message];
        const calls = message.content.filter((part): part is ToolCall => part.type === 'toolCall');
        if (calls.length === 0) break;
        for (const toolCall of calls) {
          const text = toolOutput(seed++, toolCall.name);
          outcome.toolCalls++;
          outcome.largest = Math.max(outcome.largest, text.length);
          history.push({
            role: 'toolResult',
            toolCallId: toolCall.id,
            toolName: toolCall.name,
            content: [{ type: 'text', text }],
          } satisfies ToolResultMessage);
        }
      }
      outcome.completed = turn;
    }
  } catch (error) {
    outcome.dead = 1;
    outcome.deadError = describeError(error);
  }
  outcome.unanswered = checkToolPairing(history, { allowPendingTail: outcome.dead === 1 }).length;
  return outcome;
}

function report(
  family: SoakFamily,
  turns: number,
  started: number,
  loop: LoopOutcome,
  proxy: FaultProxy,
  tally: EventTally,
  server: { rejected: string[]; overflows: number },
): SoakReport {
  return {
    family,
    turns,
    completed: loop.completed,
    dead: loop.dead,
    ...(loop.deadError === undefined ? {} : { deadError: loop.deadError }),
    modelRequests: proxy.stats.modelRequests,
    summarizerCalls: proxy.stats.summaryRequests,
    forced: { ...proxy.stats.forced },
    serverOverflows: server.overflows,
    rejected: [...server.rejected, ...proxy.stats.rejected],
    unanswered: loop.unanswered,
    compactions: { ...tally.compactions },
    recoveries: tally.recoveries,
    rungs: { ...tally.rungs },
    toolCalls: loop.toolCalls,
    largestToolOutput: loop.largest,
    seconds: (performance.now() - started) / 1_000,
  };
}

const openAIFunctions = [
  {
    name: 'read_file',
    description: 'Read a file',
    parameters: { type: 'object', properties: { path: { type: 'string' } } },
  },
  {
    name: 'run_tests',
    description: 'Run the tests',
    parameters: { type: 'object', properties: { path: { type: 'string' } } },
  },
];

async function runOpenAI(family: 'openai-chat' | 'openai-responses', turns: number): Promise<SoakReport> {
  const started = performance.now();
  const server = await startFakeOpenAI({ contextWindow: WINDOW, maxOutputTokens: 16_384 });
  const proxy = await startFaultProxy({ target: new URL(server.baseURL).origin, dialect: 'openai', window: WINDOW });
  try {
    const client = new OpenAI({ apiKey: 'soak', baseURL: `${proxy.url}/v1`, maxRetries: 3 });
    const chatTools = openAIFunctions.map((fn) => ({ type: 'function' as const, function: fn }));
    const responseTools = openAIFunctions.map((fn) => ({ type: 'function' as const, strict: false, ...fn }));
    const tools = family === 'openai-chat' ? chatTools : responseTools;
    const parts = harness(proxy, (onEvent) =>
      createContextManager({
        model: OPENAI_MODEL,
        contextWindow: WINDOW,
        summarizer: createOpenAISummarizer({ client, model: 'gpt-4o-mini' }),
        systemPrompt: SYSTEM,
        tools,
        // The loopback server counts half as much again as ctxkit's estimate: a reserve of a third.
        config: { reserveTokens: 11_000, toolOutput: { maxBytes: 24 * 1024, maxLines: 400 } },
        onEvent,
      }),
    );
    const call =
      family === 'openai-chat'
        ? async (messages: Message[]) =>
            fromOpenAIChatCompletion(
              await client.chat.completions.create({
                model: OPENAI_MODEL,
                tools: chatTools,
                messages: toOpenAIChat({ systemPrompt: SYSTEM, messages }).messages,
              }),
            ).message
        : async (messages: Message[]) =>
            fromOpenAIResponse(
              await client.responses.create({
                model: OPENAI_MODEL,
                tools: responseTools,
                instructions: SYSTEM,
                input: toOpenAIResponses({ messages }).items,
                store: false,
                include: ['reasoning.encrypted_content'],
              }),
            ).message;
    const loop = await hostLoop(parts, turns, call, true);
    return report(family, turns, started, loop, proxy, parts.tally, {
      rejected: server.log.rejected.map((entry) => entry.error.message),
      overflows: server.log.overflows,
    });
  } finally {
    await proxy.close();
    await server.close();
  }
}

const anthropicTools = [
  {
    name: 'read_log',
    description: 'Reads a log file.',
    input_schema: { type: 'object' as const, properties: { file: { type: 'string' } } },
  },
];

async function runAnthropic(turns: number): Promise<SoakReport> {
  const started = performance.now();
  const server = await startAnthropicServer({ contextWindow: WINDOW });
  const proxy = await startFaultProxy({ target: server.url, dialect: 'anthropic', window: WINDOW });
  try {
    const client = new Anthropic({ apiKey: 'soak', baseURL: proxy.url, maxRetries: 3 });
    const parts = harness(proxy, (onEvent) =>
      createContextManager({
        model: CLAUDE,
        contextWindow: WINDOW,
        summarizer: createAnthropicSummarizer({ client, model: CLAUDE }),
        systemPrompt: SYSTEM,
        tools: anthropicTools,
        // The loopback server counts 30% above ctxkit's estimate, JSON framing on top: a reserve of
        // almost a third, so a request right after a compaction (estimated, no usage yet) fits.
        config: { reserveTokens: 10_000, toolOutput: { maxBytes: 24 * 1024, maxLines: 400 } },
        onEvent,
      }),
    );
    const loop = await hostLoop(
      parts,
      turns,
      async (messages) => {
        const { system, messages: wire } = toAnthropic({ systemPrompt: SYSTEM, messages });
        const result = fromAnthropicMessage(
          await client.messages.create({
            model: CLAUDE,
            max_tokens: 1_024,
            system,
            tools: anthropicTools,
            messages: wire,
          }),
        );
        parts.manager.recordUsage(result.usage);
        return result.message;
      },
      true,
    );
    return report('anthropic', turns, started, loop, proxy, parts.tally, server.stats);
  } finally {
    await proxy.close();
    await server.close();
  }
}

const logSchema = jsonSchema<{ file: string }>({
  type: 'object',
  properties: { file: { type: 'string' } },
  required: ['file'],
});

async function runAISDK(family: 'ai-sdk-middleware' | 'ai-sdk-converters', turns: number): Promise<SoakReport> {
  const started = performance.now();
  const server = await startAnthropicServer({ contextWindow: WINDOW });
  const proxy = await startFaultProxy({ target: server.url, dialect: 'anthropic', window: WINDOW });
  try {
    const provider = createAnthropic({ apiKey: 'soak', baseURL: `${proxy.url}/v1` });
    const parts = harness(proxy, (onEvent) =>
      createContextManager({
        model: CLAUDE,
        contextWindow: WINDOW,
        summarizer: createGenerateTextSummarizer({ generateText, model: provider(CLAUDE) }),
        systemPrompt: SYSTEM,
        tools: anthropicTools,
        config: { reserveTokens: 10_000, toolOutput: { maxBytes: 24 * 1024, maxLines: 400 } },
        onEvent,
      }),
    );
    let seed = 0;
    let toolCalls = 0;
    let largest = 0;
    const run = (file: string) => {
      const text = toolOutput(seed++, `read_log ${file}`);
      toolCalls++;
      largest = Math.max(largest, text.length);
      return text;
    };
    let loop: LoopOutcome;
    if (family === 'ai-sdk-middleware') {
      const model = wrapLanguageModel({ model: provider(CLAUDE), middleware: ctxkitMiddleware(parts.manager) });
      const tools = {
        read_log: tool({
          description: 'Reads a log file.',
          inputSchema: logSchema,
          execute: async ({ file }) => run(file),
        }),
      };
      const messages: ModelMessage[] = [];
      loop = { completed: 0, dead: 0, unanswered: 0, toolCalls: 0, largest: 0 };
      try {
        for (let turn = 1; turn <= turns; turn++) {
          parts.schedule.startTurn(turn);
          parts.schedule.beforeCall();
          messages.push({ role: 'user', content: `Check the logs of batch ${turn}.` });
          const result = await generateText({
            model,
            system: SYSTEM,
            tools,
            messages,
            stopWhen: stepCountIs(8),
            maxRetries: 3,
          });
          // `ai` 7 keeps every step's messages in `responseMessages`; `response.messages` is the last step's.
          messages.push(...result.responseMessages);
          loop.completed = turn;
        }
      } catch (error) {
        loop.dead = 1;
        loop.deadError = describeError(error);
      }
      loop.unanswered = unansweredModelCalls(messages);
    } else {
      const tools = { read_log: tool({ description: 'Reads a log file.', inputSchema: logSchema }) };
      loop = await hostLoop(
        parts,
        turns,
        async (messages) => {
          const result = await generateText({
            model: provider(CLAUDE),
            system: SYSTEM,
            tools,
            messages: toModelMessages({ messages }).messages as ModelMessage[],
            maxRetries: 3,
          });
          const converted = fromGenerateTextResult(result);
          if (converted.usage !== undefined) parts.manager.recordUsage(converted.usage);
          return converted.message;
        },
        false,
      );
    }
    loop.toolCalls = toolCalls || loop.toolCalls;
    loop.largest = Math.max(largest, loop.largest);
    return report(family, turns, started, loop, proxy, parts.tally, server.stats);
  } finally {
    await proxy.close();
    await server.close();
  }
}

/** Tool calls in AI SDK messages with no tool result after them. */
function unansweredModelCalls(messages: readonly ModelMessage[]): number {
  const calls = new Set<string>();
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content as { type: string; toolCallId?: string }[]) {
      if (part.type === 'tool-call' && part.toolCallId !== undefined) calls.add(part.toolCallId);
      if (part.type === 'tool-result' && part.toolCallId !== undefined) calls.delete(part.toolCallId);
    }
  }
  return calls.size;
}

/**
 * Runs one soak session of `turns` turns for a client family.
 *
 * @param family - The client family.
 * @param turns - User turns in the session (each has tool steps until the model answers).
 * @returns What the session did.
 */
export function runSoak(family: SoakFamily, turns: number): Promise<SoakReport> {
  switch (family) {
    case 'openai-chat':
    case 'openai-responses':
      return runOpenAI(family, turns);
    case 'anthropic':
      return runAnthropic(turns);
    case 'ai-sdk-middleware':
    case 'ai-sdk-converters':
      return runAISDK(family, turns);
  }
}
