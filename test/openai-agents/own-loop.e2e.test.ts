// A host that runs its own loop with the real OpenAI Agents SDK: it keeps the conversation as the
// SDK's items (`result.history`), and before each run converts them with fromAgentItems, lets its
// context manager prepare them, and hands toAgentItems' items back to `run` — typed as the SDK's
// `AgentInputItem`, with no cast. The loopback OpenAI server checks every request by OpenAI's rules.
import { Agent, type AgentInputItem, OpenAIResponsesModel, run, setTracingDisabled, tool } from '@openai/agents';
import { type ContextEvent, createContextManager } from 'ctxkit';
import { createOpenAISummarizer } from 'ctxkit/openai';
import { fromAgentItems, toAgentItems } from 'ctxkit/openai-agents';
import OpenAI from 'openai';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { useLoopbackOpenAI } from '../harness/loopback.js';
import { scriptedToolOutputs } from '../harness/tool-outputs.js';

/** The server's window; the host's manager keeps its context to a third of it, so it compacts. */
const WINDOW = 60_000;
const TURNS = 8;

describe('fromAgentItems / toAgentItems in a host loop', () => {
  setTracingDisabled(true);
  const loopback = useLoopbackOpenAI({ contextWindow: WINDOW, maxOutputTokens: 16_384 });

  test('the prepared items go back to run() as AgentInputItem[], compacted, no rejected request', async () => {
    const server = loopback.server;
    const outputs = scriptedToolOutputs([80, 120, 100, 90]);
    const parameters = z.object({ path: z.string(), verbose: z.boolean().nullable() });
    const tools = ['read_file', 'run_tests'].map((name) =>
      tool({ name, description: name, parameters, execute: async ({ path }) => outputs.next(path) }),
    );
    const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
    const events: ContextEvent[] = [];
    const manager = createContextManager({
      model: 'gpt-4o',
      contextWindow: 16_000,
      summarizer: createOpenAISummarizer({ client, model: 'gpt-4o-mini' }),
      config: { reserveTokens: 2_000, keepRecentTokens: 6_000 },
      onEvent: (event) => events.push(event),
    });
    const agent = new Agent({
      name: 'coder',
      instructions: 'You are a careful coding agent.',
      model: new OpenAIResponsesModel(client, 'gpt-4o'),
      tools,
    });
    let history: AgentInputItem[] = [];
    for (let turn = 1; turn <= TURNS; turn++) {
      history.push({ role: 'user', content: `Turn ${turn}: fix the next failing parser test.` });
      const { messages } = fromAgentItems(history);
      const prepared = await manager.prepare(messages);
      const input: AgentInputItem[] = toAgentItems<AgentInputItem>(prepared.messages);
      const result = await run(agent, input, { maxTurns: 10 });
      expect(typeof result.finalOutput).toBe('string');
      // The host keeps its whole history: what was sent, then what the run added.
      history = [...history, ...result.history.slice(input.length)];
    }
    expect(server.log.rejected).toEqual([]);
    expect(events.some((event) => event.type === 'compaction-end' && !event.error)).toBe(true);
    expect(history.filter((item) => 'role' in item && item.role === 'user')).toHaveLength(TURNS);
  }, 120_000);
});
