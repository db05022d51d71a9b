import { fc, test } from '@fast-check/vitest';
import { ContextError, type Message } from 'ctxkit';
import { fromOpenAIChat, toOpenAIChat, toOpenAIResponses } from 'ctxkit/openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { describe, expect, expectTypeOf, it } from 'vitest';

// toOpenAIChat / toOpenAIResponses({ cacheBreakpoints }): explicit prompt-cache breakpoints
// (`prompt_cache_breakpoint`, GPT-5.6 and later) where toAnthropic places `cache_control`.

const SYSTEM = 'You are a coding agent.';
const MARK = { mode: 'explicit' };

const user = (text: string): Message => ({ role: 'user', content: text });
const call = (id: string): Message => ({
  role: 'assistant',
  content: [{ type: 'toolCall', id, name: 'read_log', arguments: { file: `${id}.log` } }],
});
const result = (id: string, meta?: Message['meta']): Message => ({
  role: 'toolResult',
  toolCallId: id,
  toolName: 'read_log',
  content: [{ type: 'text', text: `${id}: 3 passed` }],
  ...(meta ? { meta } : {}),
});

/** Where the marks are: `index:part` of each marked part. */
function marksOf(items: readonly unknown[]): string[] {
  const found: string[] = [];
  items.forEach((item, index) => {
    const record = item as Record<string, unknown>;
    const parts = [record['content'], record['output']].find(Array.isArray) as Record<string, unknown>[] | undefined;
    parts?.forEach((part, at) => {
      if (part['prompt_cache_breakpoint'] != null) found.push(`${index}:${at}`);
    });
  });
  return found;
}

/** The items with every mark taken off and one-part text lists written back as strings. */
function unmarked(items: readonly unknown[]): unknown[] {
  return JSON.parse(JSON.stringify(items), (key, value) => {
    if (key !== 'content' && key !== 'output') return value;
    if (!Array.isArray(value)) return value;
    const parts = value.map(({ prompt_cache_breakpoint: _mark, ...part }) => part);
    const only = parts.length === 1 ? (parts[0] as { type: string; text?: string }) : undefined;
    return only && (only.type === 'text' || only.type === 'input_text') && Object.keys(only).length === 2
      ? only.text
      : parts;
  });
}

const session: Message[] = [
  user('Check the logs.'),
  call('a'),
  result('a', { kind: 'tool_result_archived' }),
  call('b'),
  result('b'),
  { role: 'assistant', content: [{ type: 'text', text: 'Both passed.' }] },
  user('Now the next batch.'),
];

describe('toOpenAIChat({ cacheBreakpoints })', () => {
  it('marks the newest message, the system prompt, the last archived result and the input before the newest', () => {
    const { messages } = toOpenAIChat({ systemPrompt: SYSTEM, messages: session }, { cacheBreakpoints: true });
    // 0 system, 1 user, 2 call, 3 archived result, 4 call, 5 result, 6 answer, 7 user.
    expect(marksOf(messages)).toEqual(['0:0', '3:0', '5:0', '7:0']);
    expect(messages[0]).toEqual({
      role: 'system',
      content: [{ type: 'text', text: SYSTEM, prompt_cache_breakpoint: MARK }],
    });
    expect(messages[7]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'Now the next batch.', prompt_cache_breakpoint: MARK }],
    });
    // The answer before the newest cannot carry one: the tool result before it is marked instead.
    expect(messages[6]).toEqual({ role: 'assistant', content: 'Both passed.' });
    const plain = toOpenAIChat({ systemPrompt: SYSTEM, messages: session });
    expect(marksOf(plain.messages)).toEqual([]);
    expect(unmarked(messages)).toEqual(plain.messages);
    expectTypeOf(messages).toExtend<ChatCompletionMessageParam[]>();
  });

  it("counts the host's marks, takes a TTL, and refuses anything but true, false or { ttl }", () => {
    const host = fromOpenAIChat([
      {
        role: 'user',
        content: [{ type: 'text', text: 'Check the logs.', prompt_cache_breakpoint: { mode: 'explicit' } }],
      },
    ]).messages;
    const { messages } = toOpenAIChat(
      { messages: [...host, ...session.slice(1)] },
      { cacheBreakpoints: { ttl: '12h' } },
    );
    // 0 the host's marked user message, 1 call, 2 archived result, 3 call, 4 result, 5 answer, 6 user.
    expect(marksOf(messages)).toEqual(['0:0', '2:0', '4:0', '6:0']);
    expect(messages[0]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'Check the logs.', prompt_cache_breakpoint: { mode: 'explicit' } }],
    });
    expect(JSON.stringify(messages)).toContain('"ttl":"12h"');
    expect(() => toOpenAIChat({ messages: session }, { cacheBreakpoints: { ttl: '5m' as never } })).toThrow(
      ContextError,
    );
    expect(() => toOpenAIChat({ messages: session }, { cacheBreakpoints: 'yes' as never })).toThrow(
      /cacheBreakpoints must be true, false or \{ ttl/,
    );
  });
});

