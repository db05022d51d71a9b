// A user's constraints in Chinese, Japanese and Korean chat are constraints too: the heuristic
// checkpoint lists them under Constraints & Preferences, and they are anchored as required facts
// (never dropped from a checkpoint), as `do not` and `must` are in English.
import { extractAnchors } from 'ctxkit/summarizing';
import { assistantMessage, userMessage } from 'ctxkit/testing';
import { describe, expect, it } from 'vitest';
import { heuristicCheckpoint } from '../helpers/heuristic-checkpoint.js';

const cases: [string, string, string][] = [
  [
    'Chinese data analysis',
    '我们上个季度华东地区的销售额增长了百分之十八，但华南地区下降了百分之五。请帮我分析一下原因。另外，请不要使用任何未经审计的数据。',
    '另外，请不要使用任何未经审计的数据。',
  ],
  [
    'Japanese contract review',
    '契約書の第14条2項（責任制限）について確認させてください。ライセンシー側の間接損害も上限の対象になりますか？必ず条文を引用してください。',
    '必ず条文を引用してください。',
  ],
  [
    'Korean support chat',
    '주문 번호 48213의 머그컵이 깨져서 도착했습니다. 교환을 원합니다. 카드로 다시 결제하지 마세요.',
    '카드로 다시 결제하지 마세요.',
  ],
];

function section(summary: string, title: string): string[] {
  const lines = summary.split('\n');
  const start = lines.indexOf(`## ${title}`);
  const end = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  return lines.slice(start + 1, end === -1 ? undefined : end);
}

describe('constraints in CJK chat', () => {
  it.each(cases)('%s: the constraint is listed and anchored as required', async (_, said, constraint) => {
    const messages = [userMessage(said), assistantMessage('了解しました。/ 好的。/ 알겠습니다.')];
    expect(section(await heuristicCheckpoint(messages), 'Constraints & Preferences')).toContain(`- ${constraint}`);
    const anchored = extractAnchors(messages).filter((anchor) => anchor.category === 'constraint');
    expect(anchored.map((anchor) => anchor.text)).toEqual([constraint]);
    expect(anchored[0]?.required).toBe(true);
  });
});
