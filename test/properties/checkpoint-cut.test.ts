// A checkpoint cut to a budget (to make room for pinned facts) keeps the next steps and the critical
// context whenever they fit beside the headings, stays within the budget, and only removes whole
// lines or cuts a line back to a sentence's end.
import { fc, test } from '@fast-check/vitest';
import { pinAnchors } from 'ctxkit/summarizing';
import { describe, expect } from 'vitest';

const TITLES = [
  'Goal',
  'Constraints & Preferences',
  'Progress',
  'Key Decisions',
  'Files & Commands',
  'Next Steps',
  'Critical Context',
] as const;
const KEPT = new Set<string>(['Next Steps', 'Critical Context']);

const word = fc.constantFrom('ticket', 'TCK-48210', 'cust_9100@example.org', '$120.50', 'refund', '検証', '🙂', 'é');
/** One item: words, some ending a sentence. */
const item = fc
  .array(fc.tuple(word, fc.constantFrom('', '', '.', ',')), { minLength: 1, maxLength: 12 })
  .map((parts) => `- ${parts.map(([text, end]) => `${text}${end}`).join(' ')}`);
const checkpoint = fc.tuple(...TITLES.map(() => fc.array(item, { maxLength: 8 })));

/** A checkpoint with the compaction headings and the given lines under each. */
function render(sections: readonly (readonly string[])[]): string {
  return TITLES.map((title, index) => [`## ${title}`, ...sections[index]!].join('\n')).join('\n\n');
}

const length = (text: string) => [...text].length;

describe('checkpoint cut', () => {
  test.prop([checkpoint, fc.double({ min: 0, max: 1, noNaN: true })])(
    'keeps the next steps and critical context when they fit beside the headings, within the budget',
    (sections, share) => {
      const text = render(sections);
      const headings = length(render(sections.map(() => [])));
      const alone = length(render(sections.map((lines, index) => (KEPT.has(TITLES[index]!) ? lines : []))));
      const maxChars = headings + Math.floor(share * (length(text) - headings));
      const cut = pinAnchors(text, [], { maxChars }).text;
      expect(length(cut)).toBeLessThanOrEqual(maxChars);
      const lines = cut.split('\n');
      if (alone <= maxChars)
        for (const [index, title] of TITLES.entries())
          if (KEPT.has(title)) for (const line of sections[index]!) expect(lines).toContain(line);
      // Whole lines, or a line's head that ends a sentence.
      const original = text.split('\n');
      for (const line of lines)
        expect(original.some((whole) => whole === line || (whole.startsWith(line) && line.endsWith('.')))).toBe(true);
      for (const title of TITLES) expect(lines).toContain(`## ${title}`);
    },
  );
});