describe('toOpenAIResponses({ cacheBreakpoints })', () => {
  it('marks input messages and function call outputs, never the model’s items', () => {
    const { items } = toOpenAIResponses(
      { systemPrompt: SYSTEM, messages: session },
      { cacheBreakpoints: { ttl: '30m' } },
    );
    // 0 system, 1 user, 2 call, 3 archived output, 4 call, 5 output, 6 answer, 7 user.
    expect(marksOf(items)).toEqual(['0:0', '3:0', '5:0', '7:0']);
    expect(items[3]).toEqual({
      type: 'function_call_output',
      call_id: 'a',
      output: [{ type: 'input_text', text: 'a: 3 passed', prompt_cache_breakpoint: { mode: 'explicit', ttl: '30m' } }],
    });
    const plain = toOpenAIResponses({ systemPrompt: SYSTEM, messages: session });
    expect(unmarked(items)).toEqual(plain.items);
    expectTypeOf(items).toExtend<ResponseInputItem[]>();
  });
});

const kinds = fc.array(fc.constantFrom('user', 'tool', 'archived', 'summary', 'answer', 'empty'), {
  minLength: 1,
  maxLength: 30,
});

function build(list: readonly string[]): Message[] {
  const messages: Message[] = [];
  list.forEach((kind, index) => {
    if (kind === 'user') messages.push(user(`ask ${index}`));
    else if (kind === 'empty') messages.push(user(''));
    else if (kind === 'answer')
      messages.push({ role: 'assistant', content: [{ type: 'text', text: `done ${index}` }] });
    else if (kind === 'summary')
      messages.push({ role: 'user', content: `summary ${index}`, meta: { kind: 'compaction_summary' } });
    else {
      messages.push(call(`c${index}`));
      messages.push(result(`c${index}`, kind === 'archived' ? { kind: 'tool_result_archived' } : undefined));
    }
  });
  return messages;
}

test.prop([kinds, fc.boolean(), fc.boolean()])(
  'at most 4 marks, at least one when an input can carry it, nothing else changed and nothing mutated',
  (list, withSystem, responses) => {
    const messages = build(list);
    const before = JSON.stringify(messages);
    const conversation = { ...(withSystem ? { systemPrompt: SYSTEM } : {}), messages };
    const marked = responses
      ? toOpenAIResponses(conversation, { cacheBreakpoints: true }).items
      : toOpenAIChat(conversation, { cacheBreakpoints: true }).messages;
    const plain = responses ? toOpenAIResponses(conversation).items : toOpenAIChat(conversation).messages;
    const marks = marksOf(marked);
    expect(marks.length).toBeLessThanOrEqual(4);
    const markable = withSystem || list.some((kind) => kind !== 'answer' && kind !== 'empty');
    expect(marks.length > 0).toBe(markable);
    // The newest item that can carry a mark always carries one.
    const inputs = plain.map((item) => {
      const record = item as unknown as Record<string, unknown>;
      if (record['type'] === 'function_call_output') return true;
      return ['system', 'user', 'tool'].includes(String(record['role'])) && record['content'] !== '';
    });
    if (markable) expect(marks.at(-1)).toBe(`${inputs.lastIndexOf(true)}:0`);
    expect(unmarked(marked)).toEqual(plain);
    expect(JSON.stringify(messages)).toBe(before);
  },
);
