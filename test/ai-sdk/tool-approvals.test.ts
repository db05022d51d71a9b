import { fc, test } from '@fast-check/vitest';
import type { ModelMessage } from 'ai';
import {
  buildContextFromBranch,
  createContextManager,
  heuristicSummarizer,
  type Message,
  prepareModelMessages,
  type SessionEntry,
  splitByTokenBudget,
} from 'ctxkit';
import { ctxkitMiddleware, fromModelMessages, toModelMessages } from 'ctxkit/ai-sdk';
import { checkSplitKeepsToolPairs, checkToolPairing } from 'ctxkit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnthropicServer, startAnthropicServer } from '../anthropic/loopback-anthropic-server.js';
import { majors } from './sdk-majors.js';

// AI SDK tool approvals: a call with a `tool-approval-request` answered by a `tool-approval-response`
// and no result yet waits for the SDK to run it. ctxkit must not answer it with a synthetic result
// (the SDK would then never run the approved tool), and must keep the approval with its call.

const call = (id: string, file = `${id}.log`) => ({
  type: 'tool-call' as const,
  toolCallId: id,
  toolName: 'read_log',
  input: { file },
});
const request = (id: string) => ({ type: 'tool-approval-request' as const, approvalId: `ap-${id}`, toolCallId: id });
const response = (id: string, approved = true) => ({
  role: 'tool' as const,
  content: [{ type: 'tool-approval-response' as const, approvalId: `ap-${id}`, approved }],
});
const result = (id: string, value = `${id}: ok`) => ({
  role: 'tool' as const,
  content: [
    { type: 'tool-result' as const, toolCallId: id, toolName: 'read_log', output: { type: 'text' as const, value } },
  ],
});

/** An approval awaiting its run at the end; `x` needed approval, `y` did not and has run. */
const awaiting: ModelMessage[] = [
  { role: 'user', content: 'Read both logs.' },
  { role: 'assistant', content: [call('x'), call('y'), request('x')] },
  result('y'),
  response('x'),
];

const toolResults = (messages: readonly Message[]) =>
  messages.filter((message) => message.role === 'toolResult').map((message) => message.toolCallId);

describe('tool approvals in the projection', () => {
  it('prepareModelMessages sends an approved call with no result open, for the SDK to run', () => {
    const sent = prepareModelMessages(fromModelMessages(awaiting).messages);
    expect(toolResults(sent)).toEqual(['y']);
    expect(checkToolPairing(sent, { allowPendingTail: true })).toEqual([]);
    const { messages } = toModelMessages({ messages: sent });
    // Written back as it came: the last message holds the approval response the SDK looks for.
    expect(messages.slice(-2)).toEqual([result('y'), response('x')]);
  });

  it('a denied approval is the SDK’s to answer too', () => {
    const denied = [...awaiting.slice(0, -1), response('x', false)];
    expect(toolResults(prepareModelMessages(fromModelMessages(denied).messages))).toEqual(['y']);
  });

  it('an approval request nobody answered, or a call left behind by a new user message, is a dead call', () => {
    const unanswered = awaiting.slice(0, -1);
    expect(toolResults(prepareModelMessages(fromModelMessages(unanswered).messages))).toEqual(['x', 'y']);
    const abandoned: ModelMessage[] = [...awaiting, { role: 'user', content: 'Never mind.' }];
    const sent = prepareModelMessages(fromModelMessages(abandoned).messages);
    expect(toolResults(sent)).toEqual(['x', 'y']);
    expect(sent.find((message) => message.role === 'toolResult' && message.toolCallId === 'x')).toMatchObject({
      isError: true,
    });
  });

  it('manager.prepare leaves the approved call open as well, and closes it once its result arrives', async () => {
    const manager = createContextManager({ contextWindow: 100_000, summarizer: heuristicSummarizer });
    const history = fromModelMessages(awaiting).messages;
    expect(toolResults((await manager.prepare(history)).messages)).toEqual(['y']);
    const ran = fromModelMessages([result('x')]).messages;
    const after = await manager.prepare([...history, ...ran]);
    expect(toolResults(after.messages)).toEqual(['x', 'y']);
    expect(checkToolPairing(after.messages)).toEqual([]);
  });
});

