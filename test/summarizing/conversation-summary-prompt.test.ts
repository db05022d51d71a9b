import { describe, expect, it } from 'vitest';
import { ContextError, type Message } from '../../src/index.js';
import { conversationSummaryPrompt, SUMMARY_SECTIONS } from '../../src/summarizing/index.js';

const conversation: Message[] = [
  { role: 'user', content: 'Add rate limiting to the public API.\nDo not add dependencies.' },
  { role: 'assistant', content: [{ type: 'toolCall', id: 'call_1', name: 'bash', arguments: { command: 'npx tsc' } }] },
  {
    role: 'toolResult',
    toolCallId: 'call_1',
    toolName: 'bash',
    content: [{ type: 'text', text: 'src/a.ts(3,1): error TS2345' }],
  },
  { role: 'assistant', content: [{ type: 'text', text: 'The loader is the root cause.' }] },
  { role: 'user', content: 'Go on.' },
];

describe('conversationSummaryPrompt', () => {
  it('names the part of the conversation above to summarize instead of quoting it', () => {
    const prompt = conversationSummaryPrompt({
      kind: 'compaction',
      messages: conversation.slice(0, 4),
      conversation,
      text: '',
      maxOutputTokens: 2_000,
    });
    expect(prompt).toContain('up to and including the message that begins “The loader is the root cause.”');
    for (const section of SUMMARY_SECTIONS.compaction) expect(prompt).toContain(`## ${section}`);
    expect(prompt).not.toContain('error TS2345');
    expect(prompt).toContain('2000 tokens');
    expect(prompt).not.toContain('UPDATE');
  });

  it('asks to update the earlier checkpoint, and names a tool call when the last message is one', () => {
    const prompt = conversationSummaryPrompt({
      kind: 'compaction',
      messages: conversation.slice(0, 2),
      conversation,
      previousSummary: '## Goal\n- Rate limiting',
      text: '',
      maxOutputTokens: 500,
    });
    expect(prompt).toContain('the call of bash (call_1)');
    expect(prompt).toContain('UPDATE');
  });

  it('lists the tool call ids of a batch, with the digest format', () => {
    const prompt = conversationSummaryPrompt({
      kind: 'tool_results',
      messages: conversation.slice(1, 3),
      conversation,
      text: '',
      maxOutputTokens: 300,
    });
    expect(prompt).toContain('call_1');
    expect(prompt).toContain('<tool>');
  });

  it('refuses a request whose conversation is not a message list', () => {
    expect(() =>
      conversationSummaryPrompt({
        kind: 'compaction',
        messages: [],
        conversation: [{ role: 'robot' }] as never,
        text: '',
        maxOutputTokens: 1,
      }),
    ).toThrow(ContextError);
  });
});
