/** What the user's own words hold: requests, constraints, identifiers and numbers. Internal. */
import { clipText } from '../../internal/clip-text.js';
import { oneLine } from '../../internal/one-line.js';

/** Code points of a user's sentence that must survive for it to count as kept. @internal */
export const KEY_CHARS = 80;
/** Code points of a goal, constraint or decision as a pinned line writes it. @internal */
export const TEXT_CHARS = 200;

const CONSTRAINT =
  /\b(must|mustn't|must not|should|shouldn't|should not|don't|do not|never|always|avoid|without|make sure|only|no more than|at most|at least|keep)\b|^(use|prefer|stick to)\b|\bno \w+ (anywhere|at all|in|on|outside)\b/i;
/**
 * Constraints in Chinese (`不要`, `必须`, `只能`…), Japanese (`必ず`, `ないでください`, `禁止`…) and
 * Korean (`반드시`, `하지 마`, `절대`…): no word boundaries in these scripts, so matched as they are.
 * @internal
 */
export const CJK_CONSTRAINT =
  /不要|别再|必须|务必|一定要|不得|禁止|请勿|只能|只用|必ず|ないでください|しないで|てはいけない|てはならない|だけを使|のみを使|반드시|하지 ?마|지 마세요|지 말|절대|금지|만 사용/;
const DECISION =
  /\b(decided|decide to|we'll go with|going with|i'll use|we'll use|instead of|chose|choose to|switch(?:ed)? to|root cause|the fix is|settled on)\b/i;
const OPEN_ITEM =
  /\b(todo|still need|still needs|remaining|left to do|not yet|next,? i(?:'ll| will)|follow[- ]up|pending)\b/i;

/** A piece that ends in an abbreviation or an initial, not a sentence: `e.g.`, `i.e.`, `etc.`, `vs.`, `U.S.` */
const ABBREVIATION = /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf|approx|incl|esp|resp|viz|no|fig|mr|mrs|ms|dr|st|[a-z])\.$/i;

/**
 * Sentences of a text (by `.`, `!`, `?` before a space, CJK `。`, `！`, `？`, and line breaks, not
 * after an abbreviation such as `e.g.`),
 * each on one line. @internal
 */
export function sentencesOf(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n+/)) {
    let sentence = '';
    for (const piece of line.split(/(?<=[.!?])\s+|(?<=[。！？])/)) {
      sentence = sentence ? `${sentence} ${piece}` : piece;
      if (ABBREVIATION.test(sentence)) continue;
      const clean = oneLine(sentence.replace(/^[-*•\d.)\s]+/, ''));
      if (clean) out.push(clean);
      sentence = '';
    }
    const rest = oneLine(sentence.replace(/^[-*•\d.)\s]+/, ''));
    if (rest) out.push(rest);
  }
  return out;
}

/** An aside of the user's: a question that is not a task (`By the way, what time zone…?`). */
const ASIDE =
  /^(?:by the way|btw|unrelated(?:ly)?|off[- ]topic|quick question|just curious|out of curiosity|random question)\b|^(?:what|when|where|who|which)\b[^\n]*\?$/i;

/**
 * Whether a user's message is an aside rather than a request: it opens with *by the way*, *btw*,
 * *off-topic*, *quick question*… or it is one short question of *what / when / where / who / which*.
 * @internal
 */
export function isAside(text: string): boolean {
  const line = oneLine(text);
  return line.length <= 240 && ASIDE.test(line);
}

/** An assistant's sentence that reports something done. */
const DONE =
  /\b(done|added|fixed|implemented|completed|finished|resolved|wrote|written|removed|updated|handled|addressed|landed|merged)\b/i;
/** Words that say nothing of what an item is about. */
const FILLER = /* @__PURE__ */ (() =>
  new Set(
    "todo still need needs next will then also that this with from into have has the and for are was were been it's its add added write wrote make made done fix fixed".split(
      ' ',
    ),
  ))();

/** The words of a sentence that say what it is about (four letters or more, no filler). */
function subjectWords(sentence: string): Set<string> {
  const words = sentence.toLowerCase().match(/[\p{L}\p{N}_-]{4,}/gu) ?? [];
  return new Set(words.filter((word) => !FILLER.has(word)));
}

