/**
 * UTF-8 bytes of `text`, counting stops once past `atMost`.
 *
 * @internal
 */
export function utf8Length(text: string, atMost: number): number {
  let bytes = 0;
  for (let index = 0; index < text.length && bytes <= atMost; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * The longest prefix of `text` of at most `maxBytes` UTF-8 bytes, never splitting a character.
 *
 * @internal
 */
export function clipUtf8(text: string, maxBytes: number): string {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code >= 0xd800 && code <= 0xdbff ? 4 : 3;
    if (bytes + size > maxBytes) return text.slice(0, index);
    bytes += size;
    if (size === 4) index++;
  }
  return text;
}
