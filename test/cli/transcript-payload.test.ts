// The report's transcript payload gives back every message whole, in order, whatever its text.
import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import type { TranscriptItem } from '../../src/cli/branch-transcript.js';
import { escapeBidiControls } from '../../src/cli/escape-controls.js';
import { encodeTranscript } from '../../src/cli/transcript-payload.js';
import { decodeTranscript } from './read-report-transcript.js';

const item: fc.Arbitrary<TranscriptItem> = fc.record({
  entryId: fc.string({ minLength: 1, maxLength: 12 }),
  timestamp: fc.integer({ min: 0, max: 4_000_000_000_000 }),
  label: fc.constantFrom('user', 'assistant', 'toolResult(bash)', 'toolResult(İ\u202e)'),
  kind: fc.constantFrom('message', 'tool_summary', 'checkpoint'),
  status: fc.constantFrom('in-context', 'archived', 'compacted', 'checkpoint'),
  // Whole characters (a lone surrogate has no UTF-8 form and shows as U+FFFD), newlines, bidi
  // controls, and the characters that would end a script element.
  text: fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 300 }),
    fc.string({
      unit: fc.constantFrom('\n', '\u202e', '\u2066', '<', '>', '&', '"', 'İ', 'a', '\u0000', '😀'),
      maxLength: 60,
    }),
  ),
});

test.prop([fc.array(item, { maxLength: 30 })])('encodes the transcript so that it reads back whole', (items) => {
  const payload = encodeTranscript(items);
  // Base64 only: nothing in it can end its element or be read as markup.
  expect(payload).toMatch(/^[A-Za-z0-9+/]*=*$/);
  expect(decodeTranscript(payload)).toEqual(
    items.map((entry) => ({
      entryId: entry.entryId,
      status: entry.status,
      label: escapeBidiControls(entry.label),
      kind: escapeBidiControls(entry.kind),
      time: new Date(entry.timestamp).toISOString(),
      text: escapeBidiControls(entry.text),
    })),
  );
});
