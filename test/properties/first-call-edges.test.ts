// Edges the conversation arbitraries do not make: a result whose call is gone, a second result of
// one call, and ids reused across turns, on the first call (where results are archived as taken in).
import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import {
  createContextManager,
  type Message,
  prepareModelMessages,
  referenceCounter,
  type Summarizer,
  summarizeToolResults,
} from '../../src/index.js';
import { arbitraryConversation, deepFreeze, toolResultMessage } from '../../src/testing/index.js';

const summarizer: Summarizer = { summarize: async () => 'summary' };
const edits = fc.array(fc.record({ at: fc.nat(), kind: fc.constantFrom('orphan', 'duplicate', 'reuse') }), {
  maxLength: 6,
});

test.prop(
  [arbitraryConversation({ maxLength: 90 }), edits, fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 4 })],
  { numRuns: 300 },
)(
  'a first call on a history with orphan results, second results and reused ids archives and projects as the pure functions do',
  async (conversation, changes, cutoff, batch) => {
    const input: Message[] = structuredClone(conversation);
    for (const change of changes) {
      const at = change.at % (input.length + 1);
      if (change.kind === 'orphan')
        input.splice(at, 0, toolResultMessage(`orphan_${at}`, 'lost output', { toolName: 'bash' }));
      else {
        const results = input.filter((m) => m.role === 'toolResult');
        if (results.length === 0) continue;
        const result = results[at % results.length]!;
        if (change.kind === 'duplicate') input.splice(at, 0, { ...result });
        else {
          for (const m of input) {
            if (m.role === 'assistant')
              for (const p of m.content)
                if (p.type === 'toolCall' && p.id === result.toolCallId) (p as { id: string }).id = 'call_0';
            if (m.role === 'toolResult' && m.toolCallId === result.toolCallId)
              (m as { toolCallId: string }).toolCallId = 'call_0';
          }
        }
      }
    }
    const frozen = deepFreeze(input);
    const manager = createContextManager({
      summarizer,
      contextWindow: 10_000_000,
      counter: referenceCounter,
      config: {
        toolCallCutoff: cutoff,
        toolSummaryBatch: batch,
        toolOutput: { maxBytes: 1e7, maxChars: 1e7, maxLines: 1e6, largeOutputThreshold: 1e7 },
      },
    });
    const prepared = await manager.prepare(frozen);
    const expected = await summarizeToolResults(frozen, { cutoff, batch, strategy: 'llm', summarizer });
    expect(prepared.history).toEqual(expected.messages);
    expect(prepared.messages).toEqual(prepareModelMessages(expected.messages));
  },
);
