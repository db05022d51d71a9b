// The tables of the approximate counter: character types, rare letter pairs and the costs of word
// pieces and blank lines (the Unicode blocks with their costs are in `unicode-blocks.ts`). @internal

// Character types. Letters join into words; every other type ends a word.
export const SPACE = 0; // ' '
export const BLANK = 1; // tab and other whitespace that is not a plain space
export const NEWLINE = 2;
export const UPPER = 3;
export const LOWER = 4;
export const DIGIT = 5;
export const PUNCT = 6; // ASCII punctuation and control characters
export const SYMBOL = 7; // any other character that is neither a letter, a digit nor whitespace
export const LETTER = 8; // a letter of an alphabet that separates words with spaces (Cyrillic, Arabic, …)
export const CJK = 9; // a letter of a script written without spaces (Han, kana, Thai, …)
export const ACCENTED = 10; // an accented Latin letter

// Costs in tokens, summed as fractions. Measured against o200k_base on the test corpus and on more
// text of each kind: documentation, code, JSON, base64, and UI strings in some sixty languages.
/**
 * Tokens per letter of an ASCII word piece, which costs at least one token: common words up to six
 * or seven letters are single tokens, longer ones split.
 */
const WORD_RATE = 0.167;
/**
 * Extra tokens for each pair of letters that is rare in English and code (`qx`, `vb`), a likely
 * split. With {@link WORD_RATE} at most 1, so that joining two texts never costs more than one extra
 * token.
 */
const RARE_PAIR_COST = 0.8;
/**
 * Extra tokens of a piece of three or more letters glued to digits (`8gdz`), which is rarely a word.
 * At most 1, for the same reason.
 */
const RANDOM_EXTRA = 1;
/** Extra tokens per accented Latin letter (`é`, `ß`, `ł`): accents often split a word. */
export const ACCENT_COST = 0.95;
/** Added once to a word of an alphabet other than Latin. */
export const SCRIPT_BASE = 0.2;
/**
 * Factor on a non-ASCII word that does not follow a space (at the start of a line, after
 * punctuation): tokenizers learned most words of other alphabets with their leading space.
 */
export const UNSPACED_FACTOR = 1.8;
/** Tokens per Han character. */
export const HAN_COST = 0.82;
/** Tokens per kana character. */
export const KANA_COST = 0.7;
/** Tokens per Hangul syllable. */
export const HANGUL_COST = 0.62;
/** Extra cost of one punctuation mark glued to the front of a word (`.count`, `(message`). */
export const GLUED_PUNCT = 0.42;
/**
 * The same for `.`, `/` and `(` between two ASCII words (`java.lang.Integer`, `Main.run(Main.java`):
 * o200k_base reads the mark with the next word at little extra cost.
 */
export const GLUED_PATH_MARK = 0.2;
/** Tokens per mark of a run of ASCII punctuation, which costs at least one (`");`, `!==`, `},`). */
export const PUNCT_RATE = 0.44;
/** Tokens per non-ASCII symbol that repeats one of the few that merge (`━━━━`, `────`). */
export const REPEATED_PUNCT_RATE = 0.18;

/**
 * Tokens per ASCII mark that repeats the one before it, by mark, as o200k_base merges them: rules and
 * underlines (`-----`, `=====`, `_____`, `.....`, `#####`, `*****`, `/////`) take one token for
 * sixty-four marks and more, brackets and backticks one for two.
 */
export const ASCII_REPEAT_RATE = new Float64Array(128).map((_, code) => {
  const mark = String.fromCharCode(code);
  if ('-*./=_#'.includes(mark)) return 1 / 64;
  if ('%+~'.includes(mark)) return 1 / 32;
  if ('!;:'.includes(mark)) return 1 / 16;
  if ('?<>@^'.includes(mark)) return 1 / 8;
  if ('"$\'(),\\|'.includes(mark)) return 1 / 4;
  return 1 / 2; // & [ ] ` { }
});
/** Tokens per non-ASCII punctuation mark or symbol (`→`, `，`, `—`, `│`). */
export const SYMBOL_COST = 1.2;
/**
 * Tokens per non-ASCII symbol glued to the symbol before it (`✓✗`, `⎯⎯⎯`): without a leading space
 * most symbols split into two byte-level tokens. Blocks o200k_base has no tokens for cost more (see
 * `unicode-blocks.ts`).
 */
export const GLUED_SYMBOL_COST = 1.9;
/** Tokens per character of a block o200k_base has (almost) no tokens for: each UTF-8 byte is one. */
export const BYTE_FALLBACK_COST = 2;
/** Tokens per character of such a block glued to the one before it: three bytes, three tokens. */
export const BYTE_FALLBACK_GLUED_COST = 3;
/**
 * The few non-ASCII symbols whose repeats o200k_base merges into long tokens (`────`, `━━━━`, `════`,
 * `————`, `…`, `█`): the rest cost a token or more each however often they repeat (`⎯⎯⎯⎯` is twelve).
 */
const MERGING_SYMBOLS = new Set([
  0x2013, 0x2014, 0x2026, 0x2500, 0x2501, 0x2550, 0x2588, 0x25a1, 0x2605, 0x2640, 0xff01, 0xff0a, 0xff1d, 0xfffd,
]);

