/**
 * Conversations of other domains than coding agents, through the public API with the heuristic
 * summarizer: customer support, data analysis, legal text, medical notes, a long code review and
 * several scripts at once. Each session is compacted more than once; every request must fit the
 * window with every tool call paired, the store must keep every message, and the checkpoint must
 * keep the domain's names, numbers, ids, decisions and constraints.
 */
import type { Message } from 'ctxkit';
import { describe, expect, it } from 'vitest';
import { type DomainTurn, padding, runDomainSession } from './domain-session.js';

const detail = (tokens: number) => padding('The customer added more background about the situation.', tokens * 2);

/** The invariants every domain session keeps, whatever it talks about. */
function expectSessionInvariants(result: Awaited<ReturnType<typeof runDomainSession>>, turns: readonly DomainTurn[]) {
  expect(result.problems).toEqual([]);
  // Nothing lost from the store: every message appended is on the branch, in order.
  expect(result.stored).toEqual(result.appended);
  const compactions = result.events.filter((event) => event.type === 'compaction-end');
  expect(compactions.length).toBeGreaterThan(0);
  // No compaction loop: every compaction made the context smaller, and none ran on two turns in a row without new input.
  for (const compaction of compactions) expect(compaction.tokensAfter).toBeLessThan(compaction.tokensBefore);
  expect(compactions.length).toBeLessThan(turns.length);
  // The user's latest request is sent verbatim as the last user message of the last request.
  const last = result.requests.at(-1)!;
  const lastUser = [...last]
    .reverse()
    .find((message: Message) => message.role === 'user' && message.meta?.kind === undefined);
  expect(lastUser?.content).toEqual(turns.at(-1)!.user);
  // The first turn was compacted: it is no longer sent verbatim.
  expect(JSON.stringify(last)).not.toContain(JSON.stringify(turns[0]!.user).slice(1, -1));
}

/** What the last request sends the model (checkpoint and kept tail), as one text. */
const sentText = (result: Awaited<ReturnType<typeof runDomainSession>>) => JSON.stringify(result.requests.at(-1));

describe("customer support: order numbers, emails, a tracking number and the customer's wishes", () => {
  const turns: DomainTurn[] = [
    {
      user: `Hi, my order #A-10293 has not arrived. My email is jane.doe@example.com.${detail(400)}`,
      answer: `Sorry to hear that. Let me check order #A-10293.${detail(300)}`,
    },
    {
      user: `It was due on 2024-03-14. Tracking number 1Z999AA10123456784.${detail(400)}`,
      tools: [
        {
          name: 'lookup_order',
          arguments: { order: 'A-10293' },
          output: `order A-10293 status=stuck carrier=UPS hub=Memphis since=2024-03-15${detail(300)}`,
        },
      ],
      answer: `The parcel is stuck at the Memphis hub since March 15.${detail(300)}`,
    },
    {
      user: `I do not want a refund, I want a replacement. Please do not call me, email only.${detail(400)}`,
      answer: `We decided to ship replacement order #R-55120 by express at no charge.${detail(300)}`,
    },
    {
      user: `My billing address changed to 42 Elm Street, Springfield.${detail(400)}`,
      answer: `Address updated.${detail(300)}`,
    },
    { user: `What is the status now?${detail(400)}`, answer: `Replacement #R-55120 ships tomorrow.${detail(300)}` },
    {
      user: 'Please send the confirmation to jane.doe@example.com and cancel order #A-10293.',
      answer: 'Done.',
    },
  ];

  it('keeps ids, emails, the decision and the constraints through every compaction', async () => {
    const result = await runDomainSession(turns);
    expectSessionInvariants(result, turns);
    const sent = sentText(result);
    for (const fact of ['A-10293', 'jane.doe@example.com', '1Z999AA10123456784', 'R-55120', 'do not call me'])
      expect(sent).toContain(fact);
  });
});

describe('data analysis: tables and numbers', () => {
  const table = [
    '| region | Q1 | Q2 |',
    '|---|---|---|',
    '| EMEA | 1,204,330 | 1,398,112 |',
    '| APAC | 884,020 | 912,455 |',
  ].join('\n');
  const turns: DomainTurn[] = [
    {
      user: `Here is the sales table:\n${table}\n${detail(400)}`,
      answer: `EMEA grew 16.1% from Q1 to Q2.${detail(300)}`,
    },
    {
      user: `Compute the churn rate: 342 churned of 12,880 customers.${detail(400)}`,
      tools: [
        {
          name: 'python',
          arguments: { code: 'print(342 / 12880)' },
          output: `0.026552795031055903${detail(200)}`,
        },
      ],
      answer: `Churn rate is 2.66%.${detail(300)}`,
    },
    {
      user: `Always use a 95% confidence interval and never include the test accounts (ids 9001-9050).${detail(400)}`,
      answer: `Understood.${detail(300)}`,
    },
    { user: `Now the retention by cohort.${detail(400)}`, answer: `Cohort table ready.${detail(300)}` },
    { user: 'Plot Q2 revenue by region as a bar chart.', answer: 'Chart ready.' },
  ];

  it('keeps the table figures, the computed rate and the analysis constraints', async () => {
    const result = await runDomainSession(turns);
    expectSessionInvariants(result, turns);
    const sent = sentText(result);
    for (const fact of ['1,398,112', '12,880', '2.66%', '95% confidence interval', '9001-9050'])
      expect(sent).toContain(fact);
  });
});

