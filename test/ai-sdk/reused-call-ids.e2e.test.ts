/**
 * A tool-call id reused across turns (local servers send `call_0` every turn) goes out renamed, and
 * the rename must be an id Anthropic accepts (`^[a-zA-Z0-9_-]+$`): `@ai-sdk/anthropic` passes ids
 * unchanged, so a rename such as `call_0#2` would be refused with a 400. The loopback server checks
 * the ids as the API does.
 */

import type { ModelMessage } from 'ai';
import { createContextManager, heuristicSummarizer, type Message, prepareModelMessages } from 'ctxkit';
import { ctxkitMiddleware, toModelMessages } from 'ctxkit/ai-sdk';
import { describe, expect, it } from 'vitest';
import { useLoopbackAnthropic } from '../harness/loopback.js';
import { majors } from './sdk-majors.js';

const MODEL = 'claude-sonnet-4-6';
const ANTHROPIC_ID = /^[a-zA-Z0-9_-]+$/;

const user = (content: string): Message => ({ role: 'user', content });
const call = (id: string): Message => ({
  role: 'assistant',
  content: [{ type: 'toolCall', id, name: 'read_log', arguments: { file: `${id}.log` } }],
  stopReason: 'toolUse',
});
const result = (id: string, text: string): Message => ({
  role: 'toolResult',
  toolCallId: id,
  toolName: 'read_log',
  content: [{ type: 'text', text }],
});

/** Three turns of a local model that numbers its calls from `call_0` in every turn. */
const history: Message[] = [
  user('Read the first log.'),
  call('call_0'),
  result('call_0', 'first: all passing'),
  user('Read the second log.'),
  call('call_0'),
  result('call_0', 'second: all passing'),
  user('And the third.'),
  call('call_0'),
  result('call_0', 'third: one failure'),
  user('Which one failed?'),
];

describe.each(majors)('reused tool-call ids through @ai-sdk/anthropic ($name)', (major) => {
  const { generateText, jsonSchema, tool, wrapLanguageModel } = major.ai;
  const tools = {
    read_log: tool({
      description: 'Reads a log file.',
      inputSchema: jsonSchema<{ file: string }>({
        type: 'object',
        properties: { file: { type: 'string' } },
        required: ['file'],
      }),
      execute: async ({ file }) => `${file}: ok`,
    }),
  };
  const loopback = useLoopbackAnthropic({ contextWindow: 30_000 });

  it('a history prepared by prepareModelMessages is accepted, with renamed ids the API takes', async () => {
    const server = loopback.server;
    const rejected = server.stats.rejected.length;
    const sent = prepareModelMessages(history);
    const ids = sent.flatMap((message) =>
      message.role === 'toolResult'
        ? [message.toolCallId]
        : message.role === 'assistant'
          ? message.content.flatMap((part) => (part.type === 'toolCall' ? [part.id] : []))
          : [],
    );
    const provider = major.createAnthropic({ apiKey: 'test-key', baseURL: `${server.url}/v1` });
    const { messages } = toModelMessages({ messages: sent });
    const answer = await generateText({ model: provider(MODEL), tools, messages: messages as ModelMessage[] });
    expect(server.stats.rejected.slice(rejected)).toEqual([]);
    expect(answer.toolCalls.length + answer.text.length).toBeGreaterThan(0);
    // Three calls, three distinct ids, each the same in its call and its result.
    expect(ids).toHaveLength(6);
    for (const id of ids) expect(id).toMatch(ANTHROPIC_ID);
    expect(new Set(ids).size).toBe(3);
    expect(ids[0]).toBe('call_0');
  });

  it('the same history through ctxkitMiddleware is accepted', async () => {
    const server = loopback.server;
    const rejected = server.stats.rejected.length;
    const provider = major.createAnthropic({ apiKey: 'test-key', baseURL: `${server.url}/v1` });
    const manager = createContextManager({ model: MODEL, contextWindow: 30_000, summarizer: heuristicSummarizer });
    const model = wrapLanguageModel({ model: provider(MODEL), middleware: ctxkitMiddleware(manager) });
    const { messages } = toModelMessages({ messages: history });
    const answer = await generateText({ model, tools, messages: messages as ModelMessage[] });
    expect(server.stats.rejected.slice(rejected)).toEqual([]);
    expect(answer.toolCalls.length + answer.text.length).toBeGreaterThan(0);
  });
});
