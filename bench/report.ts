/** Writes docs/benchmarks.md, keeping the block another benchmark owns (`npm run bench:fidelity`). */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const START = '<!-- fidelity:start -->';
const END = '<!-- fidelity:end -->';

/** The fidelity block of the current file (markers included), or empty markers when there is none. */
export function fidelityBlock(path: URL): string {
  if (!existsSync(path)) return `${START}\n${END}`;
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) return `${START}\n${END}`;
  return text.slice(start, end + END.length);
}

/** Writes `body` followed by the preserved fidelity block. */
export function writeReport(path: URL, body: string): void {
  const block = fidelityBlock(path);
  writeFileSync(path, `${body.trimEnd()}\n\n${block}\n`);
}

/** A markdown table. */
export function table(
  header: readonly string[],
  align: readonly ('l' | 'r')[],
  rows: readonly (readonly string[])[],
): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(align.map((side) => (side === 'r' ? '---:' : '---'))), ...rows.map(line)].join('\n');
}
