/**
 * A host that keeps its conversation as SDK messages and converts the whole list before every call
 * (`fromModelMessages`, `fromOpenAIChat`, …): each call hands in new objects for the same history.
 */
import { describe, expect, it } from 'vitest';
import { fromModelMessages, toModelMessages } from '../../src/ai-sdk/index.js';
import { createContextManager, type Message, type Summarizer } from '../../src/index.js';
import { call, result, user } from './fixtures.js';

function countingSummarizer(): Summarizer & { calls: number } {
  const summarizer = {
    calls: 0,
    async summarize() {
      summarizer.calls++;
      return 'Ran the tests; two fail in the parser.';
    },
  };
  return summarizer;
}

describe('a host that converts its SDK messages before every call', () => {
  it('is taken as going on from what the manager holds: a tool batch is archived once, not once per call', async () => {
    const summarizer = countingSummarizer();
    const manager = createContextManager({
      summarizer,
      contextWindow: 1_000_000,
      config: { toolCallCutoff: 3, toolSummaryBatch: 4, autoCompact: false },
    });
    const history: Message[] = [user(10, 'q')];
    for (let index = 0; index < 8; index++) history.push(call(`c${index}`), result(`c${index}`, `output ${index}`));
    const sdk = toModelMessages({ messages: history }).messages;
    const first = await manager.prepare(fromModelMessages(sdk).messages);
    expect(summarizer.calls).toBe(1);
    for (let turn = 0; turn < 3; turn++) {
      sdk.push({ role: 'user', content: `turn ${turn}` });
      const prepared = await manager.prepare(fromModelMessages(sdk).messages);
      expect(prepared.messages.at(-1)).toMatchObject({ role: 'user', content: `turn ${turn}` });
      // The archived batch is still what is sent: the same summary, no new summarizer call.
      expect(prepared.messages.slice(0, first.messages.length)).toEqual(first.messages);
    }
    expect(summarizer.calls).toBe(1);
  });

  it('starts over when the host changed a message: the changed text is what is counted and sent', async () => {
    const manager = createContextManager({ summarizer: countingSummarizer(), contextWindow: 1_000_000 });
    const sdk = toModelMessages({ messages: [user(10, 'q'), call('c0'), result('c0', 'short')] }).messages;
    const before = await manager.prepare(fromModelMessages(sdk).messages);
    const part = (sdk[2] as { content: Array<{ output: { type: string; value: string } }> }).content[0]!;
    part.output = { type: 'text', value: 'a much longer tool output '.repeat(50) };
    const after = await manager.prepare(fromModelMessages(sdk).messages);
    const fresh = await createContextManager({ summarizer: countingSummarizer(), contextWindow: 1_000_000 }).prepare(
      fromModelMessages(sdk).messages,
    );
    expect(after.usage.tokens).toBeGreaterThan(before.usage.tokens);
    expect(after.usage).toEqual(fresh.usage);
    expect(after.messages).toEqual(fresh.messages);
  });
});
