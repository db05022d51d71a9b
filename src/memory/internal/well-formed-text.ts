/**
 * Whether `value` is well-formed UTF-16: every surrogate is part of a pair. Lone surrogates cannot be
 * encoded as UTF-8, so a file store would silently replace them.
 *
 * @internal
 */
export function isWellFormedText(value: string): boolean {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code < 0xd800 || code > 0xdfff) continue;
    const next = value.charCodeAt(index + 1);
    if (code > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return false;
    index++;
  }
  return true;
}
