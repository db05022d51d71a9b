// A checkpoint cut to make room for pinned facts keeps what a resumer needs most: the goal, the next
// steps with the latest request, the critical context; old progress and done items go first, whole
// lines or whole sentences. Found by a domain trial (a 16K window, many ids, emails and numbers):
// the cut used to take the checkpoint's end, so "Next Steps" came out empty.
import { compact, heuristicSummarizer, type Message, type Summarizer } from 'ctxkit';
import { extractAnchors, pinAnchors } from 'ctxkit/summarizing';
import { assistantMessage, toolCallMessage, toolResultMessage, userMessage } from 'ctxkit/testing';
import { describe, expect, it } from 'vitest';

const LATEST = 'Now send the refund confirmation to every customer whose ticket is still open.';

/** A support session dense in ids, emails and amounts: many facts to pin. */
function supportSession(): Message[] {
  const messages: Message[] = [
    userMessage('Reconcile the refunds of the March billing incident. Never email a customer twice.'),
  ];
  for (let index = 0; index < 24; index++) {
    // Halfway through, the user asks for the next thing: the checkpoint must still say so.
    if (index === 12) messages.push(userMessage(LATEST), assistantMessage('Starting with the open tickets.'));
    const id = `call-${index}`;
    const ticket = `TCK-${48_210 + index * 7}`;
    const amount = (120.5 + index * 3.25).toFixed(2);
    const failed = index === 20;
    messages.push(
      toolCallMessage([{ id, name: failed ? 'send_mail' : 'lookup_ticket', arguments: { ticket } }]),
      toolResultMessage(
        id,
        failed
          ? `error: mail service answered 429 Too Many Requests for cust_${9_100 + index}@example.org`
          : `ticket ${ticket} customer cust_${9_100 + index}@example.org order ORD-${771_000 + index * 13} amount $${amount} status ${index % 3 === 0 ? 'open' : 'refunded'}`,
        { toolName: failed ? 'send_mail' : 'lookup_ticket', isError: failed },
      ),
      assistantMessage(`Checked ${ticket}: refund of $${amount} recorded.`),
    );
  }
  messages.push(userMessage('Go on.'), assistantMessage('Continuing with the next ticket.'));
  return messages;
}

/** A model that writes a long checkpoint: many progress lines before the next steps. */
const verboseModel: Summarizer = {
  async summarize() {
    const done = Array.from(
      { length: 60 },
      (_, index) => `- Looked up ticket ${index} and confirmed its refund amount against the ledger entry.`,
    );
    return [
      '## Goal',
      '- Reconcile the refunds of the March billing incident.',
      '',
      '## Constraints & Preferences',
      '- Never email a customer twice.',
      '',
      '## Progress',
      '### Done',
      ...done,
      '### In Progress',
      '- [ ] Sending confirmations.',
      '',
      '## Key Decisions',
      '- Refunds are matched by order id, not by email.',
      '',
      '## Next Steps',
      `1. Continue the latest request: ${LATEST}`,
      '',
      '## Critical Context',
      '- The mail service rate-limits at 50 messages a minute.',
    ].join('\n');
  },
};

/** The section of a checkpoint under a heading, its lines up to the next heading. */
function sectionLines(summary: string, title: string): string[] {
  const lines = summary.split('\n');
  const start = lines.indexOf(`## ${title}`);
  if (start < 0) return [];
  const end = lines.findIndex((line, index) => index > start && /^#{1,3} /.test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end).filter((line) => line.trim());
}

describe('a checkpoint cut to make room for pinned facts', () => {
  for (const [name, summarizer] of [
    ['the heuristic summarizer', heuristicSummarizer],
    ['a model writing a long checkpoint', verboseModel],
  ] as const) {
    it(`keeps the next steps and the critical context with ${name}`, async () => {
      const messages = supportSession();
      const result = await compact(messages, {
        summarizer,
        config: { keepRecentTokens: 40, toolCallCutoff: 4 },
        maxOutputTokens: 300,
      });
      const summary = result.summary;
      expect(sectionLines(summary, 'Next Steps').join('\n')).toContain(LATEST);
      expect(sectionLines(summary, 'Critical Context').length).toBeGreaterThan(0);
      expect(sectionLines(summary, 'Goal').join('\n')).toContain('Reconcile the refunds');
    });
  }

  it('shortens the done items first and cuts at line ends, within the budget', async () => {
    const summary = await verboseModel.summarize({ kind: 'compaction', messages: [], text: '', maxOutputTokens: 500 });
    const text = typeof summary === 'string' ? summary : summary.text;
    const anchors = extractAnchors(supportSession());
    const maxChars = 2_000;
    const result = pinAnchors(text, anchors, { maxChars });
    expect([...result.text].length).toBeLessThanOrEqual(maxChars);
    const body = result.text.slice(0, result.text.indexOf('## Pinned Facts'));
    const original = new Set(text.split('\n'));
    for (const line of body.split('\n')) expect(original.has(line), line).toBe(true);
    expect(sectionLines(body, 'Next Steps')).toEqual([`1. Continue the latest request: ${LATEST}`]);
    expect(sectionLines(body, 'Critical Context')).toEqual(['- The mail service rate-limits at 50 messages a minute.']);
    expect(sectionLines(body, 'Key Decisions')).toHaveLength(1);
    // Done items went, the oldest first.
    const done = body.split('\n').filter((line) => line.startsWith('- Looked up ticket'));
    expect(done.length).toBeLessThan(60);
    if (done.length > 0) expect(done.at(-1)).toContain('ticket 59 ');
  });

  it("keeps the heuristic summarizer's next steps whole when its own budget is tight", async () => {
    for (const maxOutputTokens of [75, 120, 200]) {
      const answer = await heuristicSummarizer.summarize({
        kind: 'compaction',
        // Without the closing "Go on.": the latest request is the one to act on.
        messages: supportSession().slice(0, -2),
        text: '',
        maxOutputTokens,
      });
      const text = typeof answer === 'string' ? answer : answer.text;
      expect([...text].length).toBeLessThanOrEqual(maxOutputTokens * 4);
      expect(sectionLines(text, 'Next Steps')).toEqual([`1. Continue the latest request: ${LATEST}`]);
      // At the smallest budget the critical context goes before the next steps.
      if (maxOutputTokens >= 120) expect(sectionLines(text, 'Critical Context').join('\n')).toMatch(/send_mail .*429/);
    }
  });
});
