/** The pinned section of a checkpoint: how it is written and read back. Internal. */
import { ANCHOR_CATEGORIES, type Anchor, type AnchorCategory } from './anchor.js';
import { clipWords, KEY_CHARS } from './user-words.js';

/**
 * The heading of the section that carries the facts a summary lost.
 *
 * @example
 * ```ts
 * const pinned = summary.includes(PINNED_HEADING);
 * ```
 */
export const PINNED_HEADING = '## Pinned Facts';

const LINE = /* @__PURE__ */ (() => new RegExp(`^- (${ANCHOR_CATEGORIES.join('|')})(!)?: (.+)$`))();

/** One pinned line: `- category: text`, with `!` after a required category. @internal */
export function pinnedLine(anchor: Anchor, text = anchor.text): string {
  return `- ${anchor.category}${anchor.required ? '!' : ''}: ${text}`;
}

/**
 * The anchors written as pinned lines anywhere in a text (a summary that carried them over may have
 * moved them under another heading). Their keys are their text's first words, as a pinned line keeps
 * every key of its anchor within them. @internal
 */
export function parsePinnedAnchors(text: string): Anchor[] {
  const anchors: Anchor[] = [];
  for (const line of text.split(/\r?\n/)) {
    const match = LINE.exec(line.trim());
    if (!match) continue;
    const category = match[1] as AnchorCategory;
    if (!ANCHOR_CATEGORIES.includes(category)) continue;
    const body = match[3]!.trim();
    anchors.push({ category, text: body, keys: [clipWords(body, KEY_CHARS)], ...(match[2] ? { required: true } : {}) });
  }
  return anchors;
}

/** A summary without its pinned section (to be written afresh). @internal */
export function withoutPinnedSection(summary: string): string {
  const lines = summary.split('\n');
  const start = lines.findIndex((line) => line.trimEnd() === PINNED_HEADING);
  if (start < 0) return summary;
  let end = start + 1;
  while (end < lines.length && !/^#{1,3} /.test(lines[end]!)) end++;
  return [...lines.slice(0, start), ...lines.slice(end)].join('\n').trimEnd();
}
