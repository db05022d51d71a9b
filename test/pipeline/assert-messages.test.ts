import { describe, expect, it } from 'vitest';
import {
  ContextError,
  clearToolUses,
  compact,
  createContextManager,
  heuristicSummarizer,
  type Message,
  summarizeToolResults,
} from '../../src/index.js';

const good: Message[] = [
  { role: 'user', content: 'hello' },
  { role: 'assistant', content: [{ type: 'text', text: 'hi' }], stopReason: 'stop' },
];
const malformed: Array<[string, unknown, RegExp]> = [
  ['a system role', [...good, { role: 'system', content: 'x' }], /messages\[2\]\.role/],
  ['a user message without content', [{ role: 'user' }], /messages\[0\]\.content/],
  ['a null message', [good[0], null], /messages\[1\]/],
  [
    'a tool result without its call id',
    [{ role: 'toolResult', toolName: 'bash', content: [] }],
    /messages\[0\]\.toolCallId/,
  ],
  ['a text part without text', [{ role: 'user', content: [{ type: 'text' }] }], /messages\[0\]\.content/],
  ['not an array', { role: 'user', content: 'x' }, /must be an array/],
];

describe('messages handed in by the host', () => {
  it.each(malformed)('are refused at the boundary when they hold %s', async (_, messages, field) => {
    const calls: Array<() => unknown> = [
      () =>
        createContextManager({ summarizer: heuristicSummarizer, contextWindow: 100_000 }).prepare(
          messages as Message[],
        ),
      () => compact(messages as Message[], { summarizer: heuristicSummarizer }),
      () => summarizeToolResults(messages as Message[], { strategy: 'heuristic' }),
      () => clearToolUses(messages as Message[]),
    ];
    for (const call of calls) {
      const error = await Promise.resolve()
        .then(call)
        .catch((caught: unknown) => caught);
      expect(ContextError.isInstance(error)).toBe(true);
      expect((error as ContextError).code).toBe('INPUT_INVALID');
      expect((error as Error).message).toMatch(field);
    }
  });

  it('accepts well-formed messages with extra fields a host keeps on them', async () => {
    const withExtras = [{ ...good[0]!, details: { source: 'cli' } } as unknown as Message, good[1]!];
    const prepared = await createContextManager({ summarizer: heuristicSummarizer, contextWindow: 100_000 }).prepare(
      withExtras,
    );
    expect(prepared.messages[0]).toBe(withExtras[0]);
  });
});
