import {
  ACCENTED,
  ASCII_REPEAT_RATE,
  ASCII_TYPE,
  ASTRAL_COST,
  BLANK,
  blankLineCost,
  CARRIAGE_RETURN_WEIGHT,
  CJK,
  CONTROL_COST,
  DIGIT,
  DIGIT_RUN,
  DOUBLED_CAPITALS_COST,
  GLUED_PATH_MARK,
  GLUED_PUNCT,
  isLetter,
  JOINER_COST,
  LETTER,
  LINE_FEED_WEIGHT,
  LOWER,
  mergesWhenRepeated,
  NEWLINE,
  PUNCT,
  PUNCT_RATE,
  PUNCT_RUN,
  pieceCost,
  QUOTED_FACTOR,
  REPEATED_PUNCT_RATE,
  RUN_OF,
  rarePair,
  SCRIPT_BASE,
  SPACE,
  SPACE_WEIGHT,
  SYMBOL,
  TAB_WEIGHT,
  UNSPACED_FACTOR,
  UPPER,
  WHITESPACE_RUN,
  WORD_RUN,
} from './text-classes.js';
import { BLOCK_COSTS, BLOCK_GLUED_COSTS, BLOCK_TYPES, blockOf } from './unicode-blocks.js';

/**
 * Estimates the o200k_base token count of `text` in one pass over its UTF-16 code units.
 *
 * It mimics how these tokenizers first split text (words with their leading space, up to three
 * digits, punctuation with the newlines after it, whitespace), then prices each piece: short ASCII
 * words one token, long or random-looking ones more, CJK characters most of a token each, other
 * alphabets a fraction of a token per letter, emoji about two.
 *
 * @internal
 */
