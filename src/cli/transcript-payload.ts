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
 * Inside the gzip: one line of JSON, `[[entry id, status, label, kind, ISO time, text bytes], …]`,
 * then every message's text in UTF-8, one after the other, each as long as its row says. The page
 * decodes a text only when it draws or searches it, so opening never parses all of it. Bidi controls
 * are shown as `\uXXXX` escapes.
 *
 * @internal
 */
export function encodeTranscript(transcript: readonly TranscriptItem[]): string {
  const texts = transcript.map((item) => Buffer.from(escapeBidiControls(item.text), 'utf8'));
  const rows = transcript.map((item, index) => [
    item.entryId,
    item.status,
    escapeBidiControls(item.label),
    escapeBidiControls(item.kind),
    new Date(item.timestamp).toISOString(),
    texts[index]!.length,
  ]);
  // JSON writes a newline inside a string as \n, so the first newline byte ends the rows.
  const head = Buffer.from(`${JSON.stringify(rows)}\n`, 'utf8');
  return gzipSync(Buffer.concat([head, ...texts]), { level: LEVEL }).toString('base64');
}
