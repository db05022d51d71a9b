import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import {
  createContextManager,
  estimateMessageTokens,
  type Message,
  prepareModelMessages,
  type TokenCounter,
} from '../../src/index.js';
import { assistantMessage, toolCallMessage, toolResultMessage, userMessage } from '../../src/testing/index.js';

/** A counter whose counts are fractional, and past 16 bits for a message that says `big`. */
const unusualCounter: TokenCounter = {
  name: 'unusual',
  count: (text) => text.length * 1.37 + (text.includes('big') ? 70_000 : 0),
};

/** What a host does next: push a tool step (unique or reused id), a user or assistant message, or replace a message. */
const operation = fc.oneof(
  fc.record({ kind: fc.constant('step' as const), reused: fc.boolean(), big: fc.boolean() }),
  fc.record({ kind: fc.constant('user' as const), big: fc.boolean() }),
  fc.record({ kind: fc.constant('answer' as const) }),
  fc.record({ kind: fc.constant('replace' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
);

test.prop([fc.array(operation, { minLength: 20, maxLength: 60 })], { numRuns: 25 })(
  "the manager's cached counts equal a fresh count of what it sends, through archiving batches, reused ids and edits",
  async (operations) => {
    const manager = createContextManager({
      summarizer: { summarize: async () => 'unused' },
      contextWindow: 100_000_000,
      counter: unusualCounter,
      config: { toolSummaryStrategy: 'heuristic', toolCallCutoff: 2, toolSummaryBatch: 3, autoCompact: false },
    });
    let host: Message[] = [];
    let serial = 0;
    for (const item of operations) {
      serial++;
      if (item.kind === 'step') {
        const id = item.reused ? 'call_0' : `call_${serial}`;
        host.push(
          toolCallMessage([{ id, name: 'bash', arguments: { command: `ls ${serial}` } }]),
          toolResultMessage(id, `${item.big ? 'big ' : ''}out ${serial}`, { toolName: 'bash' }),
        );
      } else if (item.kind === 'user') host.push(userMessage(`${item.big ? 'big ' : ''}question ${serial}`));
      else if (item.kind === 'answer') host.push(assistantMessage(`answer ${serial}`));
      else if (host.length > 0) {
        host = [...host];
        host[Math.floor(item.at * (host.length - 1))] = userMessage(`edited ${serial}`);
      }
      const prepared = await manager.prepare(host);
      expect(prepared.messages).toEqual(prepareModelMessages(prepared.history));
      const fresh = prepared.messages.map((message) => estimateMessageTokens(message, unusualCounter));
      const stats = manager.stats(prepared.history);
      expect(stats.breakdown.total).toBeCloseTo(
        fresh.reduce((sum, tokens) => sum + tokens, 0),
        3,
      );
      expect(prepared.usage.tokens).toBeCloseTo(stats.breakdown.total, 3);
    }
  },
);
