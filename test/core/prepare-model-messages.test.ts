import { describe, expect, it } from 'vitest';
import {
  ARCHIVED_RESULT_PLACEHOLDER,
  type AssistantMessage,
  type Message,
  MISSING_RESULT_TEXT,
  prepareModelMessages,
  type ToolResultMessage,
} from '../../src/index.js';

const user = (text: string, meta?: Message['meta']): Message => ({
  role: 'user',
  content: text,
  ...(meta ? { meta } : {}),
});
const call = (ids: string[], extra: Partial<AssistantMessage> = {}): AssistantMessage => ({
  role: 'assistant',
  content: ids.map((id) => ({ type: 'toolCall' as const, id, name: 'bash', arguments: { id } })),
  ...extra,
});
const result = (id: string, meta?: Message['meta']): ToolResultMessage => ({
  role: 'toolResult',
  toolCallId: id,
  toolName: 'bash',
  content: [{ type: 'text', text: `output ${id}` }],
  ...(meta ? { meta } : {}),
});
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
    expect(text(prepared[2])).toBe(ARCHIVED_RESULT_PLACEHOLDER);
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
});
