import { gzipSync } from 'node:zlib';
import type { TranscriptItem } from './branch-transcript.js';
import { escapeBidiControls } from './escape-controls.js';

/**
 * How hard the payload is compressed. Level 1 is what keeps `ctxkit report` quick: on a session of
 * 50 MB it writes a payload about a tenth larger than level 6 does, in well under half the time.
 */
const LEVEL = 1;

/**
 * The transcript as the report carries it: gzip, then base64, so that the page holds a third of the
 * bytes and none of them can end its element. A browser parses every byte of a page before its
 * script runs, and on a session of 50 MB that parsing was most of the time the report took to open.
 *
 * Inside the gzip, in UTF-8: one line of JSON, `[[entry id, status, label, kind, ISO time, text
 * length], …]`, then every message's text, one after the other, each as long as its row says (in
 * UTF-16 code units, as JavaScript counts). The page decodes it all as one string and cuts each text
 * out of it, so opening never parses the texts as JSON. Bidi controls are shown as `\uXXXX`
 * escapes; a lone surrogate, which UTF-8 cannot carry, arrives as U+FFFD (one unit for one).
 *
 * @internal
 */
export function encodeTranscript(transcript: readonly TranscriptItem[]): string {
  const texts = transcript.map((item) => escapeBidiControls(item.text));
  const rows = transcript.map((item, index) => [
    item.entryId,
    item.status,
    escapeBidiControls(item.label),
    escapeBidiControls(item.kind),
    new Date(item.timestamp).toISOString(),
    texts[index]!.length,
  ]);
  // JSON writes a newline inside a string as \n, so the first newline ends the rows.
  return gzipSync(Buffer.from(`${JSON.stringify(rows)}\n${texts.join('')}`, 'utf8'), { level: LEVEL }).toString(
    'base64',
  );
}
