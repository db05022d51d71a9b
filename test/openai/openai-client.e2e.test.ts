// The real `openai` clients (7, and 6 under the `openai-v6` alias) against a loopback server that checks requests by OpenAI's rules: a
// 16-turn tool-using session through the context manager, with tool output of thousands of lines and
// a window small enough that compaction and overflow recovery both happen. No request may break a
// rule; every overflow must be recovered.

import { type AssistantMessage, type ContextEvent, createContextManager, type Message, type ToolCall } from 'ctxkit';
import {
  createOpenAISummarizer,
  createToolResultMessage,
  type OpenAISummarizerClient,
  readOpenAIChatCompletion,
  readOpenAIResponse,
  toOpenAIChat,
  toOpenAIResponses,
} from 'ctxkit/openai';
import OpenAI from 'openai';
import OpenAIv6 from 'openai-v6';
import { describe, expect, test } from 'vitest';
import { useLoopbackOpenAI } from '../harness/loopback.js';
import { codingOutputs } from '../harness/tool-outputs.js';

const WINDOW = 30_000;
/**
 * By its fifth turn the session is in its cycle (a threshold compaction every two or three turns, an
 * overflow recovered every four or five); 16 turns go round it three times, the checks below hold
 * them to it. The long sessions are the soak's (`npm run soak`).
 */
const TURNS = 16;
const model = 'gpt-4o';
const systemPrompt = 'You are a careful coding agent. Use the tools to inspect and fix the repository.';
const functions = [
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

/** Tool outputs of a hundred to thousands of lines (compiler errors, test runs), built once. */
const outputs = codingOutputs();
const toolOutput = (seed: number) => outputs[seed % outputs.length]!;

function managerFor(client: OpenAISummarizerClient, events: ContextEvent[], tools: unknown) {
  return createContextManager({
    model,
    contextWindow: WINDOW,
    summarizer: createOpenAISummarizer({ client, model: 'gpt-4o-mini' }),
    systemPrompt,
    tools,
    // The loopback counts half as much again as the estimate; uncalibrated, the manager does not
    // learn it, so requests overflow and the recovery this test exercises runs.
    calibrate: false,
    config: { reserveTokens: 2_500, keepRecentTokens: 16_000, toolOutput: { maxBytes: 12 * 1024, maxLines: 400 } },
    onEvent: (event) => events.push(event),
  });
}

/** Runs the session; `call` sends one model request and returns the assistant message. */
async function runSession(
  manager: ReturnType<typeof createContextManager>,
  call: (messages: Message[]) => Promise<AssistantMessage>,
): Promise<{ answers: number; recoveries: number }> {
  let history: Message[] = [];
  let answers = 0;
  let recoveries = 0;
  for (let turn = 1; turn <= TURNS; turn++) {
    history.push({ role: 'user', content: `Turn ${turn}: fix the next failing parser test.` });
    for (let step = 0; step < 6; step++) {
      const { result, history: kept, recovered } = await manager.runWithOverflowRecovery(history, call);
      if (recovered) recoveries++;
      history = [...kept, result];
      const calls = result.content.filter((part): part is ToolCall => part.type === 'toolCall');
      if (calls.length === 0) {
        answers++;
        break;
      }
      for (const toolCall of calls) {
        const output = toolOutput(turn * 3 + Number(toolCall.id.replace(/\D/g, '')));
        history.push(createToolResultMessage({ toolCallId: toolCall.id, toolName: toolCall.name, output }));
      }
    }
  }
  return { answers, recoveries };
}

/** Both majors: openai 7 is the current one, 6 the one before. They differ in types, not in use. */
const clients = [
  { major: 7, create: (baseURL: string) => new OpenAI({ apiKey: 'test', baseURL, maxRetries: 0 }) },
  {
    major: 6,
    create: (baseURL: string) =>
      // Typed as 7 here so one session body drives both; sdk-types-v6.test.ts checks 6's own types.
      new OpenAIv6({ apiKey: 'test', baseURL, maxRetries: 0 }) as unknown as OpenAI,
  },
];

describe.each(clients)('the openai $major client through ctxkit/openai', ({ create }) => {
  const loopback = useLoopbackOpenAI({ contextWindow: WINDOW, maxOutputTokens: 16_384 });

  test('Chat Completions: 16 tool-using turns, compaction and overflow recovery, no rejected request', async () => {
    const server = loopback.server;
    const client = create(server.baseURL);
    const tools = functions.map((fn) => ({ type: 'function' as const, function: fn }));
    const events: ContextEvent[] = [];
    const manager = managerFor(client, events, tools);
    const usageChecks: boolean[] = [];
    const { answers, recoveries } = await runSession(manager, async (messages) => {
      const completion = await client.chat.completions.create({
        model,
        tools,
        messages: toOpenAIChat({ systemPrompt, messages }).messages,
      });
      const message = readOpenAIChatCompletion(completion);
      // Cached tokens are inside prompt_tokens: ctxkit's input plus cache reads is the prompt, once.
      usageChecks.push(message.usage!.input + (message.usage!.cacheRead ?? 0) === completion.usage!.prompt_tokens);
      return message;
    });
    const chat = server.log.requests.filter((request) => request.endpoint === 'chat');
    expect(server.log.rejected).toEqual([]);
    expect(answers).toBe(TURNS);
    // Overflows recovered again after a recovery, summaries summarized again.
    expect(server.log.overflows).toBeGreaterThanOrEqual(3);
    expect(recoveries).toBe(server.log.overflows);
    expect(
      events.filter((event) => event.type === 'compaction-end' && event.reason === 'threshold' && !event.error).length,
    ).toBeGreaterThanOrEqual(3);
    expect(chat.filter((request) => request.summary).length).toBeGreaterThan(0);
    expect(usageChecks.every(Boolean)).toBe(true);
    expect(usageChecks.length).toBeGreaterThanOrEqual(TURNS * 2);
  });

  test('Responses with store: false: 16 turns with encrypted reasoning, no rejected request', async () => {
    const server = loopback.server;
    const client = create(server.baseURL);
    const tools = functions.map((fn) => ({ type: 'function' as const, strict: false, ...fn }));
    const events: ContextEvent[] = [];
    const manager = managerFor(client, events, tools);
    const before = server.log.requests.length;
    const { answers } = await runSession(manager, async (messages) => {
      const response = await client.responses.create({
        model,
        tools,
        instructions: systemPrompt,
        input: toOpenAIResponses({ messages }).items,
        store: false,
        include: ['reasoning.encrypted_content'],
      });
      return readOpenAIResponse(response);
    });
    expect(server.log.rejected).toEqual([]);
    expect(answers).toBe(TURNS);
    expect(server.log.requests.slice(before).some((request) => request.endpoint === 'responses')).toBe(true);
    expect(events.filter((event) => event.type === 'compaction-end' && !event.error).length).toBeGreaterThanOrEqual(3);
  });
});
