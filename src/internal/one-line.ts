// Text on one line: the summaries, anchors and checkpoint items quote what they quote this way. @internal

/** Text on one line, spaces collapsed. @internal */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
