import { readFileSync } from 'node:fs';
import { compact, heuristicSummarizer, type Message, type Summarizer } from 'ctxkit';
import { checkAnchors, extractAnchors } from 'ctxkit/summarizing';
import { assistantMessage, toolCallMessage, toolResultMessage, userMessage } from 'ctxkit/testing';
import { describe, expect, it } from 'vitest';

const tsc = readFileSync(new URL('../fixtures/tool-outputs/tsc.txt', import.meta.url), 'utf8');

function session(): Message[] {
  return [
    userMessage('Make the config loader strict. Never read process.env outside src/config/. Keep Node 20 support.'),
    toolCallMessage([{ id: 'r1', name: 'read', arguments: { path: 'src/server.ts' } }]),
    toolResultMessage('r1', 'x'.repeat(4000), { toolName: 'read' }),
    toolCallMessage([
      { id: 'e1', name: 'edit', arguments: { path: 'src/config/load-config.ts', old_string: 'a', new_string: 'b' } },
    ]),
    toolResultMessage('e1', 'Edited.', { toolName: 'edit' }),
    toolCallMessage([{ id: 'b1', name: 'bash', arguments: { command: 'npx tsc --noEmit' } }]),
    toolResultMessage('b1', `${tsc}\nexit code 2`, { toolName: 'bash', isError: true }),
    assistantMessage('y'.repeat(8000)),
    userMessage('z'.repeat(8000)),
    assistantMessage('Working on it.'),
  ];
}

/** A model that answers with a vague paragraph: it keeps none of the facts. */
const vague: Summarizer = { summarize: async () => 'The user asked for some changes and work has started.' };
const config = { keepRecentTokens: 2_000 };

describe('compact with anchoring', () => {
  it("pins every fact a model's checkpoint lost, within the budget, and carries the anchors on the summary message", async () => {
    const result = await compact(session(), { summarizer: vague, config, maxOutputTokens: 1_000 });
    expect([...result.summary].length).toBeLessThanOrEqual(4_000);
    expect(result.summary).toContain('## Pinned Facts');
    expect(result.anchors?.lost).toEqual([]);
    const anchors = extractAnchors(session().slice(0, result.firstKeptIndex));
    expect(checkAnchors(result.summary, anchors).lost).toEqual([]);
    expect(result.messages[0]!.meta?.anchors).toEqual(anchors);
  });

  it('keeps the goal and constraints through rounds at the smallest budget, and never lists a read file as changed', async () => {
    let messages = session();
    for (let round = 0; round < 5; round++) {
      messages = [...messages, userMessage(`Round ${round}: ${'w'.repeat(6000)}`)];
      messages = (await compact(messages, { summarizer: vague, config, maxOutputTokens: 256 })).messages;
      const summary = String(messages[0]!.content);
      expect([...summary].length).toBeLessThanOrEqual(256 * 4 + 40);
      expect(summary).toContain('Make the config loader strict.');
      expect(summary).toContain('Never read process.env outside src/config/.');
      expect(summary).not.toMatch(/file-changed!?:[^\n]*src\/server\.ts/);
    }
  });

  it('leaves a summary that kept everything as it was, and can be turned off', async () => {
    const result = await compact(session(), { summarizer: heuristicSummarizer, config, maxOutputTokens: 4_000 });
    expect(result.anchors?.pinned.filter((anchor) => anchor.required)).toEqual([]);
    const off = await compact(session(), { summarizer: vague, config, anchoring: false });
    expect(off.summary).toBe('The user asked for some changes and work has started.');
    expect(off.anchors).toBeUndefined();
    expect(off.messages[0]!.meta?.anchors).toBeUndefined();
  });
});
