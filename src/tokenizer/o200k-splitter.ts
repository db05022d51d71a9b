// o200k_base's split pattern, by hand: where the piece that starts at a position ends, as the
// pattern made sticky would match it. The pattern's Unicode property classes cost a regular
// expression engine more than the rest of counting on texts of short pieces (random UTF-16 units:
// 29% of the time in `npm run bench:hostile`); here each character's classes are read from a table
// by code point, made from the same property classes (one block of code points at a time, the
// first time a character of the block is met), and the alternatives are walked as the engine would,
// backtracking included. Tests check it against the pattern itself on texts of every plane.
//
// The pattern (gpt-tokenizer's O200K_TOKEN_SPLIT_REGEX), alternatives in order:
//   1. [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:'(?:s|d|m|t|ll|ve|re))?
//   2. [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:'(?:s|d|m|t|ll|ve|re))?
//   3. \p{N}{1,3}
//   4.  ?[^\s\p{L}\p{N}]+[\r\n/]*
//   5. \s*[\r\n]+
//   6. \s+(?!\S)
//   7. \s+
// (the contractions in either case: [sS], [lL][lL], …).

/** The source of the pattern this splitter follows. */
export const O200K_SPLIT_SOURCE =
  "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

/** Class bits of a code point; a table entry is its bits plus {@link KNOWN}. */
const UPPER = 1; // \p{Lu}, \p{Lt}: the first run's class only
const LOWER = 2; // \p{Ll}: the second run's class only
const OTHER_LETTER = 4; // \p{Lm}, \p{Lo}: letters of both runs
const MARK = 8; // \p{M}: both runs, but no letter
const NUMBER = 16; // \p{N}
const SPACE = 32; // \s
const KNOWN = 64;

/** Letters and marks of the first run, of the second, and letters. */
const FIRST_RUN = UPPER | OTHER_LETTER | MARK;
const SECOND_RUN = LOWER | OTHER_LETTER | MARK;
const LETTER = UPPER | LOWER | OTHER_LETTER;

/** Code points per block of the table, filled together. */
const BLOCK_BITS = 10;

/** The property classes, each as a global pattern over a block's text. */
const CLASS_PATTERNS: readonly [RegExp, number][] = [
  [/[\p{Lu}\p{Lt}]+/gu, UPPER],
  [/\p{Ll}+/gu, LOWER],
  [/[\p{Lm}\p{Lo}]+/gu, OTHER_LETTER],
  [/\p{M}+/gu, MARK],
  [/\p{N}+/gu, NUMBER],
  [/\s+/gu, SPACE],
];

const CARRIAGE_RETURN = 0x0d;
const LINE_FEED = 0x0a;
const APOSTROPHE = 0x27;
const SPACE_CHARACTER = 0x20;
const SLASH = 0x2f;

/** A splitter of text into o200k_base's pieces. @internal */
export class O200kSplitter {
  /** Each code point's class bits plus {@link KNOWN}, or 0 while its block is not filled. */
  private readonly classes = new Uint8Array(0x11_0000);
  /** The code point read last by {@link read}, and its length in UTF-16 units. */
  private code = 0;
  private units = 0;

  /** The class bits of `code`. */
  private classOf(code: number): number {
    const known = this.classes[code]!;
    if (known !== 0) return known;
    this.fill(code >> BLOCK_BITS);
    return this.classes[code]!;
  }

  /** Fills the classes of one block of code points from the property classes themselves. */
  private fill(block: number): void {
    const first = block << BLOCK_BITS;
    const last = first + (1 << BLOCK_BITS);
    const { classes } = this;
    for (let code = first; code < last; code++) classes[code] = KNOWN;
    // Surrogates (lone, as a text holds them) are of no class; two together would make a pair.
    if (first >= 0xd800 && last <= 0xe000) return;
    let text = '';
    for (let code = first; code < last; code += 256) {
      text += String.fromCodePoint(...Array.from({ length: Math.min(256, last - code) }, (_, index) => code + index));
    }
    for (const [pattern, bit] of CLASS_PATTERNS) {
      for (const match of text.matchAll(pattern)) {
        // The block's text is all astral or all in the basic plane: each code point takes the same units.
        const width = first >= 0x1_0000 ? 2 : 1;
        const start = first + match.index / width;
        const end = start + match[0].length / width;
        for (let code = start; code < end; code++) classes[code]! |= bit;
      }
    }
  }