describe('tool approvals stay with their calls', () => {
  /** Eight turns, each with an approved call that ran, then a call awaiting its run. */
  const history = (): Message[] => {
    const turns: ModelMessage[] = [];
    for (let turn = 0; turn < 8; turn++) {
      const id = `c${turn}`;
      turns.push(
        { role: 'user', content: `Read log ${turn}.` },
        { role: 'assistant', content: [call(id), request(id)] },
        response(id),
        result(id, `${id}: ${'line\n'.repeat(40 * (turn + 1))}`),
        { role: 'assistant', content: `Log ${turn} is fine.` },
      );
    }
    turns.push(
      { role: 'user', content: 'And the last one.' },
      { role: 'assistant', content: [call('z'), request('z')] },
    );
    turns.push(response('z'));
    return fromModelMessages(turns).messages;
  };

  it('no split parts an approval response from its request and call', () => {
    const messages = history();
    for (let budget = 0; budget <= 4_000; budget += 25) {
      const { old, recent } = splitByTokenBudget(messages, { budget });
      const requested = new Set(
        old.flatMap((message) =>
          message.role === 'assistant'
            ? message.content.flatMap((part) => {
                const wire = (part.providerData?.['ai-sdk'] as { part?: { approvalId?: string } } | undefined)?.part;
                return wire?.approvalId === undefined ? [] : [wire.approvalId];
              })
            : [],
        ),
      );
      const answeredInRecent = recent.flatMap((message) =>
        message.role === 'user' && Array.isArray(message.content)
          ? message.content.flatMap((part) => {
              const wire = (part.providerData?.['ai-sdk'] as { part?: { approvalId?: string } } | undefined)?.part;
              return wire?.approvalId === undefined ? [] : [wire.approvalId];
            })
          : [],
      );
      expect(answeredInRecent.filter((id) => requested.has(id))).toEqual([]);
      expect(checkSplitKeepsToolPairs(old, recent)).toEqual([]);
    }
  });

  it('compaction keeps the awaited approval with its call, and the SDK still finds it', async () => {
    const manager = createContextManager({
      contextWindow: 2_000,
      summarizer: heuristicSummarizer,
      config: { reserveTokens: 200, keepRecentTokens: 400 },
    });
    const prepared = await manager.prepare(history());
    expect(prepared.compacted).toBeDefined();
    const { messages } = toModelMessages({ messages: prepared.messages });
    const last = messages.at(-1)!;
    expect(last).toEqual({
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: 'ap-z', approved: true }],
    });
    expect(messages.at(-2)).toMatchObject({ role: 'assistant', content: [call('z'), request('z')] });
  });

  it('session filters never keep an approval whose call they removed', () => {
    const messages = history();
    const entries: SessionEntry[] = messages.map((message, index) => ({
      type: 'message',
      id: `e${index}`,
      parentId: index === 0 ? null : `e${index - 1}`,
      timestamp: index,
      message,
    }));
    const approvalParts = (list: readonly Message[]) =>
      list.flatMap((message) =>
        typeof message.content === 'string'
          ? []
          : message.content.flatMap((part) => {
              const wire = (part.providerData?.['ai-sdk'] as { part?: { type?: string } } | undefined)?.part;
              return wire?.type?.startsWith('tool-approval') ? [wire.type] : [];
            }),
      );
    const strict = buildContextFromBranch(entries, { modelFacing: 'user-assistant' }).messages;
    expect(approvalParts(strict)).toEqual([]);
    expect(toModelMessages({ messages: strict }).messages.some((message) => message.role === 'tool')).toBe(false);
    // A filter that drops every tool result: the calls go, and their approvals with them; the
    // awaited call at the end stays a pending turn, with its approval.
    const noResults = buildContextFromBranch(entries, { modelFacing: (message) => message.role !== 'toolResult' });
    expect(approvalParts(noResults.messages)).toEqual(['tool-approval-request', 'tool-approval-response']);
    expect(checkToolPairing(prepareModelMessages(noResults.messages), { allowPendingTail: true })).toEqual([]);
  });
});

