// Session text is untrusted, and some characters change what a reader sees without being seen:
// terminal escapes, and Unicode bidi controls, which reorder the text around them (a file name
// "invoice<U+202E>fdp.exe" displays as "invoiceexe.pdf"). Both are shown as escapes, `\u202e`, in
// the terminal, in JSON and in the report.

/** Bidi formatting characters: the embeddings, overrides and isolates, and the three marks. */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** Control characters a terminal acts on: ESC, C0 but tab and newline, DEL, C1. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROLS = /[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f\u001b]/;

/** What must not reach a terminal raw: the control characters and the bidi controls. */
const TERMINAL_CONTROLS = new RegExp(`${CONTROLS.source}|${BIDI_CONTROLS.source}`, 'g');

/** `\u202e` for a character: what JSON and JavaScript read back as that character. */
function unicodeEscape(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Text with its bidi controls shown as `\uXXXX` escapes, for the report. @internal
 */
export function escapeBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, unicodeEscape);
}

/**
 * Text for a terminal: control characters and bidi controls shown as escapes (`\e` for ESC,
 * `\uXXXX` for the others), never sent. Inside JSON the escapes are JSON's own, so the data a
 * program parses back keeps every character. @internal
 */
export function escapeForTerminal(text: string): string {
  return text.replace(TERMINAL_CONTROLS, (character) => (character === '\u001b' ? '\\e' : unicodeEscape(character)));
}
