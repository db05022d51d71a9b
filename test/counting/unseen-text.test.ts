// The approximate counter on text nobody tuned it for: the output of real tools (the corpus that
// bench/tool-corpus.ts makes by running tsc, node --test, vitest, pytest, cargo, java, git… on
// scratch projects, with the source maps tsc wrote and ICU's localized names as JSON) and tools run
// here, checked against o200k_base in 2,000-character chunks.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { approximateCounter } from 'ctxkit';
import { createTokenizerCounter } from 'ctxkit/tokenizer';
import { describe, expect, it } from 'vitest';
import type { ToolCorpus } from '../../bench/tool-corpus.js';

const exact = createTokenizerCounter({ encoding: 'o200k_base' });
const root = fileURLToPath(new URL('../..', import.meta.url));
const corpus = JSON.parse(
  readFileSync(new URL('../fixtures/tool-outputs/real/corpus.json', import.meta.url), 'utf8'),
) as ToolCorpus;

/** A command's output, or nothing when the tool is missing. */
function runHere(file: string, args: string[]): string {
  try {
    return execFileSync(file, args, { cwd: root, encoding: 'utf8', maxBuffer: 32 * 1024 * 1024, stdio: 'pipe' });
  } catch (error) {
    return typeof (error as { stdout?: unknown }).stdout === 'string' ? (error as { stdout: string }).stdout : '';
  }
}

const texts: { name: string; text: string }[] = [
  ...corpus.entries.map((entry) => ({ name: entry.name, text: entry.output })),
  ...corpus.texts,
  { name: 'node --help', text: runHere(process.execPath, ['--help']) },
  { name: 'tsc --help --all', text: runHere(process.execPath, ['node_modules/typescript/bin/tsc', '--help', '--all']) },
  { name: 'grep -rn', text: runHere('grep', ['-rn', 'export function', 'src']) },
  { name: 'find', text: runHere('find', ['src', 'test', '-name', '*.ts']) },
  { name: 'git help -a', text: runHere('git', ['help', '-a']) },
].filter((entry) => entry.text.length > 0);

const CHUNK = 2_000;
/** A last chunk shorter than this is too short for a ratio to say much (rounding dominates). */
const SHORTEST = 500;

interface Chunk {
  name: string;
  at: number;
  o200k: number;
  ratio: number;
}

function chunks(): Chunk[] {
  const out: Chunk[] = [];
  for (const { name, text } of texts) {
    const points = [...text];
    for (let at = 0; at < points.length; at += CHUNK) {
      const chunk = points.slice(at, at + CHUNK).join('');
      if (points.length > SHORTEST && [...chunk].length < SHORTEST) continue;
      const o200k = exact.count(chunk);
      out.push({ name, at, o200k, ratio: approximateCounter.count(chunk) / o200k });
    }
  }
  return out;
}

describe('approximateCounter on unseen tool output', () => {
  const measured = chunks();

  it('measures enough chunks to say something', () => {
    expect(measured.length).toBeGreaterThan(100);
  });

  it('keeps 99% of 2,000-character chunks within ±10% of o200k_base', () => {
    const outside = measured.filter((chunk) => Math.abs(chunk.ratio - 1) > 0.1);
    expect(outside.length / measured.length, JSON.stringify(outside)).toBeLessThanOrEqual(0.01);
  });

  it('never under-counts a chunk by more than 10%', () => {
    expect(measured.filter((chunk) => chunk.ratio < 0.9)).toEqual([]);
  });

  it.each([
    ['vitest', "vitest's ⎯ separators"],
    ['vitest-colour', 'ANSI colour codes'],
    ['tsc-pretty', "tsc's colours and ~~~ underlines"],
    ['localized-json-compact', 'localized JSON'],
  ])('counts %s (%s) within ±10%', (name) => {
    const text = texts.find((entry) => entry.name === name)!.text;
    const ratio = approximateCounter.count(text) / exact.count(text);
    expect(ratio).toBeGreaterThanOrEqual(0.9);
    expect(ratio).toBeLessThanOrEqual(1.1);
  });

  it('counts the source maps tsc writes within ±10%', () => {
    const maps = corpus.texts.filter((entry) => entry.name.startsWith('sourcemap-'));
    expect(maps.length).toBeGreaterThan(0);
    const text = maps.map((entry) => entry.text).join('\n');
    const ratio = approximateCounter.count(text) / exact.count(text);
    expect(ratio).toBeGreaterThanOrEqual(0.9);
    expect(ratio).toBeLessThanOrEqual(1.1);
  });

  it('counts symbols o200k_base has no token for as their bytes, repeated or not', () => {
    expect(approximateCounter.count('⎯'.repeat(40))).toBeGreaterThanOrEqual(exact.count('⎯'.repeat(40)) * 0.9);
    expect(approximateCounter.count('━'.repeat(40))).toBeLessThanOrEqual(10);
    expect(approximateCounter.count('='.repeat(64))).toBeLessThanOrEqual(3);
  });
});
