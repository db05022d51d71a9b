// The recovery ladder's promise: whenever the smallest request (system prompt, tool definitions and
// the newest message, its tool results as one-line stubs) fits the window, an overflow is recovered
// and the request sent after it is within the limit by the manager's own counter.
import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import {
  type AssistantMessage,
  type ContextEvent,
  createContextManager,
  estimateContextTokens,
  estimateMessageTokens,
  type Message,
  referenceCounter,
  type ToolResultMessage,
} from '../../src/index.js';
import { createSummaryMessage } from '../../src/summarizing/index.js';
import { checkToolPairing } from '../../src/testing/index.js';

const TOOLS = [{ name: 'bash', description: 'Runs a command.', parameters: { type: 'object' } }];

/** A tool output of `lines` lines of `width` characters. */
const output = (lines: number, width: number, tag: string) =>
  Array.from({ length: lines }, (_, index) => `${tag}:${index} `.padEnd(width, 'x')).join('\n');

const step = fc.record({
  thinking: fc.integer({ min: 0, max: 4_000 }),
  text: fc.integer({ min: 0, max: 400 }),
  results: fc.array(fc.record({ lines: fc.integer({ min: 1, max: 600 }), width: fc.integer({ min: 1, max: 100 }) }), {
    minLength: 1,
    maxLength: 4,
  }),
});
const turn = fc.record({
  user: fc.integer({ min: 1, max: 8_000 }),
  answer: fc.integer({ min: 0, max: 1_500 }),
  steps: fc.array(step, { maxLength: 4 }),
});
const scenario = fc.record({
  window: fc.integer({ min: 3_000, max: 40_000 }),
  reserveShare: fc.constantFrom(0.1, 0.25),
  system: fc.integer({ min: 0, max: 8_000 }),
  summarized: fc.boolean(),
  turns: fc.array(turn, { minLength: 1, maxLength: 3 }),
  endsInResults: fc.boolean(),
  autoCompact: fc.boolean(),
  keepRecentTokens: fc.integer({ min: 0, max: 20_000 }),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function buildHistory(input: Scenario): Message[] {
  const history: Message[] = input.summarized ? [createSummaryMessage('Goal: keep the build green.')] : [];
  let id = 0;
  input.turns.forEach((spec, index) => {
    history.push({ role: 'user', content: `${index}:${'u'.repeat(spec.user * 4)}` });
    const newest = index === input.turns.length - 1;
    const steps =
      newest && input.endsInResults && spec.steps.length === 0
        ? [{ thinking: 0, text: 0, results: [{ lines: 800, width: 80 }] }]
        : spec.steps;
    for (const { thinking, text, results } of steps) {
      const content: AssistantMessage['content'] = [];
      if (thinking > 0) content.push({ type: 'thinking', thinking: 't'.repeat(thinking * 4), signature: `sig${id}` });
      if (text > 0) content.push({ type: 'text', text: 'a'.repeat(text * 4) });
      const calls = results.map(() => `call${id++}`);
      for (const call of calls)
        content.push({ type: 'toolCall', id: call, name: 'bash', arguments: { command: call } });
      history.push({ role: 'assistant', content });
      results.forEach((size, at) => {
        history.push({
          role: 'toolResult',
          toolCallId: calls[at]!,
          toolName: 'bash',
          content: [{ type: 'text', text: output(size.lines, size.width, calls[at]!) }],
        } satisfies ToolResultMessage);
      });
    }
    if (!(newest && input.endsInResults))
      history.push({ role: 'assistant', content: [{ type: 'text', text: 'd'.repeat(spec.answer * 4 + 4) }] });
  });
  if (!input.endsInResults) history.push({ role: 'user', content: 'Go on with the next step.' });
  return history;
}

/**
 * The smallest request, over-counted: the system prompt, the tools, the newest message (for tool
 * results, the assistant turn that called them with each result as a stub of at most 80 tokens),
 * and 600 tokens for the summary and message framing.
 */
function smallestRequest(history: Message[], system: string): number {
  let from = history.length - 1;
  let results = 0;
  while (from > 0 && history[from]!.role === 'toolResult') {
    from--;
    results++;
  }
  const extras = estimateContextTokens([], { counter: referenceCounter, systemPrompt: system, tools: TOOLS });
  return extras + estimateMessageTokens(history[from]!, referenceCounter) + results * 80 + 600;
}

test.prop([scenario], { numRuns: 30 })(
  'an overflow is always recovered when the smallest request fits, and the retry is within the limit',
  async (input) => {
    const reserve = Math.floor(input.window * input.reserveShare);
    const limit = input.window - reserve;
    const systemPrompt = 's'.repeat(input.system * 4);
    const history = buildHistory(input);
    fc.pre(smallestRequest(history, systemPrompt) <= limit);
    const events: ContextEvent[] = [];
    const manager = createContextManager({
      contextWindow: input.window,
      counter: referenceCounter,
      systemPrompt,
      tools: TOOLS,
      summarizer: { summarize: async () => 'Goal: keep the build green. Progress: the parser is fixed.' },
      config: {
        reserveTokens: reserve,
        keepRecentTokens: input.keepRecentTokens,
        autoCompact: input.autoCompact,
        toolSummaryStrategy: 'off',
      },
      onEvent: (event) => events.push(event),
    });
    const sent: number[] = [];
    // The provider counts like the manager: over the window is an overflow, and the first call is
    // always one (forced), whatever its size.
    const outcome = await manager.runWithOverflowRecovery(history, async (messages) => {
      const tokens = estimateContextTokens(messages, { counter: referenceCounter, systemPrompt, tools: TOOLS });
      sent.push(tokens);
      expect(checkToolPairing(messages)).toEqual([]);
      if (sent.length === 1 || tokens > input.window) {
        throw Object.assign(new Error(`prompt is too long: ${tokens} tokens > ${input.window} maximum`), {
          status: 400,
        });
      }
      return { role: 'assistant', content: [{ type: 'text', text: 'ok' }] } satisfies AssistantMessage;
    });
    expect(outcome.recovered).toBe(true);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toBeLessThanOrEqual(limit);
    const end = events.filter((event) => event.type === 'compaction-end').at(-1);
    expect(end).toMatchObject({ reason: 'overflow', rungs: expect.any(Array) });
  },
);
