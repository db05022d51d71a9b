import { describe, expect, it } from 'vitest';
import { CompactionError, compact } from '../../src/index.js';
import type { SummaryRequest } from '../../src/summarizing/index.js';
import {
  assistantMessage,
  createScriptedSummarizer,
  toolCallMessage,
  toolResultMessage,
  userMessage,
} from '../../src/testing/index.js';

const request = (text: string, signal?: AbortSignal): SummaryRequest => ({
  kind: 'compaction',
  messages: [],
  text,
  maxOutputTokens: 100,
  ...(signal ? { signal } : {}),
});

describe('createScriptedSummarizer', () => {
  it('answers in script order and records every request', async () => {
    const summarizer = createScriptedSummarizer([
      'first',
      { text: 'second', stopReason: 'length' },
      (received) => `third for ${received.text}`,
      async () => 'fourth',
    ]);
    expect(summarizer.remaining).toBe(4);
    expect(await summarizer.summarize(request('a'))).toBe('first');
    expect(await summarizer.summarize(request('b'))).toEqual({ text: 'second', stopReason: 'length' });
    expect(await summarizer.summarize(request('c'))).toBe('third for c');
    expect(await summarizer.summarize(request('d'))).toBe('fourth');
    expect(summarizer.requests.map((received) => received.text)).toEqual(['a', 'b', 'c', 'd']);
    expect(summarizer.remaining).toBe(0);
  });

  it('throws scripted errors, then goes on with the next step', async () => {
    const failure = new Error('provider down');
    const summarizer = createScriptedSummarizer([failure, 'after']);
    await expect(summarizer.summarize(request('a'))).rejects.toBe(failure);
    await expect(summarizer.summarize(request('b'))).resolves.toBe('after');
  });

  it('rejects a function step that throws', async () => {
    const summarizer = createScriptedSummarizer([
      () => {
        throw new Error('inside');
      },
    ]);
    await expect(summarizer.summarize(request('a'))).rejects.toThrow('inside');
  });

  it('fails clearly when the script is used up', async () => {
    const summarizer = createScriptedSummarizer(['only']);
    await summarizer.summarize(request('a'));
    await expect(summarizer.summarize(request('b'))).rejects.toThrow(/script has 1 step\(s\), but request 2/);
    expect(summarizer.requests).toHaveLength(2);
  });

  it('rejects an already aborted request without using a step', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop now'));
    const summarizer = createScriptedSummarizer(['kept']);
    await expect(summarizer.summarize(request('a', controller.signal))).rejects.toThrow('stop now');
    expect(summarizer.remaining).toBe(1);
    await expect(summarizer.summarize(request('b'))).resolves.toBe('kept');
  });

  it('rejects a pending step as soon as the signal fires', async () => {
    const controller = new AbortController();
    const summarizer = createScriptedSummarizer([() => new Promise<string>(() => {})]);
    const pending = summarizer.summarize(request('a', controller.signal));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('drives compact: its request is recorded and its failure surfaces as a CompactionError', async () => {
    const messages = [
      userMessage('x'.repeat(4_000)),
      toolCallMessage([{ id: 'c1', name: 'read' }]),
      toolResultMessage('c1', 'y'.repeat(4_000)),
      assistantMessage('z'.repeat(4_000)),
      userMessage('next'),
    ];
    const config = { keepRecentTokens: 50 };
    const summarizer = createScriptedSummarizer(['short summary', new Error('rate limited')]);
    const result = await compact(messages, { summarizer, config });
    expect(result.summary).toMatch(/^short summary(\n\n## Pinned Facts\n|$)/);
    expect(summarizer.requests[0]?.kind).toBe('compaction');
    const failed = await compact(messages, { summarizer, config }).catch((error: unknown) => error);
    expect(CompactionError.isInstance(failed)).toBe(true);
  });

  it('answers with afterScript once the script is used up, and keeps recording', async () => {
    const summarizer = createScriptedSummarizer(['first'], {
      afterScript: (received) => `again for ${received.text}`,
    });
    expect(await summarizer.summarize(request('a'))).toBe('first');
    expect(await summarizer.summarize(request('b'))).toBe('again for b');
    expect(await summarizer.summarize(request('c'))).toBe('again for c');
    expect(summarizer.requests.map((received) => received.text)).toEqual(['a', 'b', 'c']);
    expect(summarizer.remaining).toBe(0);
    const failing = createScriptedSummarizer([], { afterScript: new Error('down') });
    await expect(failing.summarize(request('a'))).rejects.toThrow('down');
  });
});
