// The checkpoint the heuristic summarizer writes from a conversation's facts, with the same headings
// as the model prompts. Internal.

import { oneLine } from '../../internal/one-line.js';
import { PINNED_HEADING } from '../anchors/pinned-section.js';
import { isOpenItem } from '../anchors/user-words.js';
import type { SummaryKind } from '../summarizer-types.js';
import { SUMMARY_SECTIONS } from '../summary-prompts.js';
import { clipItem } from './clip-item.js';
import { addUnique, type ConversationFacts } from './gather-facts.js';

/** How much detail a rendering keeps; lower levels keep less. @internal */
export interface Detail {
  /** Items kept per list (the first third and the newest rest). */
  items: number;
  /** Code points kept of each item. */
  itemChars: number;
}

/** The first line of a heuristic checkpoint. @internal */
const CHECKPOINT_NOTE = 'Checkpoint written without a model';

const PLACEHOLDER = /^[-*\s]*\(?(none|none recorded|not stated|unknown)\)?\.?$/i;

/** Splits an earlier checkpoint into its sections by title (lower-cased); other lines go under `''`. */
function parseSections(summary: string): Map<string, string[]> {
  const sections = new Map<string, string[]>();
  let current = '';
  for (const line of summary.split(/\r?\n/)) {
    const heading = /^#{1,4}\s+(.+?)\s*$/.exec(line);
    if (heading) {
      current = heading[1]!.toLowerCase();
      continue;
    }
    if (!line.trim() || PLACEHOLDER.test(line) || line.startsWith(CHECKPOINT_NOTE)) continue;
    sections.set(current, [...(sections.get(current) ?? []), line.trimEnd()]);
  }
  return sections;
}

/** Keeps the first third and the newest rest of a list, noting how many were left out. */
function pick(items: readonly string[], detail: Detail): string[] {
  const clipped = items.map((item) => clipItem(item, detail.itemChars));
  if (clipped.length <= detail.items) return clipped;
  // The oldest item (the first goal) is kept at every detail level, then the newest.
  const first = Math.max(detail.items > 1 ? 1 : 0, Math.floor(detail.items / 3));
  const last = detail.items - first;
  const skipped = clipped.length - detail.items;
  const tail = clipped.slice(clipped.length - last);
  const indent = /^\s*/.exec(tail[0] ?? '')?.[0] ?? '';
  return [...clipped.slice(0, first), `${indent}- … ${skipped} more`, ...tail];
}

type Sections = Record<string, string[]>;

function sectionsFor(kind: SummaryKind, facts: ConversationFacts): Sections {
  const list = (values: readonly string[]) => values.map((value) => `- ${value}`);
  const requests = facts.requests.length > 1 ? list(facts.requests.slice(1)).map((line) => `  ${line}`) : [];
  const goal = facts.requests[0] === undefined ? [] : [`- ${facts.requests[0]}`, ...requests];
  const last = facts.lastAssistant === undefined ? [] : [`- ${oneLine(facts.lastAssistant)}`];
  const focus = facts.focus?.trim() ? [`- Focus requested: ${oneLine(facts.focus)}`] : [];
  const critical = [
    ...focus,
    ...list(facts.errors),
    ...facts.asides.map((aside) => `- The user also asked: ${aside}`),
    ...facts.summaries.map((text) => `- Earlier summary: ${oneLine(text)}`),
  ];
  if (kind === 'branch') {
    return {
      Goal: goal,
      'What Was Tried': list(facts.commands),
      'What Was Learned': [...list(facts.decisions), ...last],
      'Why It Was Left': [
        `- Not stated; the branch ended with: ${oneLine(facts.lastAssistant ?? facts.requests.at(-1) ?? 'nothing')}`,
      ],
      'Files & Commands': list(facts.files),
      'Critical Context': critical,
    };
  }
  const latest = facts.requests.at(-1);
  return {
    Goal: goal,
    'Constraints & Preferences': list(facts.constraints),
    Done: list(facts.notes),
    'In Progress': last.map((line) => line.replace(/^- /, '- [ ] ')),
    Blocked: facts.blocked === undefined ? [] : [`- ${facts.blocked}`],
    'Key Decisions': list(facts.decisions),
    'Files & Commands': [...list(facts.files), ...list(facts.commands)],
    'Next Steps': [
      ...(facts.blocked === undefined ? [] : [`1. Resolve: ${facts.blocked}`]),
      ...(latest === undefined
        ? []
        : [`${facts.blocked === undefined ? 1 : 2}. Continue the latest request: ${latest}`]),
    ],
    'Critical Context': critical,
  };
}

