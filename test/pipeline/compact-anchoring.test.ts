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
      // No room for pins beyond the summary's: the whole checkpoint within 256 tokens.
      messages = (await compact(messages, { summarizer: vague, config, maxOutputTokens: 256, maxPinnedTokens: 0 }))
        .messages;
      const summary = String(messages[0]!.content);
      expect([...summary].length).toBeLessThanOrEqual(256 * 4 + 40);
      expect(summary).toContain('Make the config loader strict.');
      expect(summary).toContain('Never read process.env outside src/config/.');
      expect(summary).not.toMatch(/file-changed!?:[^\n]*src\/server\.ts/);
    }
  });

  it("gives the pinned facts their own room beyond the summarizer's budget, within maxPinnedTokens", async () => {
    // 16 tsc errors with their messages do not fit in 256 tokens beside the rest.
    const held = await compact(session(), { summarizer: vague, config, maxOutputTokens: 256, maxPinnedTokens: 0 });
    expect(held.anchors?.lost.length).toBeGreaterThan(0);
    const roomy = await compact(session(), { summarizer: vague, config, maxOutputTokens: 256, maxPinnedTokens: 2_000 });
    expect(roomy.anchors?.lost).toEqual([]);
    expect([...roomy.summary].length).toBeGreaterThan(256 * 4);
    expect([...roomy.summary].length).toBeLessThanOrEqual((256 + 2_000) * 4);
    // The summarizer was still asked for no more than its own budget.
    const asked: number[] = [];
    await compact(session(), {
      summarizer: {
        async summarize(request) {
          asked.push(request.maxOutputTokens ?? 0);
          return 'Short.';
        },
      },
      config,
      maxOutputTokens: 256,
    });
    expect(asked[0]).toBeLessThanOrEqual(256);
    // By default the room is a quarter of the effective limit (8,000 tokens here): every fact is pinned.
    const byDefault = await compact(session(), { summarizer: vague, config, maxOutputTokens: 256 });
    expect(byDefault.anchors?.lost).toEqual([]);
    expect([...byDefault.summary].length).toBeLessThanOrEqual((256 + 2_000) * 4);
  });

  it('refuses a maxPinnedTokens that is not a whole number ≥ 0, naming it', async () => {
    await expect(compact(session(), { summarizer: vague, config, maxPinnedTokens: -1 })).rejects.toThrow(
      /maxPinnedTokens/,
    );
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
