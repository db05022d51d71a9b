/**
 * Code-point-safe clipping shared by the summarization paths. Internal.
 */

/** Splits text into code points (an astral character is one element). @internal */
export function codePoints(text: string): string[] {
  return Array.from(text);
}

/**
 * Keeps at most `max` code points: the head only, or the head and the tail around a marker.
 * The marker counts toward `max`; when there is no room for it, only the head is kept.
 *
 * @internal
 */
export function clipText(text: string, max: number, mode: 'head' | 'head_tail' = 'head_tail'): string {
  if (text.length <= max) return text; // UTF-16 length bounds the code-point count from above
  const points = codePoints(text);
  if (points.length <= max) return text;
  const marker = '\n[…]\n';
  if (mode === 'head' || max < marker.length + 2) return points.slice(0, max).join('');
  const room = max - marker.length;
  const head = Math.ceil(room / 2);
  const tail = room - head;
  return points.slice(0, head).join('') + marker + (tail > 0 ? points.slice(points.length - tail).join('') : '');
}
