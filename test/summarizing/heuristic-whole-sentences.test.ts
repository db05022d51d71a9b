// The heuristic checkpoint of conversations without tools, from other domains than coding (customer
// support, data analysis in Chinese, a contract review in Japanese), whose messages are longer than a
// checkpoint item: an item is cut where a sentence ends (or, for one long sentence, between words),
// never inside a word, and says that it was cut.
import { assistantMessage, userMessage } from 'ctxkit/testing';
import { describe, expect, it } from 'vitest';
import { heuristicCheckpoint } from '../helpers/heuristic-checkpoint.js';

const support = [
  'Hi, I ordered the ceramic pour-over set (order #48213) on March 3rd and it arrived yesterday with the carafe cracked along the handle.',
  'The outer box looked fine, so I think it was packed badly rather than dropped.',
  'I would like a replacement rather than a refund, because the set was a gift for my sister’s birthday on the 20th and I cannot find it anywhere else.',
  'Can you ship the replacement by express?',
  'I can send photos if needed.',
].join(' ');
const analysis =
  '你好，我们上个季度华东地区的销售额增长了百分之十八，但华南地区下降了百分之五。请帮我分析一下原因，并准备一份给董事会的简报，重点说明渠道变化和价格调整的影响。另外，请不要使用任何未经审计的数据。'.repeat(
    4,
  );
const review =
  '契約書の第14条2項（責任制限）について確認させてください。ライセンシー側の間接損害も上限の対象になりますか？また、第9条の秘密保持義務は契約終了後何年間有効ですか。必ず条文を引用してください。'.repeat(
    4,
  );
const oneSentence = `Please review the attached master services agreement ${'and the annexes it refers to '.repeat(14)}before Friday.`;

/** The items of the checkpoint that start with the start of `said`. */
function itemsOf(summary: string, said: string): string[] {
  return summary
    .split('\n')
    .map((line) => line.replace(/^\s*(?:- (?:\[ \] )?|\d+\. (?:Continue the latest request: )?)/, ''))
    .filter((item) => item.startsWith(said.slice(0, 24)));
}

describe('heuristic checkpoint items longer than an item may be', () => {
  it.each([
    ['customer support', support],
    ['data analysis (Chinese)', analysis],
    ['contract review (Japanese)', review],
  ])('%s: cut where a sentence ends, marked as cut', async (_, said) => {
    const summary = await heuristicCheckpoint([
      userMessage(said),
      assistantMessage('Understood, working on it.'),
      userMessage('Thanks, and keep me posted.'),
    ]);
    const items = itemsOf(summary, said);
    // Longer than an item may be at any level of detail (300 code points at most).
    expect(said.length).toBeGreaterThan(300);
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      expect(item).toMatch(/[.?!。？！] …$/);
      expect(said.startsWith(item.slice(0, -2))).toBe(true);
    }
  });

  it('one long sentence: cut between words, marked as cut', async () => {
    const summary = await heuristicCheckpoint([userMessage(oneSentence), assistantMessage('On it.')]);
    const items = itemsOf(summary, oneSentence);
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      expect(item).toMatch(/\S …$/);
      expect(oneSentence.startsWith(`${item.slice(0, -2)} `)).toBe(true);
    }
  });
});