/**
 * Whether an assistant's sentence reports `item` (an open item's text) done: it says *done, added,
 * fixed, implemented…*, opens no new item, and holds at least 80% of the item's subject words.
 * @internal
 */
export function isDoneWith(sentence: string, item: string): boolean {
  if (!DONE.test(sentence) || OPEN_ITEM.test(sentence)) return false;
  const wanted = subjectWords(item);
  if (wanted.size === 0) return false;
  const said = subjectWords(sentence);
  let shared = 0;
  for (const word of wanted) if (said.has(word)) shared++;
  return shared / wanted.size >= 0.8;
}

/** At most `max` code points, cut at a word boundary when one is near. @internal */
export function clipWords(text: string, max: number): string {
  const clipped = clipText(text, max, 'head');
  if (clipped === text) return text;
  const space = clipped.lastIndexOf(' ');
  return space > max / 2 ? clipped.slice(0, space) : clipped;
}

/** Whether a sentence states a constraint or preference (`must`, `don't`, `never`, `only`…). @internal */
export function isConstraint(sentence: string): boolean {
  return CONSTRAINT.test(sentence) || CJK_CONSTRAINT.test(sentence);
}

/** Whether a sentence of the assistant's records a decision. @internal */
export function isDecision(sentence: string): boolean {
  return DECISION.test(sentence);
}

/** Whether a sentence of the assistant's leaves something open. @internal */
export function isOpenItem(sentence: string): boolean {
  return OPEN_ITEM.test(sentence);
}

const BACKTICKED = /`([^`\n]{2,80})`/g;
/** camelCase, PascalCase with an inner capital, snake_case, CONSTANT_CASE, kebab-case with a digit or two dashes. */
const IDENTIFIER =
  /(?<![\w/.-])(?:[a-z]+(?:[A-Z][a-z0-9]*)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[A-Za-z][a-z0-9]*(?:_[A-Za-z0-9]+)+|[A-Z]{2,}[0-9]*(?:_[A-Z0-9]+)*|[a-z]+(?:-[a-z0-9]+){2,}|[A-Z][A-Z0-9]*-\d+|#\d+|v?\d+\.\d+\.\d+(?:-[\w.]+)?)(?![\w/-])/g;
/** Numbers the user chose: two or more digits, decimals, and numbers with units (`30s`, `5 MB`, `120ms`). */
const NUMBER =
  /(?<![\w.#])(\d[\d_,]*(?:\.\d+)?)(\s?(?:ms|s|sec|seconds?|minutes?|min|h|hours?|days?|kb|mb|gb|%|px|rpm|req\/s))?(?![\w.])/gi;
/** Capitalised words that are ordinary English at the start of a sentence, not identifiers. */
const COMMON = new Set(['OK', 'I', 'A', 'API', 'URL', 'ID', 'TODO', 'PR', 'CI', 'UI', 'JSON', 'HTTP', 'HTTPS']);

/**
 * Identifiers and numbers in a user's message: backticked spans, code-shaped words, issue numbers,
 * versions and numbers with two or more digits or a unit. File paths are left to the file anchors.
 *
 * @internal
 */
export function identifiersIn(text: string): string[] {
  const found: string[] = [];
  const add = (value: string) => {
    const trimmed = value.trim();
    if (trimmed.length < 2 || COMMON.has(trimmed) || found.includes(trimmed)) return;
    // Paths and URLs are file anchors (or noise), not identifiers.
    if (/^\w+:\/\//.test(trimmed) || (/\//.test(trimmed) && /\.\w+$/.test(trimmed))) return;
    found.push(trimmed);
  };
  for (const match of text.matchAll(BACKTICKED)) add(match[1]!);
  const plain = text.replace(BACKTICKED, ' ');
  for (const match of plain.matchAll(IDENTIFIER)) add(match[0]);
  for (const match of plain.matchAll(NUMBER)) {
    const digits = match[1]!.replace(/[_,]/g, '');
    if (match[2] || digits.length >= 2 || digits.includes('.')) add(`${match[1]}${match[2] ?? ''}`);
  }
  return found.slice(0, 40);
}
