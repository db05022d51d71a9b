import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import type { Message, ToolResultMessage } from '../../src/index.js';
import { serializeConversation } from '../../src/summarizing/index.js';
import { toolResultMessage } from '../../src/testing/index.js';

const toolResult = (text: string, extra: Partial<ToolResultMessage> = {}): ToolResultMessage => ({
  ...toolResultMessage('c1', text, { toolName: 'bash' }),
  ...extra,
});

const conversation: Message[] = [
  {
    role: 'user',
    content: [
      { type: 'text', text: 'What is in this screenshot?' },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'Let me list the files first.' },
      { type: 'thinking', thinking: 'ENCRYPTED', redacted: true },
      { type: 'text', text: 'Listing the files.' },
      { type: 'toolCall', id: 'c1', name: 'bash', arguments: { command: 'ls src' } },
      { type: 'toolCall', id: 'c2', name: 'read', arguments: { path: 'a.ts' } },
    ],
  },
  toolResult('a.ts\nb.ts'),
  toolResult('ENOENT: no such file', { toolCallId: 'c2', toolName: 'read', isError: true }),
  { role: 'user', content: 'hidden note', meta: { agentVisible: false } },
  { role: 'user', content: '[Tool result summary]\nls ran', meta: { kind: 'tool_summary' } },
];

describe('serializeConversation', () => {
  it('labels every part so the transcript reads as a transcript', () => {
    expect(serializeConversation(conversation)).toBe(
      [
        '[User]: What is in this screenshot?\n[image]',
        '[Assistant thinking]: Let me list the files first.',
        '[Assistant]: Listing the files.',
        '[Assistant tool calls]: bash({"command":"ls src"}); read({"path":"a.ts"})',
        '[Tool result bash]: a.ts\nb.ts',
        '[Tool result read (error)]: ENOENT: no such file',
        '[Tool summary]: [Tool result summary]\nls ran',
      ].join('\n\n'),
    );
  });

  it('leaves out messages hidden from the agent, and thinking when asked', () => {
    const text = serializeConversation(conversation, { thinkingMaxChars: 0 });
    expect(text).not.toContain('hidden note');
    expect(text).not.toContain('thinking');
    expect(text).not.toContain('ENCRYPTED');
  });

  it('reports a failed assistant turn', () => {
    const failed: Message = { role: 'assistant', content: [], stopReason: 'error', errorMessage: 'overloaded' };
    expect(serializeConversation([failed])).toBe('[Assistant error]: overloaded');
  });

  it('cuts tool results to 1,800 code points, keeping head and tail', () => {
    const output = `HEAD-LINE\n${'noise line\n'.repeat(1000)}TAIL-LINE: exit code 1`;
    const text = serializeConversation([toolResult(output)], { toolResultMaxChars: 1800 });
    const body = text.slice('[Tool result bash]: '.length);
    expect(Array.from(body)).toHaveLength(1800);
    expect(body.startsWith('HEAD-LINE')).toBe(true);
    expect(body.endsWith('TAIL-LINE: exit code 1')).toBe(true);
    expect(body).toContain('[…]');
  });

  it('never splits an emoji when cutting', () => {
    const emoji = '😀'.repeat(3000);
    const cut = serializeConversation([toolResult(emoji)], { toolResultMaxChars: 1800 });
    expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    for (let max = 1; max < 40; max++) {
      const newest = serializeConversation([toolResult(emoji)], { maxChars: max });
      expect(newest.length).toBeLessThanOrEqual(max);
      expect(newest).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    }
  });

  it('keeps the newest content within maxChars', () => {
    const messages: Message[] = Array.from({ length: 200 }, (_, index) => ({
      role: 'user',
      content: `request ${index}`,
    }));
    const text = serializeConversation(messages, { maxChars: 12_000 });
    expect(text).toBe(serializeConversation(messages));
    const small = serializeConversation(messages, { maxChars: 300 });
    expect(small.length).toBeLessThanOrEqual(300);
    expect(small.endsWith('[User]: request 199')).toBe(true);
    expect(small).not.toContain('request 0\n');
    expect(small.startsWith('[… earlier conversation omitted]')).toBe(true);
  });

  it('cuts tool-call arguments like tool results, and survives arguments JSON cannot encode', () => {
    const circular: Record<string, unknown> = { content: 'x'.repeat(5000) };
    const call: Message = {
      role: 'assistant',
      content: [{ type: 'toolCall', id: 'c', name: 'write', arguments: circular }],
    };
    expect(serializeConversation([call], { toolResultMaxChars: 100 }).length).toBeLessThan(200);
    circular['self'] = circular;
    expect(serializeConversation([call])).toContain('[Assistant tool calls]: write(');
  });

  test.prop([fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 20 }), fc.integer({ min: 0, max: 500 })])(
    'stays within maxChars and never mutates its input',
    (texts, maxChars) => {
      const messages: Message[] = texts.map((text, index) =>
        index % 2 === 0 ? { role: 'user', content: text } : toolResult(text, { toolCallId: `c${index}` }),
      );
      const snapshot = structuredClone(messages);
      const text = serializeConversation(messages, { maxChars, toolResultMaxChars: 50 });
      expect(text.length).toBeLessThanOrEqual(maxChars);
      expect(messages).toEqual(snapshot);
    },
  );
});