describe.each(majors)('tool approvals with the real AI SDK ($name)', (major) => {
  const { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } = major.ai;
  let server: AnthropicServer;
  beforeAll(async () => {
    server = await startAnthropicServer({ contextWindow: 50_000, toolCallsPerTurn: 1 });
  });
  afterAll(() => server.close());

  /** One approval round: the SDK stops at the approval request; the host approves and goes on. */
  async function approveAndRun(send: (messages: ModelMessage[]) => Promise<ModelMessage[]>) {
    let runs = 0;
    const tools = {
      read_log: tool({
        description: 'Reads a log file.',
        inputSchema: jsonSchema<{ file: string }>({
          type: 'object',
          properties: { file: { type: 'string' } },
          required: ['file'],
        }),
        needsApproval: true,
        execute: async ({ file }) => {
          runs++;
          return `${file}: 12 lines, all ok`;
        },
      }),
    };
    const provider = major.createAnthropic({ apiKey: 'test-key', baseURL: `${server.url}/v1` });
    const model = provider('claude-sonnet-4-6');
    const messages: ModelMessage[] = [{ role: 'user', content: 'Check the logs of batch 1.' }];
    const first = await generateText({ model, tools, messages, maxRetries: 0 });
    const approvals = first.content.filter((part) => part.type === 'tool-approval-request');
    expect(approvals.length).toBeGreaterThan(0);
    messages.push(...major.responseMessages(first), {
      role: 'tool',
      content: approvals.map((part) => ({
        type: 'tool-approval-response',
        approvalId: part.approvalId,
        approved: true,
      })),
    });
    const second = await generateText({
      model,
      tools,
      messages: await send(messages),
      stopWhen: stepCountIs(1),
      maxRetries: 0,
    });
    return { runs, approvals: approvals.length, text: second.text };
  }

  it('generateText runs the approved tool after manager.prepare, as it does without ctxkit', async () => {
    const without = await approveAndRun(async (messages) => messages);
    const manager = createContextManager({ contextWindow: 50_000, summarizer: heuristicSummarizer });
    const withCtxkit = await approveAndRun(async (messages) => {
      const prepared = await manager.prepare(fromModelMessages(messages).messages);
      return toModelMessages({ messages: prepared.messages }).messages as ModelMessage[];
    });
    expect(without.runs).toBe(without.approvals);
    expect(withCtxkit.runs).toBe(withCtxkit.approvals);
    expect(withCtxkit.runs).toBeGreaterThan(0);
    expect(server.stats.rejected).toEqual([]);
  });

  it('generateText runs the approved tool through the middleware', async () => {
    const manager = createContextManager({ contextWindow: 50_000, summarizer: heuristicSummarizer });
    const provider = major.createAnthropic({ apiKey: 'test-key', baseURL: `${server.url}/v1` });
    const model = wrapLanguageModel({ model: provider('claude-sonnet-4-6'), middleware: ctxkitMiddleware(manager) });
    let runs = 0;
    const tools = {
      read_log: tool({
        inputSchema: jsonSchema<{ file: string }>({ type: 'object', properties: { file: { type: 'string' } } }),
        needsApproval: true,
        execute: async () => {
          runs++;
          return 'ok';
        },
      }),
    };
    const messages: ModelMessage[] = [{ role: 'user', content: 'Check the logs of batch 2.' }];
    const first = await generateText({ model, tools, messages, maxRetries: 0 });
    const approvals = first.content.filter((part) => part.type === 'tool-approval-request');
    messages.push(...major.responseMessages(first), {
      role: 'tool',
      content: approvals.map((part) => ({
        type: 'tool-approval-response',
        approvalId: part.approvalId,
        approved: true,
      })),
    });
    await generateText({ model, tools, messages, stopWhen: stepCountIs(1), maxRetries: 0 });
    expect(runs).toBe(approvals.length);
    expect(server.stats.rejected).toEqual([]);
  });
});

