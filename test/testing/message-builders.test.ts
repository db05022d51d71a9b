import { describe, expect, it } from 'vitest';
import { prepareModelMessages } from '../../src/index.js';
import { messageSchema, SUMMARY_PREFIX } from '../../src/schemas/index.js';
import { summaryText } from '../../src/summarizing/index.js';
import {
  assistantMessage,
  checkToolPairing,
  conversation,
  imageMessage,
  summaryMessage,
  toolCallMessage,
  toolResultMessage,
  userMessage,
} from '../../src/testing/index.js';

describe('message builders', () => {
  it('build messages that match the message schema', () => {
    const messages = [
      userMessage('hi', { id: 'm1' }),
      assistantMessage('hello', { thinking: 'greet back', usage: { input: 10, output: 2 } }),
      toolCallMessage(
        [
          { id: 'c1', name: 'ls' },
          { id: 'c2', name: 'cat', arguments: { path: 'a' } },
        ],
        'looking',
      ),
      toolResultMessage('c1', 'a.ts', { toolName: 'ls' }),
      toolResultMessage('c2', 'boom', { toolName: 'cat', isError: true, meta: { kind: 'tool_result' } }),
      imageMessage('iVBORw0KGgo=', { text: 'see', mimeType: 'image/jpeg' }),
      summaryMessage('## Goal\nship'),
    ];
    for (const message of messages) expect(messageSchema.safeParse(message).success).toBe(true);
  });

  it('fill in the documented defaults', () => {
    expect(userMessage('x')).toEqual({ role: 'user', content: 'x' });
    expect(assistantMessage('y')).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'y' }],
      stopReason: 'stop',
    });
    expect(toolCallMessage([{ id: 'c', name: 'n' }])).toEqual({
      role: 'assistant',
      content: [{ type: 'toolCall', id: 'c', name: 'n', arguments: {} }],
      stopReason: 'toolUse',
    });
    expect(toolResultMessage('c', 'out')).toEqual({
      role: 'toolResult',
      toolCallId: 'c',
      toolName: 'tool',
      content: [{ type: 'text', text: 'out' }],
    });
    expect(imageMessage('data')).toEqual({
      role: 'user',
      content: [{ type: 'image', data: 'data', mimeType: 'image/png' }],
    });
  });

  it('builds a summary message the way compaction does', () => {
    const message = summaryMessage('the checkpoint');
    expect(message.content).toBe(`${SUMMARY_PREFIX}\nthe checkpoint`);
    expect(message.meta?.kind).toBe('compaction_summary');
    expect(summaryText(message)).toBe('the checkpoint');
  });

  it('flattens a conversation and skips undefined and false parts', () => {
    const skip = false;
    const messages = conversation(
      userMessage('a'),
      [toolCallMessage([{ id: 'c1', name: 'ls' }]), toolResultMessage('c1', 'out')],
      skip && userMessage('never'),
      undefined,
      assistantMessage('b'),
    );
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant']);
    expect(checkToolPairing(prepareModelMessages(messages))).toEqual([]);
  });
});