  /** Reads the code point at `index` of `text` into {@link code} and {@link units}; returns its class bits. */
  private read(text: string, index: number): number {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const low = text.charCodeAt(index + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        this.code = 0x1_0000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
        this.units = 2;
        return this.classOf(this.code);
      }
    }
    this.code = unit;
    this.units = 1;
    return this.classOf(unit);
  }

  /** Where the longest run of characters of `mask` from `index` ends. */
  private runEnd(text: string, index: number, mask: number): number {
    let at = index;
    while (at < text.length && (this.read(text, at) & mask) !== 0) at += this.units;
    return at;
  }

  /** Where an optional contraction ('s, 'll, 've, …) at `index` ends: `index` when there is none. */
  private contractionEnd(text: string, index: number): number {
    if (index + 1 >= text.length || text.charCodeAt(index) !== APOSTROPHE) return index;
    const next = text.charCodeAt(index + 1) | 0x20;
    if (next === 0x73 || next === 0x64 || next === 0x6d || next === 0x74) return index + 2; // s d m t
    if (index + 2 >= text.length) return index;
    const after = text.charCodeAt(index + 2) | 0x20;
    if ((next === 0x6c && after === 0x6c) || (next === 0x76 && after === 0x65) || (next === 0x72 && after === 0x65))
      return index + 3; // ll ve re
    return index;
  }

  /**
   * Alternative 1 from `index` (the optional first character already taken): a run of the first
   * class, then one of the second, backtracking the first as the engine does. -1 if it fails.
   */
  private lettersEnd(text: string, index: number): number {
    // The first run, and the last character in it that the second run could take.
    let at = index;
    let lastBoth = -1;
    let lastBothEnd = -1;
    while (at < text.length) {
      const bits = this.read(text, at);
      if ((bits & FIRST_RUN) === 0) break;
      if ((bits & SECOND_RUN) !== 0) {
        lastBoth = at;
        lastBothEnd = at + this.units;
      }
      at += this.units;
    }
    let end: number;
    if (at < text.length && (this.read(text, at) & SECOND_RUN) !== 0) end = this.runEnd(text, at, SECOND_RUN);
    else if (lastBoth >= 0) end = lastBothEnd;
    else return -1;
    return this.contractionEnd(text, end);
  }

  /** Alternative 2 from `index`: a run of the first class (at least one), then one of the second. -1 if it fails. */
  private capitalizedEnd(text: string, index: number): number {
    const firstEnd = this.runEnd(text, index, FIRST_RUN);
    if (firstEnd === index) return -1;
    return this.contractionEnd(text, this.runEnd(text, firstEnd, SECOND_RUN));
  }

  /** Where the piece that starts at `start` (< `text.length`) ends. */
  end(text: string, start: number): number {
    const bits = this.read(text, start);
    const units = this.units;
    const code = this.code;
    // [^\r\n\p{L}\p{N}]: the optional first character of alternatives 1 and 2.
    const prefix = (bits & (LETTER | NUMBER)) === 0 && code !== CARRIAGE_RETURN && code !== LINE_FEED;
    if (prefix && start + units < text.length) {
      const end = this.lettersEnd(text, start + units);
      if (end >= 0) return end;
    }
    if ((bits & (FIRST_RUN | SECOND_RUN)) !== 0) {
      const end = this.lettersEnd(text, start);
      if (end >= 0) return end;
    }
    if (prefix && start + units < text.length) {
      const end = this.capitalizedEnd(text, start + units);
      if (end >= 0) return end;
    }
    if ((bits & FIRST_RUN) !== 0) return this.capitalizedEnd(text, start);
    if ((bits & NUMBER) !== 0) {
      let at = start + units;
      for (let count = 1; count < 3 && at < text.length && (this.read(text, at) & NUMBER) !== 0; count++)
        at += this.units;
      return at;
    }
    // Alternative 4:  ?[^\s\p{L}\p{N}]+[\r\n/]*
    let symbolsStart = -1;
    if ((bits & (SPACE | LETTER | NUMBER)) === 0) symbolsStart = start;
    else if (code === SPACE_CHARACTER && start + 1 < text.length) {
      if ((this.read(text, start + 1) & (SPACE | LETTER | NUMBER)) === 0) symbolsStart = start + 1;
    }
    if (symbolsStart >= 0) {
      let at = this.symbolsEnd(text, symbolsStart);
      while (at < text.length) {
        const unit = text.charCodeAt(at);
        if (unit !== CARRIAGE_RETURN && unit !== LINE_FEED && unit !== SLASH) break;
        at++;
      }
      return at;
    }
    // Whitespace: alternatives 5, 6 and 7.
    const spaceEnd = this.runEnd(text, start, SPACE);
    for (let at = spaceEnd - 1; at >= start; at--) {
      const unit = text.charCodeAt(at);
      if (unit === CARRIAGE_RETURN || unit === LINE_FEED) return at + 1;
    }
    if (spaceEnd === text.length || spaceEnd - start === 1) return spaceEnd;
    // \s+(?!\S): all but the last whitespace character (each is one UTF-16 unit).
    return spaceEnd - 1;
  }

  /** Where the run of characters of none of \s, \p{L}, \p{N} from `index` ends. */
  private symbolsEnd(text: string, index: number): number {
    let at = index;
    while (at < text.length && (this.read(text, at) & (SPACE | LETTER | NUMBER)) === 0) at += this.units;
    return at;
  }
}
