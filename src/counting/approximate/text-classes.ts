// The tables of the approximate counter: character types, Unicode blocks with their costs, rare
// letter pairs and the costs of word pieces and blank lines. @internal

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
export const WORD_RATE = 0.167;
/**
 * Extra tokens for each pair of letters that is rare in English and code (`qx`, `vb`), a likely
 * split. With {@link WORD_RATE} at most 1, so that joining two texts never costs more than one extra
 * token.
 */
export const RARE_PAIR_COST = 0.8;
/**
 * Extra tokens of a piece of three or more letters glued to digits (`8gdz`), which is rarely a word.
 * At most 1, for the same reason.
 */
export const RANDOM_EXTRA = 1;
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
/** Tokens per mark of a run of ASCII punctuation, which costs at least one (`");`, `!==`, `},`). */
export const PUNCT_RATE = 0.44;
/** Tokens per mark or symbol that repeats the one before it (`-----`, `=====`, `━━━━`). */
export const REPEATED_PUNCT_RATE = 0.18;
/** Tokens per non-ASCII punctuation mark or symbol (`→`, `，`, `—`, `│`). */
export const SYMBOL_COST = 1.2;
/** Tokens per pictograph of the Basic Multilingual Plane (`☀`, `✅`, `❤`). */
export const PICTOGRAPH_COST = 2.2;
/** Tokens per emoji or other character outside the Basic Multilingual Plane. */
export const ASTRAL_COST = 2.4;
/** Tokens per zero-width joiner, variation selector or tag character inside an emoji sequence. */
export const JOINER_COST = 0.15;
/**
 * Tokens per whitespace character in a long run, where the tokenizer merges a run into one token
 * per so many characters: about 120 spaces, 16 tabs or line feeds, 4 CRLF pairs, 8 no-break
 * spaces, 16 ideographic spaces. Rarer spaces cost one or two tokens each (see {@link BLOCKS}).
 */
export const SPACE_WEIGHT = 1 / 120;
export const TAB_WEIGHT = 1 / 16;
export const LINE_FEED_WEIGHT = 1 / 16;
export const CARRIAGE_RETURN_WEIGHT = 3 / 16;
/** Tokens of a line holding only whitespace (before its blanks' weight): `\n    \n` rarely merges. */
export const BLANK_LINE_COST = 0.4;

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
 * Type and cost of the Basic Multilingual Plane above ASCII, as `[first code, type, cost]` sorted by
 * code; each entry holds up to the next. The cost is per letter for letters, per character for
 * symbols, and per character in a long run for whitespace. Scripts that o200k_base saw less often
 * cost more per letter.
 */
