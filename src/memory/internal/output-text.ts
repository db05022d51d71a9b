/**
 * Lines numbered like `cat -n`: the number right-aligned in six columns, a tab, the line.
 *
 * @internal
 */
export function numberLines(options: { lines: readonly string[]; first: number }): string {
  return options.lines.map((line, index) => `${String(options.first + index).padStart(6)}\t${line}`).join('\n');
}

/**
 * Cuts `text` to at most `maxCharacters` (UTF-16 units, the notice included), at a line break when
 * one is near, never inside a surrogate pair, and appends `notice`.
 *
 * @internal
 */
export function truncateOutput(options: { text: string; maxCharacters: number; notice: string }): string {
  const { text, maxCharacters, notice } = options;
  if (text.length <= maxCharacters) return text;
  const room = Math.max(0, maxCharacters - notice.length - 1);
  let cut = text.slice(0, room);
  const lineBreak = cut.lastIndexOf('\n');
  if (lineBreak > room / 2) cut = cut.slice(0, lineBreak);
  else if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}\n${notice}`;
}
