import { type ModelMessage, modelMessageSchema } from 'ai';
import { modelMessageSchema as modelMessageSchema6 } from 'ai-v6';
import { ContextError } from 'ctxkit';
import { createToolResultMessage } from 'ctxkit/ai-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnthropicServer, startAnthropicServer } from '../anthropic/loopback-anthropic-server.js';
import { majors } from './sdk-majors.js';

describe('createToolResultMessage', () => {
  it('writes text, JSON and errors in the tagged outputs both majors accept', () => {
    const message = createToolResultMessage([
      { toolCallId: 'a', toolName: 'read', output: 'a.ts' },
      { toolCallId: 'b', toolName: 'stat', output: { size: 12, files: ['a.ts'] } },
      { toolCallId: 'c', toolName: 'run', output: 'exit 1', isError: true },
      { toolCallId: 'd', toolName: 'run', output: new Error('timed out') },
      { toolCallId: 'e', toolName: 'noop', output: undefined },
    ]);
    expect(message).toEqual({
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'a', toolName: 'read', output: { type: 'text', value: 'a.ts' } },
        {
          type: 'tool-result',
          toolCallId: 'b',
          toolName: 'stat',
          output: { type: 'json', value: { size: 12, files: ['a.ts'] } },
        },
        { type: 'tool-result', toolCallId: 'c', toolName: 'run', output: { type: 'error-text', value: 'exit 1' } },
        { type: 'tool-result', toolCallId: 'd', toolName: 'run', output: { type: 'error-text', value: 'timed out' } },
        { type: 'tool-result', toolCallId: 'e', toolName: 'noop', output: { type: 'json', value: null } },
      ],
    });
    expect(modelMessageSchema.safeParse(message).success).toBe(true);
    expect(modelMessageSchema6.safeParse(message).success).toBe(true);
  });

  it('names the result that cannot be written', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    for (const [input, text] of [
      [[], 'at least one'],
      [{ toolCallId: '', toolName: 'x', output: 'y' }, 'results[0].toolCallId'],
      [
        [
          { toolCallId: 'a', toolName: 'x', output: 1 },
          { toolCallId: 'b', toolName: 'x', output: cyclic },
        ],
        'results[1].output',
      ],
    ] as const) {
      let caught: unknown;
      try {
        createToolResultMessage(input as never);
      } catch (error) {
        caught = error;
      }
      expect(ContextError.isInstance(caught)).toBe(true);
      expect((caught as ContextError).code).toBe('INPUT_INVALID');
      expect((caught as Error).message).toContain(text);
    }
  });
});

describe.each(majors)('createToolResultMessage in a host-run tool loop ($name)', (major) => {
  const { generateText, jsonSchema, tool } = major.ai;
  let server: AnthropicServer;
  beforeAll(async () => {
    server = await startAnthropicServer({ contextWindow: 100_000 });
  });
  afterAll(() => server.close());

  it('answers the calls of a step whose tools the host runs', async () => {
    const model = major.createAnthropic({ apiKey: 'test-key', baseURL: `${server.url}/v1` })('claude-sonnet-4-6');
    // No `execute`: the SDK stops at the calls and the host runs them.
    const tools = { read_log: tool({ inputSchema: jsonSchema<{ file: string }>({ type: 'object' }) }) };
    const messages: ModelMessage[] = [{ role: 'user', content: 'Check the logs.' }];
    for (let step = 0; step < 4; step++) {
      const result = await generateText({ model, tools, messages, maxRetries: 0 });
      messages.push(...major.responseMessages(result));
      if (result.toolCalls.length === 0) break;
      messages.push(
        createToolResultMessage(
          result.toolCalls.map((call) => ({
            toolCallId: call.toolCallId,
            toolName: call.toolName,
            output: `${(call.input as { file: string }).file}: 3 lines, all ok`,
          })),
        ),
      );
    }
    expect(messages.filter((message) => message.role === 'tool').length).toBeGreaterThan(0);
    expect(messages.at(-1)?.role).toBe('assistant');
    expect(server.stats.rejected).toEqual([]);
  });
});
