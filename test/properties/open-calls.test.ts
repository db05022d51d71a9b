import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { pairToolResults } from '../../src/internal/tool-pairing.js';
import { type OpenCall, OpenCalls } from '../../src/manager/internal/open-calls.js';
import type { Message } from '../../src/types.js';

// Few ids, so ids repeat within a message and across messages, and results come late, twice or never.
const id = fc.constantFrom('a', 'b', 'c');
const step = fc.oneof(
  fc.record({ kind: fc.constant('calls' as const), ids: fc.array(id, { maxLength: 3 }) }),
  fc.record({ kind: fc.constant('result' as const), id }),
);

test.prop([fc.array(step, { maxLength: 40 })], { numRuns: 400 })(
  'OpenCalls pairs each result with the call pairToolResults pairs it with',
  (steps) => {
    const messages: Message[] = [];
    const open = new OpenCalls();
    const taken = new Map<number, { message: number; call: number }>();
    for (const next of steps) {
      const index = messages.length;
      if (next.kind === 'calls') {
        messages.push({
          role: 'assistant',
          content: next.ids.map((callId) => ({ type: 'toolCall' as const, id: callId, name: 'ls', arguments: {} })),
        });
        const calls: OpenCall[] = next.ids.map((callId, rank) => ({
          message: index,
          sent: rank,
          id: callId,
          raw: callId,
        }));
        open.addMessage(calls);
        continue;
      }
      messages.push({ role: 'toolResult', toolCallId: next.id, toolName: 'ls', content: [] });
      const call = open.take(next.id);
      if (call !== undefined) taken.set(index, { message: call.message, call: call.sent });
    }
    const expected = new Map(
      [...pairToolResults(messages)].map(([index, site]) => [index, { message: site.message, call: site.call }]),
    );
    expect(taken).toEqual(expected);
  },
);