export const BLOCKS: readonly (readonly [number, number, number])[] = [
  [0x0080, SYMBOL, SYMBOL_COST], // C1 controls, Latin-1 punctuation and symbols
  [0x0085, NEWLINE, 2], // next line
  [0x0086, SYMBOL, SYMBOL_COST],
  [0x00a0, BLANK, 1 / 8], // no-break space
  [0x00a1, SYMBOL, SYMBOL_COST],
  [0x00c0, ACCENTED, ACCENT_COST], // Latin-1 letters, Latin Extended-A and -B
  [0x00d7, SYMBOL, SYMBOL_COST], // ×
  [0x00d8, ACCENTED, ACCENT_COST],
  [0x00f7, SYMBOL, SYMBOL_COST], // ÷
  [0x00f8, ACCENTED, ACCENT_COST],
  [0x0250, LETTER, 0.5], // IPA, spacing modifiers
  [0x0300, ACCENTED, 0.5], // combining marks
  [0x0370, LETTER, 0.4], // Greek
  [0x0400, LETTER, 0.35], // Cyrillic letters outside the Russian alphabet
  [0x0410, LETTER, 0.21], // the Russian alphabet
  [0x0450, LETTER, 0.35], // more Cyrillic, Cyrillic Supplement
  [0x0530, LETTER, 0.35], // Armenian
  [0x0590, LETTER, 0.32], // Hebrew
  [0x0600, SYMBOL, SYMBOL_COST], // Arabic punctuation
  [0x0621, LETTER, 0.3], // Arabic letters and marks
  [0x0660, SYMBOL, SYMBOL_COST], // Arabic digits and punctuation
  [0x066e, LETTER, 0.4], // extended Arabic letters (Persian, Urdu, Kurdish), Syriac, Thaana, N'Ko
  [0x0900, LETTER, 0.33], // Devanagari
  [0x0980, LETTER, 0.4], // Bengali, Gurmukhi, Gujarati, Oriya
  [0x0b80, LETTER, 0.31], // Tamil
  [0x0c00, LETTER, 0.45], // Telugu
  [0x0c80, LETTER, 0.33], // Kannada
  [0x0d00, LETTER, 0.45], // Malayalam, Sinhala
  [0x0e00, CJK, 0.37], // Thai
  [0x0e80, CJK, 0.5], // Lao, Tibetan, Myanmar
  [0x10a0, LETTER, 0.33], // Georgian
  [0x1100, LETTER, HANGUL_COST], // Hangul Jamo
  [0x1200, LETTER, 0.5], // Ethiopic, Cherokee, Canadian syllabics, Ogham, Runic, Philippine scripts
  [0x1680, BLANK, 3], // Ogham space
  [0x1681, LETTER, 0.5],
  [0x1780, CJK, 0.58], // Khmer
  [0x1800, LETTER, 0.5], // Mongolian, Balinese, phonetic extensions, …
  [0x1e00, ACCENTED, 0.45], // Latin Extended Additional (Vietnamese)
  [0x1f00, LETTER, 0.4], // Greek Extended
  [0x2000, BLANK, 1.5], // en and em quads
  [0x2002, BLANK, 1 / 2], // en space
  [0x2003, BLANK, 1.5], // em space, thin, hair and other typographic spaces
  [0x200b, SYMBOL, JOINER_COST], // zero-width spaces and joiners, direction marks
  [0x2010, SYMBOL, SYMBOL_COST], // dashes, quotes, bullets, ellipsis
  [0x2028, NEWLINE, 1.5], // line and paragraph separators
  [0x202a, SYMBOL, JOINER_COST],
  [0x202f, BLANK, 1], // narrow no-break space
  [0x2030, SYMBOL, SYMBOL_COST],
  [0x205f, BLANK, 2], // medium mathematical space
  [0x2060, SYMBOL, JOINER_COST],
  [0x2070, SYMBOL, SYMBOL_COST], // super- and subscripts, currency, letterlike, arrows, math, box drawing
  [0x2600, SYMBOL, PICTOGRAPH_COST], // miscellaneous symbols, dingbats
  [0x27c0, SYMBOL, SYMBOL_COST], // math, arrows, Braille
  [0x2c00, LETTER, 0.5], // Glagolitic, Latin Extended-C, Coptic, Georgian Supplement, Tifinagh
  [0x2e00, SYMBOL, SYMBOL_COST], // supplemental punctuation
  [0x2e80, CJK, HAN_COST], // CJK radicals
  [0x3000, BLANK, 1 / 16], // ideographic space
  [0x3001, SYMBOL, SYMBOL_COST], // CJK punctuation
  [0x3040, CJK, KANA_COST], // hiragana, katakana
  [0x3100, CJK, HANGUL_COST], // bopomofo, Hangul compatibility Jamo, kanbun
  [0x3200, SYMBOL, SYMBOL_COST], // enclosed and compatibility CJK
  [0x3400, CJK, HAN_COST], // CJK Extension A
  [0x4dc0, SYMBOL, SYMBOL_COST], // hexagram symbols
  [0x4e00, CJK, HAN_COST], // CJK unified ideographs, Yi
  [0xa4d0, LETTER, 0.5], // Lisu, Vai, Cyrillic Extended-B, Bamum, Latin Extended-D, Javanese, …
  [0xac00, LETTER, HANGUL_COST], // Hangul syllables
  [0xd800, SYMBOL, SYMBOL_COST], // unpaired surrogates, private use
  [0xf900, CJK, HAN_COST], // CJK compatibility ideographs
  [0xfb00, LETTER, 0.35], // alphabetic presentation forms
  [0xfe00, SYMBOL, JOINER_COST], // variation selectors
  [0xfe10, SYMBOL, SYMBOL_COST], // vertical and small forms
  [0xfe70, LETTER, 0.3], // Arabic presentation forms
  [0xfeff, SYMBOL, JOINER_COST], // byte order mark
  [0xff00, SYMBOL, SYMBOL_COST], // full-width punctuation and digits
  [0xff21, CJK, 1], // full-width Latin capitals
  [0xff3b, SYMBOL, SYMBOL_COST],
  [0xff41, CJK, 1], // full-width Latin small letters
  [0xff5b, SYMBOL, SYMBOL_COST],
  [0xff66, CJK, KANA_COST], // half-width katakana and Hangul
  [0xffdd, SYMBOL, SYMBOL_COST],
];
export const BLOCK_STARTS = Uint32Array.from(BLOCKS, (block) => block[0]);
export const BLOCK_TYPES = Uint8Array.from(BLOCKS, (block) => block[1]);
export const BLOCK_COSTS = Float64Array.from(BLOCKS, (block) => block[2]);

/** The index in {@link BLOCKS} of a code point from 0x80 to 0xffff, by binary search. */
export function blockOf(code: number): number {
  let low = 0;
  let high = BLOCK_STARTS.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((BLOCK_STARTS[middle] as number) <= code) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * For each letter `a`–`z`, the letters that rarely follow it inside a word of English text or code,
 * as measured on a few megabytes of both. Random text such as base64 is full of these pairs.
 */
export const RARE_FOLLOWERS = [
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
export const RARE_PAIRS = Uint32Array.from(RARE_FOLLOWERS, (followers) => {
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
