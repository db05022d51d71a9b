// The approximate counter's table of the Basic Multilingual Plane above ASCII: the type and cost
// of each Unicode block, and the lookup of a code point's block. @internal
import {
  ACCENT_COST,
  ACCENTED,
  BLANK,
  BYTE_FALLBACK_COST,
  BYTE_FALLBACK_GLUED_COST,
  CJK,
  GLUED_SYMBOL_COST,
  HAN_COST,
  HANGUL_COST,
  JOINER_COST,
  KANA_COST,
  LETTER,
  NEWLINE,
  PICTOGRAPH_COST,
  SYMBOL,
  SYMBOL_COST,
} from './text-classes.js';

/**
 * Type and cost of the Basic Multilingual Plane above ASCII, as `[first code, type, cost]` sorted by
 * code; each entry holds up to the next. The cost is per letter for letters, per character for
 * symbols (and, as a fourth field, per symbol glued to the symbol before it when that differs from
 * the default), and per character in a long run for whitespace. Scripts that o200k_base saw less often
 * cost more per letter.
 */
const BLOCKS: readonly (readonly [number, number, number, number?])[] = [
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
  [0x2070, SYMBOL, SYMBOL_COST], // super- and subscripts, currency, letterlike, arrows, math
  [0x2330, SYMBOL, BYTE_FALLBACK_COST, BYTE_FALLBACK_GLUED_COST], // the rest of Miscellaneous Technical (`⎯`, `⏎`)
  [0x2400, SYMBOL, BYTE_FALLBACK_COST], // control pictures, OCR, enclosed alphanumerics (`␊`, `①`)
  [0x2500, SYMBOL, SYMBOL_COST], // box drawing, block elements, geometric shapes
  [0x2600, SYMBOL, PICTOGRAPH_COST], // miscellaneous symbols, dingbats
  [0x27c0, SYMBOL, SYMBOL_COST], // math, arrows
  [0x27f0, SYMBOL, BYTE_FALLBACK_COST, BYTE_FALLBACK_GLUED_COST], // supplemental arrows-A (`⟶`)
  [0x2800, SYMBOL, SYMBOL_COST], // Braille, more arrows and math
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
const BLOCK_STARTS = Uint32Array.from(BLOCKS, (block) => block[0]);
export const BLOCK_TYPES = Uint8Array.from(BLOCKS, (block) => block[1]);
export const BLOCK_COSTS = Float64Array.from(BLOCKS, (block) => block[2]);
/** The cost of a symbol of the block glued to the symbol before it. */
export const BLOCK_GLUED_COSTS = Float64Array.from(
  BLOCKS,
  (block) =>
    // Joiners and variation selectors inside an emoji sequence stay cheap.
    block[3] ?? (block[2] <= JOINER_COST ? block[2] : Math.max(block[2], GLUED_SYMBOL_COST)),
);

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
