/**
 * The steps of an agent loop that the manager's host properties drive: what each step adds to the
 * host's history (a user message, an answer, or a tool step: one call message and its results).
 */
import { fc } from '@fast-check/vitest';
import type { Message } from '../../src/index.js';
import { assistantMessage, toolCallMessage, toolResultMessage, userMessage } from '../../src/testing/index.js';

export type HostStep =
  | { kind: 'user'; size: number }
  | { kind: 'answer'; size: number }
  | { kind: 'tool'; calls: number; lines: number; early: boolean };

/** Steps within these sizes: words of a user message and of an answer, calls per step, lines per output. */
export function hostStep(sizes: {
  userWords: number;
  answerWords: number;
  calls: number;
  lines: fc.Arbitrary<number>;
  /** Whether a result may come before its call. */
  early?: boolean;
}): fc.Arbitrary<HostStep> {
  return fc.oneof(
    fc.record({ kind: fc.constant('user' as const), size: fc.integer({ min: 1, max: sizes.userWords }) }),
    fc.record({ kind: fc.constant('answer' as const), size: fc.integer({ min: 1, max: sizes.answerWords }) }),
    fc.record({
      kind: fc.constant('tool' as const),
      calls: fc.integer({ min: 1, max: sizes.calls }),
      lines: sizes.lines,
      early: sizes.early ? fc.boolean() : fc.constant(false),
    }),
  );
}

/** The messages of step number `n` (its ids and texts are unique to `n`). */
export function stepMessages(step: HostStep, n: number): Message[] {
  if (step.kind === 'user') return [userMessage(`q${n} `.repeat(step.size))];
  if (step.kind === 'answer') return [assistantMessage(`a${n} `.repeat(step.size))];
  const ids = Array.from({ length: step.calls }, (_, index) => `call_${n}_${index}`);
  const call = toolCallMessage(ids.map((id) => ({ id, name: 'bash', arguments: { command: `ls ${id}` } })));
  const results = ids.map((id) => toolResultMessage(id, `line ${id}\n`.repeat(step.lines), { toolName: 'bash' }));
  return step.early ? [results[0]!, call, ...results.slice(1)] : [call, ...results];
}
