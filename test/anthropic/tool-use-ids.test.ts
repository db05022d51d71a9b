/**
 * Anthropic accepts a `tool_use` id only of letters, digits, `_` and `-` (`^[a-zA-Z0-9_-]+$`); a
 * request with another id is refused with a 400. Hosts and other providers make such ids; the
 * rename `prepareModelMessages` gives a tool-call id reused in a later turn (`call_0` in every turn,
 * as some servers number them) is one already (`call_0_2`), and `toAnthropic` cleans the others.
 */

import { fc, test } from '@fast-check/vitest';
import { type Message, prepareModelMessages } from 'ctxkit';
import { fromAnthropic, toAnthropic } from 'ctxkit/anthropic';
import { checkToolPairing } from 'ctxkit/testing';
import { describe, expect, it } from 'vitest';

const ANTHROPIC_ID = /^[a-zA-Z0-9_-]+$/;
const user = (content: string): Message => ({ role: 'user', content });
const call = (id: string): Message => ({
  role: 'assistant',
  content: [{ type: 'toolCall', id, name: 'bash', arguments: { command: 'ls' } }],
  stopReason: 'toolUse',
});
const result = (id: string, text: string): Message => ({
  role: 'toolResult',
  toolCallId: id,
  toolName: 'bash',
  content: [{ type: 'text', text }],
});

/** The ids of every tool_use and tool_result block of an Anthropic request, in order. */
function wireIds(messages: ReturnType<typeof toAnthropic>['messages']): string[] {
  return messages.flatMap((message) =>
    typeof message.content === 'string'
      ? []
      : message.content.flatMap((block) =>
          block.type === 'tool_use' ? [block.id] : block.type === 'tool_result' ? [block.tool_use_id] : [],
        ),
  );
}

describe('tool-use ids sent to Anthropic', () => {
  it('a call id reused in a later turn is sent with an id the API accepts, still paired with its result', () => {
    const history = [
      user('list'),
      call('call_0'),
      result('call_0', 'a.ts'),
      user('again'),
      call('call_0'),
      result('call_0', 'b.ts'),
      user('thanks'),
    ];
    const { messages } = toAnthropic({ messages: prepareModelMessages(history) });
    const ids = wireIds(messages);
    expect(ids).toHaveLength(4);
    for (const id of ids) expect(id).toMatch(ANTHROPIC_ID);
    // Pairs stay pairs, and the two calls stay apart.
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).toBe(ids[3]);
    expect(ids[0]).not.toBe(ids[2]);
    // Ids the API accepts are sent as they are (the round trip of Anthropic's own ids is exact).
    expect(ids[0]).toBe('call_0');
    expect(checkToolPairing(fromAnthropic({ messages }).messages)).toEqual([]);
  });

  test.prop([fc.array(fc.string({ minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 6 })])(
    'any host ids become distinct ids the API accepts, the same for a call and its result, and the same on every conversion',
    (raw) => {
      const history = raw.flatMap((id, index) => [user(`turn ${index}`), call(id), result(id, `out ${index}`)]);
      const sent = prepareModelMessages(history);
      const { messages } = toAnthropic({ messages: sent });
      const ids = wireIds(messages);
      for (const id of ids) expect(id).toMatch(ANTHROPIC_ID);
      const calls = ids.filter((_, index) => index % 2 === 0);
      expect(new Set(calls).size).toBe(calls.length);
      for (let index = 0; index < ids.length; index += 2) expect(ids[index + 1]).toBe(ids[index]);
      expect(wireIds(toAnthropic({ messages: sent }).messages)).toEqual(ids);
    },
  );
});