/** Whether repeats of this non-ASCII symbol merge into long tokens. */
export function mergesWhenRepeated(code: number): boolean {
  return MERGING_SYMBOLS.has(code);
}
/** Tokens of an ASCII control character (the escape of a terminal colour code `\u001b[31m`): one each. */
export const CONTROL_COST = 1;
/**
 * Extra tokens of an all-capital piece of three or more letters with a doubled `A`, `I` or `U`
 * (`SAAS`, `CAAC`: source-map segments), which no English word or code name has: it splits in two.
 */
export const DOUBLED_CAPITALS_COST = 1.5;
/**
 * Factor on a non-ASCII word right after a quote (`"воскресенье"` in JSON): the quote is a token of
 * its own, and the word splits less than at the start of a line.
 */
export const QUOTED_FACTOR = 1.2;
/** Tokens per pictograph of the Basic Multilingual Plane (`☀`, `✅`, `❤`). */
export const PICTOGRAPH_COST = 2.2;
/** Tokens per emoji or other character outside the Basic Multilingual Plane. */
export const ASTRAL_COST = 2.4;
/** Tokens per zero-width joiner, variation selector or tag character inside an emoji sequence. */
export const JOINER_COST = 0.15;
/**
 * Tokens per whitespace character in a long run, where the tokenizer merges a run into one token
 * per so many characters: about 120 spaces, 16 tabs or line feeds, 4 CRLF pairs, 8 no-break
 * spaces, 16 ideographic spaces. Rarer spaces cost one or two tokens each (see `unicode-blocks.ts`).
 */
export const SPACE_WEIGHT = 1 / 120;
export const TAB_WEIGHT = 1 / 16;
export const LINE_FEED_WEIGHT = 1 / 16;
export const CARRIAGE_RETURN_WEIGHT = 3 / 16;
/** Tokens of a line holding only whitespace (before its blanks' weight): `\n    \n` rarely merges. */
const BLANK_LINE_COST = 0.4;

/** Type of each ASCII code. */
export const ASCII_TYPE = new Uint8Array(128).map((_, code) => {
  if (code === 0x20) return SPACE;
  if (code === 0x09 || code === 0x0b || code === 0x0c) return BLANK;
  if (code === 0x0a || code === 0x0d) return NEWLINE;
  if (code >= 0x41 && code <= 0x5a) return UPPER;
  if (code >= 0x61 && code <= 0x7a) return LOWER;
  if (code >= 0x30 && code <= 0x39) return DIGIT;
  return PUNCT;
});

/**
 * For each letter `a`–`z`, the letters that rarely follow it inside a word of English text or code,
 * as measured on a few megabytes of both. Random text such as base64 is full of these pairs.
 */
const RARE_FOLLOWERS = [
  'o', // a
  'hknqvwx', // b
  'gqvxz', // c
  'jqxz', // d
  '', // e
  'ghjkpqwxz', // f
  'djkqwx', // g
  'bcdfghjkqvwxz', // h
  'hwy', // i
  'bcdfghjklmnpqtvxyz', // j
  'bhjkmqvxz', // k
  'qxz', // l
  'fhqwz', // m
  'qx', // n
  'q', // o
  'jqwz', // p
  'abcdefghijkmnopqrstvwxyz', // q
  'jqxz', // r
  'jz', // s
  'kqv', // t
  'hjqwyz', // u
  'cdfhjklnpqrwxyz', // v
  'bcfjkmpqvxyz', // w
  'bdghjklnqruvwxz', // x
  'dhjkquvxy', // y
  'bcdfgjkmnpqrsvwx', // z
];
/** Bit `b` of entry `a` is set when letter `b` rarely follows letter `a`. */
const RARE_PAIRS = Uint32Array.from(RARE_FOLLOWERS, (followers) => {
  let mask = 0;
  for (const letter of followers) mask |= 1 << (letter.charCodeAt(0) - 0x61);
  return mask;
});

/** 1 when the ASCII letter `second` rarely follows the ASCII letter `first`, else 0. */
export function rarePair(first: number, second: number): number {
  return ((RARE_PAIRS[(first | 0x20) - 0x61] as number) >>> ((second | 0x20) - 0x61)) & 1;
}

/** Tokens of an ASCII word piece with `rare` rare letter pairs; `random` when it is glued to digits. */
export function pieceCost(letters: number, rare: number, random: boolean): number {
  const cost = Math.max(1, letters * WORD_RATE) + rare * RARE_PAIR_COST;
  return random && letters >= 3 ? cost + RANDOM_EXTRA : cost;
}

/** Tokens of whitespace that ends in a newline inside a run, given the weight of its blanks. */
export function blankLineCost(weight: number): number {
  return BLANK_LINE_COST + Math.min(2 * weight, 1.5) + Math.max(0, weight - 1);
}

export const WHITESPACE_RUN = 0;
export const WORD_RUN = 1;
export const DIGIT_RUN = 2;
export const PUNCT_RUN = 3;
/** The run each character type belongs to. */
export const RUN_OF = [0, 0, 0, 1, 1, 2, 3, 3, 1, 1, 1];

export function isLetter(type: number): boolean {
  return type === UPPER || type === LOWER || type >= LETTER;
}
