// Reads back the transcript a report page carries (gzip and base64, see src/cli/transcript-payload.ts),
// as the page's script does, for tests that check what the page shows against its data.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/** One message of the transcript, as the page has it. */
export interface ReportRow {
  entryId: string;
  status: string;
  label: string;
  kind: string;
  time: string;
  text: string;
}

/** The transcript of the report page in `file`. */
export function readReportTranscript(file: string): ReportRow[] {
  const page = readFileSync(file, 'utf8');
  const found =
    /<script type="application\/gzip" id="transcript-data" data-encoding="base64">([A-Za-z0-9+/=]*)<\/script>/.exec(
      page,
    );
  if (!found) throw new Error(`${file} has no transcript data`);
  return decodeTranscript(found[1]!);
}

/** The transcript from the report's payload (what `encodeTranscript` wrote). */
export function decodeTranscript(payload: string): ReportRow[] {
  const data = gunzipSync(Buffer.from(payload, 'base64')).toString('utf8');
  const headEnd = data.indexOf('\n');
  const rows = JSON.parse(data.slice(0, headEnd)) as [string, string, string, string, string, number][];
  let offset = headEnd + 1;
  return rows.map(([entryId, status, label, kind, time, length]) => {
    const text = data.slice(offset, offset + length);
    offset += length;
    return { entryId, status, label, kind, time, text };
  });
}
