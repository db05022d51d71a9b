/** Writes docs/benchmarks.md, keeping the blocks other runs own (`npm run bench:fidelity`, `npm run soak`, `npm run bench:cost`, `npm run bench:native`, `npm run bench:langchain`). */
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

/**
 * The soak block (`npm run soak`) of the current file, markers included, with the notes written
 * after it, or empty when there is none.
 */
function soakBlock(path: URL): string {
  if (!existsSync(path)) return '';
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf('<!-- soak:start -->');
  const end = text.indexOf('<!-- soak:end -->');
  if (start < 0 || end < start) return '';
  // The notes after the soak block are its own, up to the next block another run owns.
  const next = ['<!-- cost:start -->', '<!-- native:start -->', '<!-- langchain:start -->']
    .map((marker) => text.indexOf(marker, end))
    .filter((index) => index >= 0);
  return `\n\n${text.slice(start, next.length > 0 ? Math.min(...next) : undefined).trimEnd()}`;
}

/** The cost block (`npm run bench:cost`) of the current file, markers included, or empty when there is none. */
function costBlock(path: URL): string {
  if (!existsSync(path)) return '';
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf('<!-- cost:start -->');
  const end = text.indexOf('<!-- cost:end -->');
  return start < 0 || end < start ? '' : `\n\n${text.slice(start, end + '<!-- cost:end -->'.length)}`;
}

/** The native-compaction block (`npm run bench:native`) of the current file, markers included, or empty. */
function nativeBlock(path: URL): string {
  if (!existsSync(path)) return '';
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf('<!-- native:start -->');
  const end = text.indexOf('<!-- native:end -->');
  return start < 0 || end < start ? '' : `\n\n${text.slice(start, end + '<!-- native:end -->'.length)}`;
}

/** The LangChain middleware block (`npm run bench:langchain`) of the current file, markers included, or empty. */
function langchainBlock(path: URL): string {
  if (!existsSync(path)) return '';
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf('<!-- langchain:start -->');
  const end = text.indexOf('<!-- langchain:end -->');
  return start < 0 || end < start ? '' : `\n\n${text.slice(start, end + '<!-- langchain:end -->'.length)}`;
}

/** Writes `body` followed by the preserved fidelity, soak, cost, native-compaction and LangChain blocks. */
export function writeReport(path: URL, body: string): void {
  const block = fidelityBlock(path);
  writeFileSync(
    path,
    `${body.trimEnd()}\n\n${block}${soakBlock(path)}${costBlock(path)}${nativeBlock(path)}${langchainBlock(path)}\n`,
  );
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
