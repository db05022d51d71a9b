/** The comparison anchors are checked with. Internal. */

const IGNORED = /[`'"‘’“”*_]/g;

/**
 * Text as anchors compare it: NFC, lower case, without quotes, backticks, asterisks or underscores
 * used as emphasis, spacing collapsed. `_` is dropped everywhere, so `MAX_RETRIES` and `MAXRETRIES`
 * compare equal; that is looser than exact, never stricter.
 *
 * @internal
 */
export function normalizeForCheck(text: string): string {
  return text.normalize('NFC').toLowerCase().replace(IGNORED, '').replace(/\s+/g, ' ').trim();
}
