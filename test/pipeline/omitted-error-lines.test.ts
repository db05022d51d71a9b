// A long output cut to its head and tail keeps, in the marker of the lines it omits, up to three of
// those lines that state an error: a log whose errors are in its middle does not lose them all.
// The output is a real one (test/fixtures/tool-outputs/unseen/worker-log.txt: Python's logging,
// 400 INFO lines and 25 `[Errno 111] Connection refused` errors among them).
import { readFileSync } from 'node:fs';
import { fc, test } from '@fast-check/vitest';
import { processToolOutput, truncateToolContent } from 'ctxkit';
import { describe, expect, it } from 'vitest';

const log = readFileSync(new URL('../fixtures/tool-outputs/unseen/worker-log.txt', import.meta.url), 'utf8');
const lines = log.split('\n');

/** The size of a text as the limits count it: lines, code points, UTF-8 bytes. */
function sizeOf(text: string) {
  return {
    lines: text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0),
    chars: [...text].length,
    bytes: Buffer.byteLength(text),
  };
}

describe('the marker of a head-and-tail cut names the omitted error lines', () => {
  it('names three omitted error lines by their line number, each as the output had it', async () => {
    const { text } = await processToolOutput(log, { limits: { maxLines: 40 } });
    const marker = /\.\.\. \[([\d,]+) lines omitted; among them:\n((?:line \d+: .*\n){2}line \d+: .*)\] \.\.\./.exec(
      text,
    );
    expect(marker).not.toBeNull();
    const named = marker![2]!.split('\n');
    expect(named).toHaveLength(3);
    const shownLines = text.split('\n');
    for (const entry of named) {
      const [, number, said] = /^line (\d+): (.*)$/.exec(entry)!;
      // The line as the output had it, from the middle the cut left out.
      expect(lines[Number(number) - 1]).toBe(said);
      expect(said).toMatch(/ERROR sync: job \d+: upload of .* failed: \[Errno 111\] Connection refused$/);
      expect(shownLines.filter((line) => line === said)).toEqual([]);
    }
    expect(sizeOf(text).lines).toBeLessThanOrEqual(40);
  });

  it('names none when the omitted lines state no error, and when the cut keeps under ten lines', () => {
    const quiet = lines.filter((line) => !line.includes('ERROR')).join('\n');
    expect(truncateToolContent(quiet, { maxLines: 40 }).text).toMatch(/\.\.\. \[[\d,]+ lines omitted\] \.\.\./);
    expect(truncateToolContent(log, { maxLines: 8 }).text).not.toContain('among them');
  });

  test.prop([
    fc.record({
      maxLines: fc.integer({ min: 1, max: 120 }),
      maxChars: fc.integer({ min: 1, max: 12_000 }),
      maxBytes: fc.integer({ min: 1, max: 12_000 }),
    }),
  ])('the cut stays within every limit, whatever the limits', async (limits) => {
    const { text } = await processToolOutput(log, { limits });
    const size = sizeOf(text);
    expect(size.lines).toBeLessThanOrEqual(limits.maxLines);
    expect(size.chars).toBeLessThanOrEqual(limits.maxChars);
    expect(size.bytes).toBeLessThanOrEqual(limits.maxBytes);
  });
});