export function estimate(text: string): number {
  let total = 0;
  let run = -1;
  let previousType = NEWLINE;
  // Whitespace: blanks since the last newline and their weight, whether the last was a blank, the
  // weight of the newlines read with the punctuation before them, and of the rest up to the last
  // newline.
  let spaces = 0;
  let spaceWeight = 0;
  let lastBlank = false;
  let afterPunct = false;
  let punctNewlines = 0;
  let headWeight = 0;
  // A word: its closed ASCII pieces, its other letters, and the open ASCII piece.
  let asciiCost = 0;
  let scriptCost = 0;
  let cjkCost = 0;
  let spaced = false;
  let quoted = false;
  let accentCost = 0;
  let pieceLetters = 0;
  let pieceCapitals = 0;
  let pieceRare = 0;
  let lastPairRare = 0;
  let pieceRandom = false;
  let pieceDoubled = false;
  // Digits, and a run of punctuation and symbols.
  let digits = 0;
  let marks = 0;
  let marksCost = 0;
  let symbols = 0;
  let markAfterSpace = false;
  let pathMark = false;

  const closePiece = () => {
    if (pieceLetters > 0) asciiCost += pieceCost(pieceLetters, pieceRare, pieceRandom);
    if (pieceDoubled && pieceLetters >= 3 && pieceCapitals === pieceLetters) asciiCost += DOUBLED_CAPITALS_COST;
    pieceDoubled = false;
    pieceLetters = 0;
    pieceCapitals = 0;
    pieceRare = 0;
    pieceRandom = false;
  };
  const closeRun = (next: number) => {
    if (run === WHITESPACE_RUN) {
      // Newlines right after punctuation are read with it (`;\n`, `},\n\n`); the rest of the run up to
      // its last newline is one piece. Long ones cost a token per so many characters.
      total += Math.max(0, punctNewlines - 1) + (headWeight > 0 ? Math.max(1, headWeight) : 0);
      // The last space joins the next word or punctuation; a tab joins only a word.
      if (spaces > 0) {
        if (isLetter(next)) total += spaces > 1 ? 1 : 0;
        else if (next === PUNCT || next === SYMBOL) total += (spaces > 1 ? 1 : 0) + (lastBlank ? 1 : 0);
        else total += spaces > 1 && next === DIGIT ? 2 : 1;
        total += Math.max(0, spaceWeight - 1);
      }
    } else if (run === WORD_RUN) {
      closePiece();
      const factor = spaced ? 1 : quoted ? QUOTED_FACTOR : UNSPACED_FACTOR;
      let cost = asciiCost + cjkCost;
      cost += accentCost * factor;
      if (scriptCost > 0) cost += (scriptCost + SCRIPT_BASE) * factor;
      total += Math.max(cost, 1);
    } else if (run === DIGIT_RUN) {
      total += Math.ceil(digits / 3);
    } else if (run === PUNCT_RUN) {
      // One mark right before a word (not after a space) is read with the word: `.count`.
      if (marks === 1 && symbols === 0 && !markAfterSpace && isLetter(next))
        total += pathMark ? GLUED_PATH_MARK : GLUED_PUNCT;
      else total += (marks > 0 ? Math.max(1, marksCost) : 0) + symbols;
    }
  };

  for (let index = 0; index < text.length; index++) {
    let code = text.charCodeAt(index);
    let type: number;
    let cost = 0;
    let glued = 0;
    if (code < 0x80) {
      type = ASCII_TYPE[code] as number;
    } else if (
      code >= 0xd800 &&
      code < 0xdc00 &&
      index + 1 < text.length &&
      (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00
    ) {
      code = 0x10000 + ((code - 0xd800) << 10) + (text.charCodeAt(++index) - 0xdc00);
      // Rare Han characters join words; emoji, tags and the rest are symbols.
      type = code >= 0x20000 && code < 0x40000 ? CJK : SYMBOL;
      cost = code >= 0xe0000 ? JOINER_COST : ASTRAL_COST;
      glued = cost;
    } else {
      const block = blockOf(code);
      type = BLOCK_TYPES[block] as number;
      cost = BLOCK_COSTS[block] as number;
      glued = BLOCK_GLUED_COSTS[block] as number;
    }

    const nextRun = RUN_OF[type] as number;
    if (nextRun !== run) {
      closeRun(type);
      run = nextRun;
      if (run === WHITESPACE_RUN) {
        spaces = 0;
        spaceWeight = 0;
        punctNewlines = 0;
        headWeight = 0;
        afterPunct = previousType === PUNCT || previousType === SYMBOL;
      } else if (run === WORD_RUN) {
        asciiCost = 0;
        scriptCost = 0;
        cjkCost = 0;
        accentCost = 0;
        spaced = previousType === SPACE;
        const before = text.charCodeAt(index - 1);
        quoted = previousType === PUNCT && (before === 0x22 || before === 0x27);
        pieceRandom = previousType === DIGIT && type === LOWER; // `Float64Array` is no random text
      } else if (run === DIGIT_RUN) {
        digits = 0;
      } else {
        marks = 0;
        marksCost = 0;
        symbols = 0;
        markAfterSpace = previousType === SPACE;
        // `.`, `/` or `(` between two words of a dotted name or a path (`java.lang.Integer`, `run(Main`).
        pathMark =
          (previousType === LOWER || previousType === UPPER) && (code === 0x2e || code === 0x2f || code === 0x28);
      }
    }

    switch (type) {
      case NEWLINE: {
        const weight = code === 0x0a ? LINE_FEED_WEIGHT : code === 0x0d ? CARRIAGE_RETURN_WEIGHT : cost;
        if (afterPunct) {
          punctNewlines += weight;
        } else {
          if (spaces > 0) headWeight += blankLineCost(spaceWeight);
          headWeight += weight;
        }
        spaces = 0;
        spaceWeight = 0;
        break;
      }
      case SPACE:
        afterPunct = false;
        spaces++;
        spaceWeight += SPACE_WEIGHT;
        lastBlank = false;
        break;
      case BLANK:
        afterPunct = false;
        spaces++;
        spaceWeight += code === 0x09 ? TAB_WEIGHT : code < 0x80 ? 1 : cost;
        lastBlank = true;
        break;
      case UPPER:
        if (previousType === LOWER || previousType === ACCENTED) closePiece();
        lastPairRare = pieceLetters > 0 && previousType === UPPER ? rarePair(text.charCodeAt(index - 1), code) : 0;
        pieceRare += lastPairRare;
        // `AA`, `II`, `UU` inside capitals: a source-map segment, not a word.
        if (
          previousType === UPPER &&
          code === text.charCodeAt(index - 1) &&
          (code === 0x41 || code === 0x49 || code === 0x55)
        )
          pieceDoubled = true;
        pieceLetters++;
        pieceCapitals++;
        break;
      case LOWER:
        if (pieceCapitals >= 2 && pieceCapitals === pieceLetters) {
          // `HTTPServer` reads as `HTTP` + `Server`.
          pieceLetters--;
          pieceRare -= lastPairRare;
          closePiece();
          pieceLetters = 1;
          pieceCapitals = 1;
        }
        if (pieceLetters > 0 && (previousType === UPPER || previousType === LOWER)) {
          pieceRare += rarePair(text.charCodeAt(index - 1), code);
        }
        pieceLetters++;
        break;
      case ACCENTED:
        pieceLetters++;
        accentCost += cost;
        break;
      case LETTER:
        closePiece();
        scriptCost += cost;
        break;
      case CJK:
        closePiece();
        cjkCost += cost;
        break;
      case DIGIT:
        digits++;
        break;
      default: {
        const repeated = code === text.charCodeAt(index - 1);
        if (type === PUNCT) {
          if (code < 0x20 || code === 0x7f) {
            symbols += CONTROL_COST; // the escape of a colour code is a token of its own
          } else {
            marks++;
            marksCost += marks > 1 && repeated ? (ASCII_REPEAT_RATE[code] as number) : PUNCT_RATE;
          }
        } else if (previousType !== SYMBOL) {
          symbols += cost;
        } else {
          // Glued to the symbol before it: only a few merge when repeated; the rest split into bytes.
          symbols += code < 0x10000 && repeated && mergesWhenRepeated(code) ? REPEATED_PUNCT_RATE : glued;
        }
      }
    }
    previousType = type;
  }
  closeRun(-1);
  return total;
}

/** Rounds an estimate up, ignoring the rounding noise of summing fractions (`1.2 + 2.6 + 1.2`). @internal */
export function roundUp(estimate: number): number {
  return Math.ceil(estimate - 1e-9 * Math.max(1, estimate));
}
