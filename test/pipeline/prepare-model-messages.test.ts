import { describe, expect, it } from 'vitest';
import { recallIdOf } from '../../src/agent-tools/index.js';
import { type AssistantMessage, ContextError, type Message, prepareModelMessages } from '../../src/index.js';
import { ARCHIVED_RESULT_PATTERN, MISSING_RESULT_TEXT } from '../../src/schemas/index.js';
import { checkToolPairing, toolCallMessage, toolResultMessage, userMessage } from '../../src/testing/index.js';

const user = (text: string, meta?: Message['meta']) => userMessage(text, meta);
const call = (ids: string[], extra: Partial<AssistantMessage> = {}): AssistantMessage => ({
  ...toolCallMessage(ids.map((id) => ({ id, name: 'bash', arguments: { id } }))),
  ...extra,
});
const result = (id: string, meta?: Message['meta']) =>
  toolResultMessage(id, `output ${id}`, { toolName: 'bash', meta });
const text = (message: Message | undefined) =>
  message?.role === 'toolResult' ? message.content.map((part) => (part.type === 'text' ? part.text : '')).join('') : '';

describe('prepareModelMessages', () => {
  it('returns a valid sequence unchanged, message for message', () => {
    const messages = [user('hi'), call(['a']), result('a'), user('thanks')];
    const prepared = prepareModelMessages(messages);
    expect(prepared).toEqual(messages);
    for (const [index, message] of prepared.entries()) expect(message).toBe(messages[index]);
  });

  it('drops messages the model must not see', () => {
    const messages = [user('hi'), user('secret', { agentVisible: false }), user('bye')];
    expect(prepareModelMessages(messages)).toEqual([messages[0], messages[2]]);
  });

  it('sends archived results as a placeholder so their calls stay paired', () => {
    const archived = result('a', { agentVisible: false, kind: 'tool_result_archived' });
    const prepared = prepareModelMessages([user('hi'), call(['a']), archived]);
    expect(prepared).toHaveLength(3);
    // The placeholder names the id recall takes, and the size of what it stands for.
    expect(text(prepared[2])).toBe(
      `[archived ${recallIdOf('a')}: ${'output a'.length} chars; recall ${recallIdOf('a')}]`,
    );
    expect(text(prepared[2])).toMatch(ARCHIVED_RESULT_PATTERN);
    expect(prepareModelMessages([user('hi'), call(['a']), archived])[2]).toBe(prepared[2]);
  });

  it('adds an error result for a call that has none', () => {
    const assistant = call(['a', 'b']);
    const prepared = prepareModelMessages([user('hi'), assistant, result('a'), user('next')]);
    expect(prepared.map((message) => message.role)).toEqual(['user', 'assistant', 'toolResult', 'toolResult', 'user']);
    expect(prepared[3]).toMatchObject({ toolCallId: 'b', isError: true });
    expect(text(prepared[3])).toBe(MISSING_RESULT_TEXT);
  });

  it('drops orphaned and duplicated results', () => {
    const prepared = prepareModelMessages([user('hi'), result('ghost'), call(['a']), result('a'), result('a')]);
    expect(prepared.map((message) => message.role)).toEqual(['user', 'assistant', 'toolResult']);
  });

  it('moves a result that arrives after an interleaved message up to its call', () => {
    const prepared = prepareModelMessages([call(['a']), user('interrupt'), result('a')]);
    expect(prepared.map((message) => message.role)).toEqual(['assistant', 'toolResult', 'user']);
  });

  it('drops aborted and errored assistant turns with their tool results', () => {
    const prepared = prepareModelMessages([
      user('hi'),
      call(['a'], { stopReason: 'aborted' }),
      result('a'),
      call(['b'], { stopReason: 'error', errorMessage: 'boom' }),
      user('again'),
    ]);
    expect(prepared.map((message) => message.role)).toEqual(['user', 'user']);
  });

  it('does not mutate its input', () => {
    const messages = [user('hi'), call(['a']), result('a', { agentVisible: false })];
    const snapshot = structuredClone(messages);
    prepareModelMessages(messages);
    expect(messages).toEqual(snapshot);
  });

  describe('reused tool call ids', () => {
    const ids = (messages: readonly Message[]) =>
      messages.map((message) =>
        message.role === 'assistant'
          ? `A(${message.content.flatMap((part) => (part.type === 'toolCall' ? [part.id] : [])).join(',')})`
          : message.role === 'toolResult'
            ? `R(${message.toolCallId}:${text(message)})`
            : 'U',
      );
    const answer = (id: string, output: string) => toolResultMessage(id, output, { toolName: 'bash' });

    it('sends an id used again by a later turn as a fresh one, in the call and its result', () => {
      const messages = [user('1'), call(['x']), answer('x', 'one'), user('2'), call(['x']), answer('x', 'two')];
      const snapshot = structuredClone(messages);
      const prepared = prepareModelMessages(messages);
      expect(ids(prepared)).toEqual(['U', 'A(x)', 'R(x:one)', 'U', 'A(x_2)', 'R(x_2:two)']);
      expect(checkToolPairing(prepared)).toEqual([]);
      expect(messages).toEqual(snapshot);
      expect(prepared[1]).toBe(messages[1]);
      // Memoized: the renamed copies are the same objects on the next call.
      const again = prepareModelMessages(messages);
      expect(again[4]).toBe(prepared[4]);
      expect(again[5]).toBe(prepared[5]);
    });

    it('pairs two calls with one id in one message with their results in order', () => {
      const prepared = prepareModelMessages([user('1'), call(['x', 'x']), answer('x', 'one'), answer('x', 'two')]);
      expect(ids(prepared)).toEqual(['U', 'A(x,x_2)', 'R(x:one)', 'R(x_2:two)']);
      expect(checkToolPairing(prepared)).toEqual([]);
    });

    it('gives the second of two same-id calls with one result a synthetic result under its fresh id', () => {
      const prepared = prepareModelMessages([user('1'), call(['x', 'x']), answer('x', 'one')]);
      expect(ids(prepared)).toEqual(['U', 'A(x,x_2)', 'R(x:one)', `R(x_2:${MISSING_RESULT_TEXT})`]);
      expect(checkToolPairing(prepared)).toEqual([]);
    });

    it('matches a result to the nearest unanswered call before it, and never picks a fresh id that is in use', () => {
      const prepared = prepareModelMessages([
        call(['x']),
        user('interrupted'),
        call(['x']),
        answer('x', 'second'),
        call(['x_2']),
        answer('x_2', 'third'),
      ]);
      expect(ids(prepared)).toEqual([
        'A(x)',
        `R(x:${MISSING_RESULT_TEXT})`,
        'U',
        'A(x_3)',
        'R(x_3:second)',
        'A(x_2)',
        'R(x_2:third)',
      ]);
      expect(checkToolPairing(prepared)).toEqual([]);
    });

    it('keeps the id of a call whose earlier namesake was not sent', () => {
      const prepared = prepareModelMessages([
        call(['x'], { stopReason: 'aborted' }),
        user('again'),
        call(['x']),
        answer('x', 'ok'),
      ]);
      expect(ids(prepared)).toEqual(['U', 'A(x)', 'R(x:ok)']);
    });
  });

  it('rejects malformed messages with INPUT_INVALID naming the index and field', () => {
    for (const bad of [[null], [{ role: 'user', content: 5 }], [user('ok'), { role: 'assistant', content: null }]]) {
      let caught: unknown;
      try {
        prepareModelMessages(bad as never);
      } catch (error) {
        caught = error;
      }
      expect(ContextError.isInstance(caught)).toBe(true);
      expect((caught as ContextError).code).toBe('INPUT_INVALID');
      expect((caught as ContextError).message).toMatch(/prepareModelMessages: messages\[\d\]/);
    }
  });
});