describe('legal text: clause numbers', () => {
  const turns: DomainTurn[] = [
    {
      user: `Review clause 4.2(b) of the MSA: the indemnity cap is $2,000,000.${padding('The clause text continues with definitions.', 400)}`,
      answer: `Clause 4.2(b) caps indemnity at $2,000,000 except for gross negligence.${detail(300)}`,
    },
    {
      user: `Under Section 7.1, termination for convenience requires 90 days notice.${detail(400)}`,
      answer: `Noted: Section 7.1, 90 days.${detail(300)}`,
    },
    {
      user: `We must not accept unlimited liability. Governing law must remain New York.${detail(400)}`,
      answer: `Agreed.${detail(300)}`,
    },
    {
      user: `The counterparty wants Article 12 to add LCIA arbitration in London.${detail(400)}`,
      answer: `We decided to reject LCIA arbitration and keep the New York courts.${detail(300)}`,
    },
    { user: 'Draft a redline of clause 4.2(b) raising the cap to $5,000,000.', answer: 'Redline drafted.' },
  ];

  it('keeps clause and section numbers, amounts, the constraints and the decision', async () => {
    const result = await runDomainSession(turns);
    expectSessionInvariants(result, turns);
    const sent = sentText(result);
    for (const fact of ['4.2(b)', '$2,000,000', 'Section 7.1', 'must not accept unlimited liability', 'New York'])
      expect(sent).toContain(fact);
  });
});

describe('medical notes', () => {
  const turns: DomainTurn[] = [
    {
      user: `Patient: 67-year-old male, MRN 00482913. Allergic to penicillin. BP 158/94, HR 88.${detail(400)}`,
      answer: `Noted the penicillin allergy.${detail(300)}`,
    },
    {
      user: `Current meds: metformin 500 mg twice daily, lisinopril 10 mg daily.${detail(400)}`,
      answer: `Recorded.${detail(300)}`,
    },
    {
      user: `HbA1c 8.1% on 2024-02-01; eGFR 52 mL/min/1.73m2. Do not prescribe NSAIDs.${detail(400)}`,
      answer: `We decided to increase lisinopril to 20 mg daily.${detail(300)}`,
    },
    { user: `Any interactions to watch?${detail(400)}`, answer: `None with the current plan.${detail(300)}` },
    { user: 'Write the discharge summary for MRN 00482913.', answer: 'Drafting.' },
  ];

  it('keeps the record number, doses, values and the prescribing constraint', async () => {
    const result = await runDomainSession(turns);
    expectSessionInvariants(result, turns);
    const sent = sentText(result);
    for (const fact of ['00482913', 'penicillin', '500 mg', '8.1%', 'Do not prescribe NSAIDs', '20 mg'])
      expect(sent).toContain(fact);
  });
});

describe('a long code review', () => {
  const files = ['src/parser.ts', 'src/lexer.ts', 'src/ast.ts', 'src/emit.ts', 'src/index.ts', 'test/parser.test.ts'];
  const turns: DomainTurn[] = [
    ...files.map((file, index) => ({
      user: `Review ${file}. Keep the public API unchanged.${detail(150)}`,
      tools: [
        {
          name: 'read_file',
          arguments: { path: file },
          output: `${file}\n${Array.from({ length: 80 }, (_, line) => `${line + 1}: export const value${index}_${line} = ${line};`).join('\n')}`,
        },
      ],
      answer: `${file}:${10 + index} uses a mutable default; the fix is to freeze it.${detail(150)}`,
    })),
    { user: 'Summarize the review for the PR description.', answer: 'Summary written.' },
  ];

  it('keeps the files, the findings and the constraint across tool-heavy turns', async () => {
    const result = await runDomainSession(turns);
    expectSessionInvariants(result, turns);
    const sent = sentText(result);
    for (const fact of ['src/parser.ts', 'src/lexer.ts', 'Keep the public API unchanged']) expect(sent).toContain(fact);
  });
});

describe('many scripts: CJK, Arabic, Hindi, emoji, mixed', () => {
  const turns: DomainTurn[] = [
    {
      user: `请帮我把订单号 CN-88231 的地址改成上海市浦东新区世纪大道100号。不要打电话给我。${padding('这是更多的背景信息。', 400)}`,
      answer: `好的，订单 CN-88231 的地址已更新。${padding('更多说明。', 300)}`,
    },
    {
      user: `مرحبا، رقم الطلب AR-4410 لم يصل بعد. بريدي هو omar@example.ae ${padding('هذه تفاصيل إضافية عن الطلب.', 400)}`,
      answer: `سنتحقق من الطلب AR-4410. ${padding('شرح إضافي.', 300)}`,
    },
    {
      user: `कृपया मेरी बुकिंग HI-7781 को 5 मार्च तक बदल दें। 🙏 ${padding('यह अतिरिक्त जानकारी है।', 400)}`,
      answer: `बुकिंग HI-7781 बदल दी गई है। ✅ ${padding('और विवरण।', 300)}`,
    },
    {
      user: `注文番号 JP-1209 をキャンセルしてください 🚫 ${padding('詳細はこちらです。', 400)}`,
      answer: `JP-1209 をキャンセルしました ✅ ${padding('追加の説明です。', 300)}`,
    },
    { user: 'Mixed: 订单 CN-88231 and طلب AR-4410 — confirm both by email 📧 👨‍👩‍👧', answer: 'Both confirmed.' },
  ];

  it('keeps every script’s ids and the Chinese constraint, and cuts no character in half', async () => {
    const result = await runDomainSession(turns);
    expectSessionInvariants(result, turns);
    const sent = sentText(result);
    for (const fact of ['CN-88231', 'AR-4410', 'omar@example.ae', 'HI-7781', '不要打电话给我'])
      expect(sent).toContain(fact);
  });
});
