/** Writes docs/benchmarks.md, keeping the blocks other runs own (`npm run bench:fidelity`, `npm run soak`). */
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

/** The soak block (`npm run soak`) of the current file, markers included, or empty when there is none. */
function soakBlock(path: URL): string {
  if (!existsSync(path)) return '';
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf('<!-- soak:start -->');
  const end = text.indexOf('<!-- soak:end -->');
  return start < 0 || end < start ? '' : `\n\n${text.slice(start, end + '<!-- soak:end -->'.length)}`;
}

/** The native-compaction block (`npm run bench:native`) of the current file, markers included, or empty. */
function nativeBlock(path: URL): string {
  if (!existsSync(path)) return '';
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf('<!-- native:start -->');
  const end = text.indexOf('<!-- native:end -->');
  return start < 0 || end < start ? '' : `\n\n${text.slice(start, end + '<!-- native:end -->'.length)}`;
}

/** Writes `body` followed by the preserved fidelity, soak and native-compaction blocks. */
export function writeReport(path: URL, body: string): void {
  const block = fidelityBlock(path);
  writeFileSync(path, `${body.trimEnd()}\n\n${block}${soakBlock(path)}${nativeBlock(path)}\n`);
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
