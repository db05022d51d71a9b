// A compaction that folds archived or spilled tool results away keeps one pinned line per result
// naming its recall id, so the model can still `recall` it by id (issue 26's regression).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  compact,
  heuristicSummarizer,
  type Message,
  processToolOutput,
  type SpillStore,
  type Summarizer,
  summarizeToolResults,
} from 'ctxkit';
import { recallIdOf } from 'ctxkit/agent-tools';
import { type Anchor, checkAnchors, extractAnchors, pinAnchors } from 'ctxkit/summarizing';
import { assistantMessage, toolCallMessage, toolResultMessage, userMessage } from 'ctxkit/testing';
import { describe, expect, it } from 'vitest';
import type { ToolCorpus } from '../../bench/tool-corpus.js';
import { corpusRun, toolRun } from '../helpers/tool-runs.js';

const corpus = JSON.parse(
  readFileSync(new URL('../fixtures/tool-outputs/real/corpus.json', import.meta.url), 'utf8'),
) as ToolCorpus;
const tsc = corpus.entries.find((entry) => entry.name === 'tsc-pretty')!;
const vitest = corpus.entries.find((entry) => entry.name === 'vitest')!;

/** A model that keeps none of the facts, ids included. */
const vague: Summarizer = { summarize: async () => 'The user asked for some changes and work has started.' };
const config = { keepRecentTokens: 1_500, toolCallCutoff: 1, toolSummaryBatch: 0 };

/** A goal, a failing tsc run and a read, then talk: with cutoff 1 the first two results get archived. */
async function archivedSession(): Promise<Message[]> {
  const messages = [
    userMessage('Fix the type errors in the order module.'),
    ...corpusRun(tsc, 'call_tsc'),
    ...toolRun('call_read', 'read', { path: 'src/order.ts' }, 'export function total() {}\n'.repeat(80)),
    ...toolRun('call_grep', 'grep', { pattern: 'total' }, 'src/order.ts:8: total'),
  ];
  const { messages: archived } = await summarizeToolResults(messages, { config, strategy: 'heuristic' });
  return [...archived, assistantMessage('a'.repeat(6_000)), userMessage('b'.repeat(6_000)), assistantMessage('On it.')];
}

function recallLines(summary: string): string[] {
  return summary.split('\n').filter((line) => line.startsWith('- recall: '));
}

describe('recall ids through compaction', () => {
  it('pins one line per archived result: its recall id, the call, its size and how it ended', async () => {
    for (const summarizer of [vague, heuristicSummarizer]) {
      const result = await compact(await archivedSession(), { summarizer, config });
      const lines = recallLines(result.summary);
      expect(lines).toContain(
        `- recall: ${recallIdOf('call_tsc')}: bash \`${tsc.command}\` (3.4k chars, failed (exit 2))`,
      );
      expect(lines).toContain(`- recall: ${recallIdOf('call_read')}: read src/order.ts (2.2k chars)`);
      // The grep result was never archived: still sent in full before the compaction, no recall line.
      expect(result.summary).not.toContain(recallIdOf('call_grep'));
    }
  });

  it('names the id of an output cut into the spill store, and keeps it across later compactions', async () => {
    const saved = new Map<string, string>();
    const spillStore: SpillStore = {
      save: async (text) => {
        const path = `spill-${saved.size}.log`;
        saved.set(path, text);
        return { path, sha256: createHash('sha256').update(text).digest('hex'), bytes: Buffer.byteLength(text) };
      },
    };
    const output = await processToolOutput(vitest.output.repeat(40), {
      spillStore,
      limits: { maxLines: 40, largeOutputThreshold: 50_000 },
      recallId: recallIdOf('call_vitest'),
    });
    let messages: Message[] = [
      userMessage('Make the test suite pass.'),
      toolCallMessage([{ id: 'call_vitest', name: 'bash', arguments: { command: vitest.command } }]),
      toolResultMessage('call_vitest', output.text, { toolName: 'bash', isError: true }),
      assistantMessage('c'.repeat(6_000)),
      userMessage('Go on.'),
    ];
    const line = `- recall: ${recallIdOf('call_vitest')}: bash \`${vitest.command}\` (97k chars, error)`;
    for (let round = 0; round < 3; round++) {
      messages = (await compact(messages, { summarizer: vague, config })).messages;
      expect(recallLines(String(messages[0]!.content))).toEqual([line]);
      messages = [...messages, assistantMessage(`Round ${round}: ${'d'.repeat(6_000)}`), userMessage('Go on.')];
    }
  });

  it('drops recall lines first, the oldest first, when the pinned budget is tight', async () => {
    const messages: Message[] = [userMessage('Audit every module for `TODO` markers.')];
    for (let index = 0; index < 30; index++)
      messages.push(...toolRun(`read_${index}`, 'read', { path: `src/module-${index}.ts` }, 'x'.repeat(3_000)));
    messages.push(...corpusRun(tsc, 'call_tsc'));
    const { messages: archived } = await summarizeToolResults(messages, { config, strategy: 'heuristic' });
    const anchors = extractAnchors(archived);
    const recall = anchors.filter((anchor) => anchor.category === 'recall');
    expect(recall.map((anchor) => anchor.keys[0])).toEqual(
      Array.from({ length: 30 }, (_, index) => recallIdOf(`read_${index}`)),
    );
    let partly = 0;
    for (let maxChars = 1_000; maxChars <= 6_000; maxChars += 100) {
      const result = pinAnchors('', anchors, { maxChars });
      expect([...result.text].length).toBeLessThanOrEqual(maxChars);
      const kept = (anchor: Anchor) => checkAnchors(result.text, [anchor]).lost.length === 0;
      // A recall line is kept only when every fact of a higher priority is; of the recall lines, the newest.
      const keptRecall = recall.map(kept);
      const firstKept = keptRecall.indexOf(true);
      if (firstKept < 0) continue;
      expect(keptRecall.slice(firstKept).every(Boolean)).toBe(true);
      expect(anchors.filter((anchor) => anchor.category !== 'recall').every(kept)).toBe(true);
      if (firstKept > 0) partly++;
    }
    expect(partly).toBeGreaterThan(0);
  });

  it('keeps at most the 64 newest recall anchors in a long session', async () => {
    const messages: Message[] = [userMessage('Read everything.')];
    for (let index = 0; index < 70; index++)
      messages.push(...toolRun(`read_${index}`, 'read', { path: `doc-${index}.md` }, 'y'.repeat(500)));
    const { messages: archived } = await summarizeToolResults(messages, { config, strategy: 'heuristic' });
    const ids = extractAnchors(archived)
      .filter((anchor) => anchor.category === 'recall')
      .map((anchor) => anchor.keys[0]);
    // 69 archived (cutoff 1): the newest 64 of them.
    expect(ids).toEqual(Array.from({ length: 64 }, (_, index) => recallIdOf(`read_${index + 5}`)));
  });
});