/** A random AI SDK history of approval turns: calls that need approval or not, answered or not, run or not. */
const approvalHistory = fc
  .array(
    fc.record({
      calls: fc.array(fc.record({ approval: fc.boolean(), answered: fc.boolean(), ran: fc.boolean() }), {
        minLength: 1,
        maxLength: 3,
      }),
      size: fc.nat(60),
      closed: fc.boolean(),
    }),
    { minLength: 1, maxLength: 6 },
  )
  .map((turns) => {
    const messages: ModelMessage[] = [];
    turns.forEach((turn, index) => {
      const ids = turn.calls.map((_, rank) => `t${index}_${rank}`);
      messages.push({ role: 'user', content: `Turn ${index}.` });
      messages.push({
        role: 'assistant',
        content: [
          ...ids.map((id) => call(id)),
          ...ids.filter((_, rank) => turn.calls[rank]!.approval).map((id) => request(id)),
        ],
      });
      turn.calls.forEach((spec, rank) => {
        if (spec.approval && spec.answered) messages.push(response(ids[rank]!));
        if (spec.ran || (spec.approval && !spec.answered))
          messages.push(result(ids[rank]!, 'x'.repeat(turn.size * 10)));
      });
      if (turn.closed) messages.push({ role: 'assistant', content: `Done with turn ${index}.` });
    });
    return fromModelMessages(messages).messages;
  });

describe('tool approvals, properties', () => {
  test.prop([approvalHistory, fc.nat(3_000)])('a split never parts an approval from its call', (messages, budget) => {
    const { old, recent } = splitByTokenBudget(messages, { budget });
    expect(checkSplitKeepsToolPairs(old, recent)).toEqual([]);
  });

  test.prop([approvalHistory])('only calls with an approval answered at the end are left open', (messages) => {
    const sent = prepareModelMessages(messages);
    expect(checkToolPairing(sent, { allowPendingTail: true })).toEqual([]);
    const resulted = new Set(toolResults(sent));
    const open = sent.flatMap((message) =>
      message.role === 'assistant'
        ? message.content.flatMap((part) => (part.type === 'toolCall' && !resulted.has(part.id) ? [part.id] : []))
        : [],
    );
    // Expected open: the calls of the last assistant message whose approval is answered after it,
    // with no result, when nothing but results and approval responses follows it.
    let tail = messages.length - 1;
    while (tail >= 0 && messages[tail]!.role !== 'assistant') tail--;
    const after = messages.slice(tail + 1);
    const approvalIdOf = (message: Message) =>
      message.role === 'user' && Array.isArray(message.content)
        ? (message.content[0]?.providerData?.['ai-sdk'] as { part?: { approvalId?: string } } | undefined)?.part
            ?.approvalId
        : undefined;
    const expected: string[] = [];
    if (after.every((message) => message.role === 'toolResult' || approvalIdOf(message) !== undefined)) {
      const answered = new Set(after.map(approvalIdOf));
      const ran = new Set(toolResults(after));
      const last = messages[tail] as Extract<Message, { role: 'assistant' }>;
      for (const part of last.content)
        if (part.type === 'toolCall' && answered.has(`ap-${part.id}`) && !ran.has(part.id)) expected.push(part.id);
    }
    expect(open).toEqual(expected);
  });

  test.prop([approvalHistory])("'user-assistant' sends no approval part", (messages) => {
    const entries: SessionEntry[] = messages.map((message, index) => ({
      type: 'message',
      id: `e${index}`,
      parentId: index === 0 ? null : `e${index - 1}`,
      timestamp: index,
      message,
    }));
    const strict = buildContextFromBranch(entries, { modelFacing: 'user-assistant' }).messages;
    expect(toModelMessages({ messages: strict }).messages.some((message) => message.role === 'tool')).toBe(false);
    const written = JSON.stringify(toModelMessages({ messages: strict }).messages);
    expect(written).not.toContain('tool-approval');
  });
});
