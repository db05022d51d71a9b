import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/index.js';
import {
  assistantMessage,
  checkNothingLost,
  checkNotMutated,
  checkSplitKeepsToolPairs,
  checkToolPairing,
  checkWellFormedText,
  checkWithinLimits,
  deepFreeze,
  toolCallMessage,
  toolResultMessage,
  userMessage,
} from '../../src/testing/index.js';

const call = (...ids: string[]) => toolCallMessage(ids.map((id) => ({ id, name: 'run' })));
const result = (id: string) => toolResultMessage(id, `out ${id}`);

describe('checkToolPairing', () => {
  it('accepts calls followed by their results in any order', () => {
    expect(
      checkToolPairing([userMessage('a'), call('1', '2'), result('2'), result('1'), assistantMessage('ok')]),
    ).toEqual([]);
  });

  it('reports a call without a result', () => {
    const problems = checkToolPairing([call('1', '2'), result('1'), userMessage('next')]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/"2" have no result/);
  });

  it('reports a result separated from its call', () => {
    const problems = checkToolPairing([call('1'), userMessage('interrupt'), result('1')]);
    expect(problems.join('\n')).toMatch(/"1" have no result/);
    expect(problems.join('\n')).toMatch(/tool result "1" at index 2 is not in the block/);
  });

  it('reports an orphan result, a result before its call, a second result and a reused id', () => {
    expect(checkToolPairing([userMessage('a'), result('x')])[0]).toMatch(/has no matching tool call/);
    expect(checkToolPairing([result('1'), call('1'), result('1')])[0]).toMatch(/comes before its call/);
    expect(checkToolPairing([call('1'), result('1'), result('1')])[0]).toMatch(/second result/);
    expect(checkToolPairing([call('1'), result('1'), call('1'), result('1')])[0]).toMatch(/already used/);
  });

  it('accepts a pending last turn only when asked', () => {
    const pending: Message[] = [userMessage('go'), call('1', '2'), result('1')];
    expect(checkToolPairing(pending)).toHaveLength(1);
    expect(checkToolPairing(pending, { allowPendingTail: true })).toEqual([]);
    expect(checkToolPairing([call('1'), userMessage('x')], { allowPendingTail: true })).toHaveLength(1);
  });
});

describe('checkSplitKeepsToolPairs', () => {
  it('accepts a cut between whole turns and reports one inside a tool turn', () => {
    expect(checkSplitKeepsToolPairs([call('1'), result('1')], [userMessage('a')])).toEqual([]);
    expect(checkSplitKeepsToolPairs([call('1', '2'), result('1')], [result('2')])[0]).toMatch(/"2".*parts them/);
  });
});

describe('checkNothingLost', () => {
  const before = [userMessage('a'), call('1'), result('1'), assistantMessage('b')];

  it('accepts the same messages, copies of them, and messages added in between', () => {
    expect(checkNothingLost(before, before)).toEqual([]);
    expect(checkNothingLost(before, structuredClone(before))).toEqual([]);
    expect(
      checkNothingLost(before, [userMessage('new'), ...before.slice(0, 2), userMessage('x'), ...before.slice(2)]),
    ).toEqual([]);
  });

  it('reports a dropped message and a reordered one', () => {
    expect(checkNothingLost(before, [before[0]!, before[1]!, before[3]!])[0]).toMatch(/tool result "1" .* missing/);
    expect(checkNothingLost(before, [before[0]!, before[2]!, before[1]!, before[3]!])[0]).toMatch(/out of order/);
  });

  it('reports a changed message', () => {
    const changed = [...before.slice(0, 3), assistantMessage('B')];
    expect(checkNothingLost(before, changed)).toHaveLength(1);
  });

  it('accepts an archived tool result only with allowArchived', () => {
    const archived = [
      ...before.slice(0, 2),
      { ...result('1'), meta: { agentVisible: false, kind: 'tool_result_archived' } },
      before[3]!,
    ];
    expect(checkNothingLost(before, archived)).toHaveLength(1);
    expect(checkNothingLost(before, archived, { allowArchived: true })).toEqual([]);
  });
});

describe('deepFreeze and checkNotMutated', () => {
  it('freezes nested messages so writes throw', () => {
    const messages = deepFreeze([call('1'), result('1')]);
    expect(Object.isFrozen(messages[0]!.content[0])).toBe(true);
    expect(() => {
      (messages as Message[]).push(userMessage('x'));
    }).toThrow(TypeError);
    expect(() => {
      (messages[1] as { toolCallId: string }).toolCallId = 'changed';
    }).toThrow(TypeError);
  });

  it('handles cycles', () => {
    const node: { self?: unknown } = {};
    node.self = node;
    expect(Object.isFrozen(deepFreeze(node))).toBe(true);
  });

  it('reports the path of a change and accepts an untouched value', () => {
    const messages = [userMessage('a', { kind: 'custom' }), result('1')];
    const snapshot = structuredClone(messages);
    expect(checkNotMutated(snapshot, messages)).toEqual([]);
    messages[0]!.meta!.agentVisible = false;
    (messages[1] as { content: unknown[] }).content.push({ type: 'text', text: 'more' });
    const problems = checkNotMutated(snapshot, messages);
    expect(problems.join('\n')).toMatch(/\$\[0\]\.meta\.agentVisible/);
    expect(problems.join('\n')).toMatch(/\$\[1\]\.content/);
  });
});

describe('checkWithinLimits and checkWellFormedText', () => {
  it('measures lines, code points and UTF-8 bytes', () => {
    expect(checkWithinLimits('a\nb\n', { maxLines: 2, maxChars: 4, maxBytes: 4 })).toEqual([]);
    expect(checkWithinLimits('a\nb\nc', { maxLines: 2 })).toEqual(['3 lines, over maxLines 2']);
    expect(checkWithinLimits('😀😀', { maxChars: 1 })).toEqual(['2 code points, over maxChars 1']);
    expect(checkWithinLimits('中文', { maxBytes: 5 })).toEqual(['6 UTF-8 bytes, over maxBytes 5']);
  });

  it('finds lone surrogates and accepts pairs', () => {
    expect(checkWellFormedText('ok 😀 中')).toEqual([]);
    expect(checkWellFormedText('😀'.slice(0, 1))).toEqual(['lone surrogate 0xd83d at index 0']);
    expect(checkWellFormedText(`x${'😀'.slice(1)}`)).toEqual(['lone surrogate 0xde00 at index 1']);
  });
});