/** Code points a Next Steps item keeps at every detail level. */
const NEXT_STEP_CHARS = 300;

const STEP = /^\s*\d+\.\s+/;
const CONTINUE_STEP = /^\s*\d+\.\s+Continue the latest request:/;

/**
 * The earlier checkpoint's lines of a section that still hold: an In Progress item that left
 * something open (a TODO) is not carried; a Blocked item, a `Resolve:` step or a Critical Context error is dropped once the call it
 * names has passed or ran again (its state is written afresh); a `Continue the latest request` step is dropped when
 * a newer one is written; a step already written afresh is not repeated.
 */
function carriedLines(
  carried: ReadonlyMap<string, string[]>,
  title: string,
  fresh: Sections,
  facts: ConversationFacts,
): string[] {
  const lines = carried.get(title.toLowerCase()) ?? [];
  // An item left open (a TODO) is not carried as current work: while it is open its anchor pins it,
  // and once done it must not stay listed.
  if (title === 'In Progress') return lines.filter((line) => !isOpenItem(line));
  if (title !== 'Blocked' && title !== 'Next Steps' && title !== 'Critical Context') return lines;
  // An earlier Blocked item, Resolve step or error of a call that has since passed, or that ran
  // again (its new state is written afresh), no longer holds.
  const ranAgain = [...facts.passed, ...facts.errors.map((error) => error.slice(0, error.indexOf(': ')))];
  const cleared = (line: string) => ranAgain.some((call) => call && line.includes(`${call}:`));
  const freshSteps = new Set((fresh[title] ?? []).map((line) => line.replace(STEP, '')));
  const freshContinue = (fresh[title] ?? []).some((line) => CONTINUE_STEP.test(line));
  return lines.filter(
    (line) =>
      !cleared(line) &&
      !(
        title === 'Next Steps' &&
        (freshSteps.has(line.replace(STEP, '')) || (freshContinue && CONTINUE_STEP.test(line)))
      ),
  );
}

/** Numbers the steps 1, 2, 3… in place. */
function renumber(lines: string[]): void {
  let step = 0;
  for (let index = 0; index < lines.length; index++)
    if (STEP.test(lines[index]!)) lines[index] = `${++step}. ${lines[index]!.replace(STEP, '')}`;
}

/**
 * Writes the checkpoint: each section's lines carried over from the earlier summary first, then the new
 * ones, at the given detail.
 *
 * @internal
 */
export function renderCheckpoint(
  kind: SummaryKind,
  facts: ConversationFacts,
  options: { previousSummary: string | undefined; messageCount: number; detail: Detail },
): string {
  const fresh = sectionsFor(kind, facts);
  const carried = parseSections(options.previousSummary ?? '');
  const titles = kind === 'branch' ? SUMMARY_SECTIONS.branch : SUMMARY_SECTIONS.compaction;
  const known = new Set<string>([...titles, ...SUMMARY_SECTIONS.progress].map((title) => title.toLowerCase()));
  // The earlier pinned facts are not carried as text: the anchoring step pins afresh those that
  // still hold, and carrying them would keep a fixed error or a passing test listed.
  const unplaced = [...carried]
    .filter(([title]) => !known.has(title) && `## ${title}` !== PINNED_HEADING.toLowerCase())
    .flatMap(([, lines]) => lines);
  const body = (title: string) => {
    const extra = title === 'Critical Context' ? unplaced : [];
    const lines: string[] = [];
    for (const line of [...carriedLines(carried, title, fresh, facts), ...extra, ...(fresh[title] ?? [])])
      addUnique(lines, line);
    if (title === 'Next Steps') renumber(lines);
    // The next steps are what a resumer acts on: their items keep the most detail at every level (a
    // budget they crowd is met by cutting older sections first, see `cutCheckpoint`). Critical
    // Context items are clipped like the rest: kept longer, they crowd out facts (bench:fidelity).
    const detail =
      title === 'Next Steps'
        ? { ...options.detail, itemChars: Math.max(options.detail.itemChars, NEXT_STEP_CHARS) }
        : options.detail;
    return lines.length === 0 ? ['- (none recorded)'] : pick(lines, detail);
  };
  const out = [`${CHECKPOINT_NOTE} from ${options.messageCount} messages.`];
  for (const title of titles) {
    out.push('', `## ${title}`);
    if (title === 'Progress') for (const part of SUMMARY_SECTIONS.progress) out.push(`### ${part}`, ...body(part));
    else out.push(...body(title));
  }
  return out.join('\n');
}
