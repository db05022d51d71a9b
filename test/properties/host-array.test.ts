import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import {
  createContextManager,
  estimateContextTokens,
  type Message,
  prepareModelMessages,
  referenceCounter,
} from '../../src/index.js';
import { assistantMessage, toolCallMessage, toolResultMessage, userMessage } from '../../src/testing/index.js';

/** What a host does to the one array it keeps passing to `prepare`. */
const operation = fc.oneof(
  fc.record({ kind: fc.constant('push' as const), count: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ kind: fc.constant('pop' as const), count: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('truncate' as const), keep: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ kind: fc.constant('editTail' as const), back: fc.integer({ min: 0, max: 31 }) }),
  fc.record({ kind: fc.constant('newArrayEdit' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  // Positions as any natural number modulo the length: fast-check's doubles lean to 0 and 1, the ends.
  fc.record({ kind: fc.constant('editInPlace' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swapInPlace' as const), a: fc.nat(), b: fc.nat() }),
  // The host goes on with the history the manager returned (its own array from then on).
  fc.record({ kind: fc.constant('adoptHistory' as const), edit: fc.option(fc.nat()), count: fc.nat({ max: 3 }) }),
);

let serial = 0;
function step(): Message[] {
  const id = `c${serial++}`;
  switch (serial % 3) {
    case 0:
      return [userMessage(`question ${serial}`)];
    case 1:
      return [
        toolCallMessage([{ id, name: 'bash', arguments: { command: `ls ${serial}` } }]),
        toolResultMessage(id, `out ${serial}`, { toolName: 'bash' }),
      ];
    default:
      return [assistantMessage(`answer ${serial}`)];
  }
}

test.prop([fc.integer({ min: 100, max: 400 }), fc.array(operation, { minLength: 1, maxLength: 30 })], { numRuns: 60 })(
  'a host that keeps one array and pushes, pops, truncates, edits or reorders it anywhere (its own or the returned history) gets what a fresh projection of it sends',
  async (length, operations) => {
    let host: Message[] = [];
    while (host.length < length) host.push(...step());
    const context = createContextManager({
      summarizer: { summarize: async () => 'unused' },
      contextWindow: 10_000_000,
      counter: referenceCounter,
      config: { toolSummaryStrategy: 'off', autoCompact: false },
    });
    let prepared = await context.prepare(host);
    for (const item of operations) {
      if (item.kind === 'push') for (let n = 0; n < item.count; n++) host.push(...step());
      else if (item.kind === 'pop') host.length = Math.max(0, host.length - item.count);
      else if (item.kind === 'truncate') {
        host.length = Math.floor(host.length * item.keep);
        host.push(...step());
      } else if (item.kind === 'editTail') {
        const at = host.length - 1 - item.back;
        if (at >= 0) host[at] = userMessage(`edited ${serial++}`);
      } else if (item.kind === 'editInPlace') {
        // Anywhere in the array, the same array passed again: not only its last messages.
        if (host.length > 0) host[item.at % host.length] = userMessage(`edited ${serial++}`);
      } else if (item.kind === 'swapInPlace') {
        const [a, b] = [item.a % Math.max(1, host.length), item.b % Math.max(1, host.length)];
        if (host.length > 1) [host[a], host[b]] = [host[b]!, host[a]!];
      } else if (item.kind === 'adoptHistory') {
        host = prepared.history;
        if (item.edit !== null && host.length > 0) host[item.edit % host.length] = userMessage(`edited ${serial++}`);
        for (let n = 0; n < item.count; n++) host.push(...step());
      } else {
        host = [...host];
        if (host.length > 0) host[Math.floor(item.at * (host.length - 1))] = userMessage(`edited ${serial++}`);
      }
      prepared = await context.prepare(host);
      const expected = prepareModelMessages(host);
      expect(prepared.messages).toEqual(expected);
      expect(prepared.usage.tokens).toBe(estimateContextTokens(expected, { counter: referenceCounter }));
    }
  },
);
