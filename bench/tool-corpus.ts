/**
 * A corpus of tool output nobody tuned the parsers for: it builds small broken projects in a scratch
 * folder and runs the real tools on them (tsc, node --test, vitest, pytest, cargo, javac/java,
 * python, git, grep, biome), each tool that is installed. The facts each output must keep (error
 * codes, locations, failing tests, assertion messages, exit statuses) come from the tools' own
 * structured output — tsc `--pretty false`, junit and JSON reporters, cargo's JSON messages,
 * `git status --porcelain`, `grep -c` — or from the lines the generator itself wrote a `throw` on,
 * never from the parsers under test.
 *
 * `npm run corpus` writes it to test/fixtures/tool-outputs/real/corpus.json (the tests read that
 * file); `npm run bench:fidelity` generates it afresh.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A fact an output states: kept when every key is found in a digest (compared without case or spacing). */
export interface CorpusFact {
  kind: 'exit' | 'count' | 'code' | 'location' | 'test' | 'message' | 'path' | 'match' | 'command';
  keys: string[];
}

/** One run of one tool. */
export interface CorpusEntry {
  /** Short name (`tsc-pretty`, `pytest-tb-short`). */
  name: string;
  /** The command as an agent would have typed it. */
  command: string;
  /** What the tool printed, stdout and stderr interleaved as a shell shows them. */
  output: string;
  exitCode: number;
  facts: CorpusFact[];
  /** Added after the parsers were fixed against the rest, and not tuned for: the honest measure. */
  heldOut?: boolean;
}

/** Other text the tools produce, for the token estimator only (no facts): source maps, JSON, logs. */
export interface CorpusText {
  name: string;
  text: string;
}

export interface ToolCorpus {
  entries: CorpusEntry[];
  texts: CorpusText[];
  /** Tools that were not installed, so their part of the corpus is missing. */
  skipped: string[];
}

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(REPO, 'node_modules', '.bin');

interface Ran {
  output: string;
  exitCode: number;
}

/** Runs a shell command in `cwd`, stdout and stderr together. */
function run(command: string, cwd: string, env: Record<string, string | undefined> = {}, stderr = true): Ran {
  const base: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', CI: '1', ...env };
  delete base.FORCE_COLOR;
  if (env.FORCE_COLOR !== undefined) {
    base.FORCE_COLOR = env.FORCE_COLOR;
    delete base.NO_COLOR;
  }
  const result = spawnSync('sh', ['-c', stderr ? `${command} 2>&1` : `${command} 2>/dev/null`], {
    cwd,
    encoding: 'utf8',
    env: base,
    maxBuffer: 64 * 1024 * 1024,
    timeout: 240_000,
  });
  return { output: result.stdout ?? '', exitCode: result.status ?? 1 };
}

function has(tool: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).status === 0;
}

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** The 1-based line of the first line of `text` containing `marker`. */
function lineOf(text: string, marker: string): number {
  const index = text.split('\n').findIndex((line) => line.includes(marker));
  if (index < 0) throw new Error(`marker ${marker} not found`);
  return index + 1;
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m|#x1B\\[[0-9;]*m`, 'g');

/** Decodes the few XML entities junit reporters write, without terminal colours. */
function xmlText(text: string): string {
  return text
    .replace(ANSI, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, code) => String.fromCodePoint(Number(code)))
    .replace(/&amp;/g, '&');
}

/** The first line of a message, the part a reader must still see. */
function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line.length > 0) ?? ''
  );
}

const exitFact = (exitCode: number): CorpusFact => ({ kind: 'exit', keys: [`exit ${exitCode}`] });

// ---------------------------------------------------------------------------------------------- tsc

const TS_FILES: Record<string, string> = {
  'tsconfig.json': JSON.stringify(
    {
      compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'nodenext', sourceMap: true },
      include: ['src', 'test'],
    },
    null,
    2,
  ),
  'src/user.ts': `export interface User {\n  id: number;\n  name: string;\n  email?: string;\n}\n\nexport function displayName(user: User): string {\n  return user.nmae.toUpperCase();\n}\n\nexport function userId(user: User): string {\n  return user.id;\n}\n`,
  'src/order.ts': `import type { User } from './user.js';\n\nexport interface Order {\n  owner: User;\n  lines: { sku: string; quantity: number; price: number }[];\n}\n\nexport function total(order: Order): number {\n  return order.lines.reduce((sum, line) => sum + line.quantity * line.price, '0');\n}\n\nexport function addLine(order: Order, sku: string, quantity: string) {\n  order.lines.push({ sku, quantity, price: 0 });\n}\n\nexport function owner(order: Order) {\n  return formatOwner(order.owner);\n}\n`,
  'src/util/format.ts': `export function pad(value, width: number): string {\n  return String(value).padStart(width);\n}\n\nexport const currency = (amount: number) => amount.toFixed('2');\n`,
  'test/order.test.ts': `import { total } from '../src/order.js';\n\nconst order = { owner: { id: 1 }, lines: [] };\nconst sum: string = total(order);\nconsole.log(sum.lenght);\n`,
};

function tscEntries(root: string): CorpusEntry[] {
  write(root, TS_FILES);
  const plain = run(`${BIN}/tsc --noEmit -p . --pretty false`, root);
  const truth: { code: string; location: string }[] = [];
  for (const line of plain.output.split('\n')) {
    const match = /^(.+?)\((\d+),(\d+)\): error (TS\d+): /.exec(line);
    if (match) truth.push({ code: match[4]!, location: `${match[1]}:${match[2]}:${match[3]}` });
  }
  const facts: CorpusFact[] = [
    exitFact(plain.exitCode),
    { kind: 'count', keys: [`${truth.length} errors`] },
    ...[...new Set(truth.map((entry) => entry.code))].map((code) => ({ kind: 'code' as const, keys: [code] })),
    ...truth.map((entry) => ({ kind: 'location' as const, keys: [entry.location] })),
  ];
  const pretty = run(`${BIN}/tsc --noEmit -p . --pretty true`, root);
  return [
    { name: 'tsc', command: 'npx tsc --noEmit -p . --pretty false', ...plain, facts },
    { name: 'tsc-pretty', command: 'npx tsc --noEmit -p .', ...pretty, facts },
  ];
}

// ---------------------------------------------------------------------------------------- node:test

const NODE_TEST = `import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyCoupon, parsePrice, totalOf } from './cart.mjs';

describe('cart totals', () => {
  test('sums quantity times price', () => {
    assert.deepStrictEqual(totalOf([{ quantity: 2, price: 3 }]), { total: 6, currency: 'EUR' });
  });
  test('empty cart is zero', () => {
    assert.equal(totalOf([]).total, 0);
  });
  describe('coupons', () => {
    test('applies a percentage coupon', () => {
      assert.strictEqual(applyCoupon(100, 'SAVE10'), 90);
    });
  });
});

test('parsePrice rejects text', () => {
  assert.throws(() => parsePrice('abc'), /not a price/);
});

test('parsePrice reads cents', async () => {
  const value = parsePrice('12.50');
  assert.ok(value > 13, 'price should exceed 13');
});
`;

const CART = `export function totalOf(lines) {
  const total = lines.reduce((sum, line) => sum + line.quantity * line.price, 0);
  return { total, currency: 'USD' };
}
export function applyCoupon(amount, code) {
  return code === 'SAVE10' ? amount * 0.91 : amount;
}
export function parsePrice(text) {
  return Number.parseFloat(text);
}
`;

function nodeTestEntries(root: string): CorpusEntry[] {
  write(root, { 'cart.mjs': CART, 'cart.test.mjs': NODE_TEST });
  const junit = run('node --test --test-reporter=junit cart.test.mjs', root);
  const facts: CorpusFact[] = [exitFact(junit.exitCode)];
  for (const match of junit.output.matchAll(/<testcase name="([^"]+)"[^>]*>\s*<failure [^>]*message="([^"]*)"/g)) {
    facts.push({ kind: 'test', keys: [xmlText(match[1]!)] });
    // junit joins the message's lines without a space: keep its first sentence.
    const message = firstLine(xmlText(match[2]!))
      .split(/:(?=\S)/)[0]!
      .replace(/:$/, '');
    if (message) facts.push({ kind: 'message', keys: [message.slice(0, 60)] });
  }
  const spec = run('node --test --test-reporter=spec cart.test.mjs', root);
  const tap = run('node --test --test-reporter=tap cart.test.mjs', root);
  return [
    { name: 'node-test-spec', command: 'node --test cart.test.mjs', ...spec, facts },
    { name: 'node-test-tap', command: 'node --test --test-reporter=tap cart.test.mjs', ...tap, facts },
  ];
}

// -------------------------------------------------------------------------------------------- vitest

const VITEST_TEST = `import { describe, expect, it } from 'vitest';
import { slugify, wordCount } from './text.js';

describe('slugify', () => {
  it('lowercases and joins words', () => {
    expect(slugify('Hello World')).toBe('hello-world');
  });
  it('drops punctuation', () => {
    expect(slugify('Ready, set, go!')).toEqual('ready-set-go');
  });
});

describe('wordCount', () => {
  it('counts words', () => {
    expect(wordCount('one two  three')).toBe(3);
  });
  it('returns a summary object', () => {
    expect({ words: wordCount('a b'), lines: 1 }).toEqual({ words: 2, lines: 2 });
  });
  it('throws on null', () => {
    expect(() => wordCount(null)).toThrow('input must be a string');
  });
});
`;

const VITEST_TEXT = `export function slugify(text) {
  return text.toLowerCase().split(' ').join('-');
}
export function wordCount(text) {
  return text.split(' ').length;
}
`;

function vitestEntries(root: string): CorpusEntry[] {
  write(root, { 'text.js': VITEST_TEXT, 'text.test.js': VITEST_TEST, 'package.json': '{"type":"module"}' });
  symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'), 'dir');
  const json = run(`${BIN}/vitest run --reporter=json --outputFile=report.json`, root);
  const facts: CorpusFact[] = [exitFact(json.exitCode)];
  const report = JSON.parse(readFileSync(join(root, 'report.json'), 'utf8')) as {
    testResults: { assertionResults: { status: string; title: string; failureMessages: string[] }[] }[];
  };
  for (const file of report.testResults)
    for (const test of file.assertionResults) {
      if (test.status !== 'failed') continue;
      facts.push({ kind: 'test', keys: [test.title] });
      const message = firstLine(test.failureMessages[0] ?? '')
        .replace(/^\w*Error: /, '')
        .slice(0, 60);
      if (message) facts.push({ kind: 'message', keys: [message] });
    }
  const plain = run(`${BIN}/vitest run`, root);
  const colour = run(`${BIN}/vitest run`, root, { FORCE_COLOR: '1' });
  return [
    { name: 'vitest', command: 'npx vitest run', ...plain, facts },
    { name: 'vitest-colour', command: 'npx vitest run', ...colour, facts },
  ];
}

// -------------------------------------------------------------------------------------------- pytest

const PYTEST_TEST = `import pytest
from inventory import restock, price_with_tax


@pytest.fixture
def warehouse():
    raise RuntimeError("database unavailable: connection refused")


def test_restock_adds_units():
    assert restock({"apples": 3}, "apples", 2) == {"apples": 6}


def test_tax_rounding():
    assert price_with_tax(10.0) == 11.9


def test_unknown_item_raises():
    with pytest.raises(KeyError):
        restock({}, "pears", 1)


def test_uses_warehouse(warehouse):
    assert warehouse


def test_passes():
    assert price_with_tax(0) == 0
`;

const INVENTORY = `def restock(stock, item, units):
    stock = dict(stock)
    stock[item] = stock.get(item, 0) + units
    return stock


def price_with_tax(amount):
    return round(amount * 1.2, 2)
`;

function pytestEntries(root: string): CorpusEntry[] {
  write(root, { 'test_inventory.py': PYTEST_TEST, 'inventory.py': INVENTORY });
  const xml = run('python3 -m pytest -q -p no:cacheprovider --junitxml=report.xml', root);
  const facts: CorpusFact[] = [exitFact(xml.exitCode)];
  const report = readFileSync(join(root, 'report.xml'), 'utf8');
  for (const match of report.matchAll(
    /<testcase [^>]*name="([^"]+)"[^>]*>\s*<(failure|error) message="([^"]*)"[^>]*>([^<]*)/g,
  )) {
    facts.push({ kind: 'test', keys: [xmlText(match[1]!)] });
    const where = /^(\S+\.py):(\d+): /m.exec(xmlText(match[4]!));
    if (where) facts.push({ kind: 'location', keys: [`${where[1]}:${where[2]}`] });
    const message = firstLine(xmlText(match[3]!))
      .replace(/^failed on setup with "(.*)"$/, '$1')
      .slice(0, 60);
    if (message) facts.push({ kind: 'message', keys: [message] });
  }
  const short = run('python3 -m pytest --tb=short -p no:cacheprovider', root);
  const long = run('python3 -m pytest -p no:cacheprovider', root);
  return [
    { name: 'pytest-tb-short', command: 'pytest --tb=short', ...short, facts },
    { name: 'pytest', command: 'python3 -m pytest', ...long, facts },
  ];
}

// --------------------------------------------------------------------------------------------- cargo

const CARGO_LIB = `pub fn parse_port(text: &str) -> Result<u16, String> {
    text.trim().parse::<u16>().map_err(|error| format!("bad port {text}: {error}"))
}

pub fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_plain_port() {
        assert_eq!(parse_port("8080"), Ok(8081));
    }

    #[test]
    fn rejects_words() {
        let port = parse_port("http").unwrap();
        assert!(port > 0);
    }

    #[test]
    fn mean_of_empty_is_zero() {
        assert!(mean(&[]) == 0.0, "mean of nothing should be 0, got {}", mean(&[]));
    }

    #[test]
    fn mean_of_two() {
        assert_eq!(mean(&[1.0, 3.0]), 2.0);
    }
}
`;

const CARGO_BROKEN = `pub fn area(width: u32, height: u32) -> u32 {
    let unused = 3;
    width * height as u64
}

pub fn label(count: usize) -> String {
    format!("{} items", cuont)
}
`;

function cargoEntries(root: string): CorpusEntry[] {
  const manifest = (name: string) =>
    `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n`;
  write(root, { 'ports/Cargo.toml': manifest('ports'), 'ports/src/lib.rs': CARGO_LIB });
  const ports = join(root, 'ports');
  run('cargo build --tests --offline -q', ports);
  const json = run('cargo test --offline -q -- -Z unstable-options --format json', ports, { RUSTC_BOOTSTRAP: '1' });
  const tested = run('cargo test --offline', ports);
  const testFacts: CorpusFact[] = [exitFact(tested.exitCode)];
  for (const line of json.output.split('\n')) {
    if (!line.startsWith('{')) continue;
    const event = JSON.parse(line) as { type: string; event: string; name?: string; stdout?: string };
    if (event.type !== 'test' || event.event !== 'failed') continue;
    testFacts.push({ kind: 'test', keys: [event.name!] });
    const panic = /panicked at (\S+:\d+:\d+):\n(.*)/.exec(event.stdout ?? '');
    if (panic) {
      testFacts.push({ kind: 'location', keys: [panic[1]!] });
      testFacts.push({ kind: 'message', keys: [panic[2]!.slice(0, 60)] });
    }
  }
  write(root, { 'shapes/Cargo.toml': manifest('shapes'), 'shapes/src/lib.rs': CARGO_BROKEN });
  const shapes = join(root, 'shapes');
  const messages = run('cargo build --offline --message-format=json -q', shapes);
  const buildFacts: CorpusFact[] = [];
  for (const line of messages.output.split('\n')) {
    if (!line.startsWith('{')) continue;
    const event = JSON.parse(line) as {
      reason: string;
      message?: {
        code?: { code: string };
        level: string;
        spans: { file_name: string; line_start: number; column_start: number; is_primary: boolean }[];
      };
    };
    if (event.reason !== 'compiler-message' || !event.message?.spans.length) continue;
    const span = event.message.spans.find((entry) => entry.is_primary) ?? event.message.spans[0]!;
    if (event.message.level === 'error' && event.message.code)
      buildFacts.push({ kind: 'code', keys: [event.message.code.code] });
    buildFacts.push({ kind: 'location', keys: [`${span.file_name}:${span.line_start}:${span.column_start}`] });
  }
  rmSync(join(shapes, 'target'), { recursive: true, force: true });
  const built = run('cargo build --offline', shapes);
  return [
    { name: 'cargo-test', command: 'cargo test', ...tested, facts: testFacts },
    { name: 'cargo-build', command: 'cargo build', ...built, facts: [exitFact(built.exitCode), ...buildFacts] },
  ];
}

// ---------------------------------------------------------------------------------------------- java

const JAVA_MAIN = `import java.util.List;

public class Main {
    public static void main(String[] args) {
        new Main().run();
    }

    void run() {
        try {
            loadConfig("settings.properties");
        } catch (IllegalStateException error) {
            throw new RuntimeException("startup failed", error); // THROW-1
        }
    }

    void loadConfig(String path) {
        try {
            readPort(List.of("host=a", "port=eighty"));
        } catch (NumberFormatException error) {
            throw new IllegalStateException("invalid config " + path, error); // THROW-2
        }
    }

    int readPort(List<String> lines) {
        String value = lines.get(1).split("=")[1];
        return Integer.parseInt(value); // THROW-3
    }
}
`;

function javaEntries(root: string): CorpusEntry[] {
  write(root, { 'Main.java': JAVA_MAIN });
  const compiled = run('javac Main.java', root);
  if (compiled.exitCode !== 0) throw new Error(`javac failed: ${compiled.output}`);
  const ran = run('java Main', root);
  const facts: CorpusFact[] = [
    exitFact(ran.exitCode),
    { kind: 'code', keys: ['java.lang.RuntimeException'] },
    { kind: 'message', keys: ['startup failed'] },
    { kind: 'location', keys: [`Main.java:${lineOf(JAVA_MAIN, 'THROW-1')}`] },
    { kind: 'code', keys: ['java.lang.IllegalStateException'] },
    { kind: 'message', keys: ['invalid config settings.properties'] },
    { kind: 'location', keys: [`Main.java:${lineOf(JAVA_MAIN, 'THROW-2')}`] },
    { kind: 'code', keys: ['java.lang.NumberFormatException'] },
    { kind: 'message', keys: ['For input string: "eighty"'] },
    { kind: 'location', keys: [`Main.java:${lineOf(JAVA_MAIN, 'THROW-3')}`] },
  ];
  return [{ name: 'java-caused-by', command: 'java Main', ...ran, facts }];
}

// -------------------------------------------------------------------------------------------- python

const PYTHON_SCRIPT = `import json


def load(path):
    with open(path) as handle:  # THROW-1
        return json.load(handle)


def settings():
    try:
        return load("missing-settings.json")
    except FileNotFoundError as error:
        raise RuntimeError("cannot start without settings") from error  # THROW-2


if __name__ == "__main__":
    settings()
`;

function pythonEntries(root: string): CorpusEntry[] {
  write(root, { 'app.py': PYTHON_SCRIPT });
  const ran = run('python3 app.py', root);
  const facts: CorpusFact[] = [
    exitFact(ran.exitCode),
    { kind: 'code', keys: ['FileNotFoundError'] },
    { kind: 'location', keys: [`app.py:${lineOf(PYTHON_SCRIPT, 'THROW-1')}`] },
    { kind: 'code', keys: ['RuntimeError'] },
    { kind: 'message', keys: ['cannot start without settings'] },
    { kind: 'location', keys: [`app.py:${lineOf(PYTHON_SCRIPT, 'THROW-2')}`] },
  ];
  return [{ name: 'python-traceback', command: 'python3 app.py', ...ran, facts }];
}

// ---------------------------------------------------------------------------------------- git, grep

function gitEntries(root: string): { entries: CorpusEntry[]; texts: CorpusText[] } {
  const env = {
    GIT_AUTHOR_NAME: 'Dev',
    GIT_AUTHOR_EMAIL: 'dev@example.com',
    GIT_COMMITTER_NAME: 'Dev',
    GIT_COMMITTER_EMAIL: 'dev@example.com',
    GIT_CONFIG_NOSYSTEM: '1',
    HOME: root,
  };
  write(root, {
    'README.md': '# shop\n\nA small shop.\n',
    'src/cart.js': CART,
    'src/text.js': VITEST_TEXT,
    'src/legacy.js': 'export const legacy = true;\n',
    'docs/notes.md': 'notes\n',
  });
  run('git init -q -b main && git add -A && git commit -q -m "Initial shop"', root, env);
  write(root, {
    'src/cart.js': CART.replace("'USD'", "'EUR'").replace('0.91', '0.9'),
    'src/text.js': `${VITEST_TEXT}export const VERSION = '1.2.0';\n`,
    'src/coupon.js': 'export const COUPONS = { SAVE10: 0.1 };\n',
    'docs/notes.md': 'notes\nmore notes\n',
  });
  rmSync(join(root, 'src/legacy.js'));
  run('git add docs/notes.md', root, env);
  const status = run('git status', root, env);
  const porcelain = run('git status --porcelain', root, env);
  const statusFacts: CorpusFact[] = [
    exitFact(status.exitCode),
    ...porcelain.output
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => ({ kind: 'path' as const, keys: [line.slice(3)] })),
  ];
  const diff = run('git diff', root, env);
  const numstat = run('git diff --numstat', root, env);
  const diffFacts: CorpusFact[] = [exitFact(diff.exitCode)];
  for (const line of numstat.output.split('\n')) {
    const match = /^(\d+)\t(\d+)\t(.+)$/.exec(line);
    if (match) diffFacts.push({ kind: 'path', keys: [match[3]!] });
  }
  run('git add -A && git commit -q -m "Switch to EUR, add coupons"', root, env);
  const log = run('git log -p --stat', root, env);
  return {
    entries: [
      { name: 'git-status', command: 'git status', ...status, facts: statusFacts },
      { name: 'git-diff', command: 'git diff', ...diff, facts: diffFacts },
    ],
    texts: [{ name: 'git-log-p', text: log.output }],
  };
}

function grepEntries(root: string): CorpusEntry[] {
  const lines = (count: number, every: number, word: string) =>
    Array.from({ length: count }, (_, index) =>
      index % every === 2 ? `  // ${word}: handle case ${index}` : `  const v${index} = compute(${index});`,
    ).join('\n');
  write(root, {
    'src/api/routes.ts': `export function routes() {\n${lines(24, 5, 'TODO')}\n}\n`,
    'src/api/auth.ts': `export function auth() {\n${lines(12, 7, 'TODO')}\n}\n`,
    'src/db/pool.ts': `export function pool() {\n${lines(9, 4, 'TODO')}\n}\n`,
    'src/db/clean.ts': 'export const clean = () => 0;\n',
  });
  const ran = run('grep -rn "TODO" src', root);
  const facts: CorpusFact[] = [exitFact(ran.exitCode)];
  const located = run('grep -rno "TODO" src', root);
  for (const line of located.output.split('\n')) {
    const match = /^(\S+?):(\d+):/.exec(line);
    if (match) facts.push({ kind: 'match', keys: [`${match[1]}:${match[2]}`] });
  }
  const counted = run('grep -rc "TODO" src', root);
  const total = counted.output
    .split('\n')
    .map((line) => Number(/:(\d+)$/.exec(line)?.[1] ?? 0))
    .reduce((sum, count) => sum + count, 0);
  facts.push({ kind: 'count', keys: [`${total} matches`] });
  return [{ name: 'grep', command: 'grep -rn "TODO" src', ...ran, facts }];
}

// --------------------------------------------------------------------------------------------- biome

function biomeEntries(root: string): CorpusEntry[] {
  write(root, {
    'biome.json': '{}',
    'src/a.js': 'var x = 1;\nif (x == 2) { debugger; }\nexport function f(a, a2) { return a }\n',
  });
  const json = run(`${BIN}/biome lint --reporter=json src`, root, {}, false);
  const facts: CorpusFact[] = [exitFact(json.exitCode)];
  const report = JSON.parse(json.output) as {
    diagnostics?: { category?: string; location?: { path?: string; start?: { line: number; column: number } } }[];
  };
  for (const diagnostic of report.diagnostics ?? []) {
    if (diagnostic.category) facts.push({ kind: 'code', keys: [diagnostic.category] });
    const { path, start } = diagnostic.location ?? {};
    if (path && start) facts.push({ kind: 'location', keys: [`${path}:${start.line}:${start.column}`] });
  }
  const ran = run(`${BIN}/biome lint src`, root);
  return [{ name: 'biome-lint', command: 'npx biome lint src', ...ran, facts }];
}

// ----------------------------------------------------------------------------------------- held out
// Scenarios added after the parsers were fixed against the ones above, to measure them unseen.

function heldOutTsc(root: string): CorpusEntry[] {
  const files: Record<string, string> = {
    'tsconfig.json': JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'nodenext' },
      include: ['lib'],
    }),
  };
  for (let index = 0; index < 8; index++)
    files[`lib/module${index}/service.ts`] =
      `export class Service${index} {\n  private count = 0;\n  run(input: string): number {\n    this.count += input;\n    return this.cuont;\n  }\n  static make(): Service${index} {\n    return new Service${index}(1);\n  }\n}\n`;
  write(root, files);
  const plain = run(`${BIN}/tsc --noEmit -p . --pretty false`, root);
  const truth = [...plain.output.matchAll(/^(.+?)\((\d+),(\d+)\): error (TS\d+): /gm)].map((match) => ({
    code: match[4]!,
    location: `${match[1]}:${match[2]}:${match[3]}`,
  }));
  const pretty = run(`${BIN}/tsc --noEmit -p .`, root);
  return [
    {
      name: 'held-out-tsc-many',
      command: 'npx tsc --noEmit -p .',
      ...pretty,
      heldOut: true,
      facts: [
        exitFact(plain.exitCode),
        ...[...new Set(truth.map((entry) => entry.code))].map((code) => ({ kind: 'code' as const, keys: [code] })),
        ...truth.map((entry) => ({ kind: 'location' as const, keys: [entry.location] })),
      ],
    },
  ];
}

const HELD_NODE_TEST = `import { describe, it, before } from 'node:test';
import assert from 'node:assert';

describe('orders', () => {
  describe('discounts', () => {
    it('caps the discount at 50%', () => {
      assert.equal(Math.min(0.7, 0.5), 0.7);
    });
    it('rejects negative prices', () => {
      const order = { price: -1 };
      if (order.price < 0) throw new RangeError('price below zero: -1');
    });
  });
  it('serializes to JSON', () => {
    assert.deepEqual(JSON.parse('{"a":[1,2]}'), { a: [1, 2, 3] });
  });
});

describe('shipping', () => {
  before(() => {});
  it('matches the zone table', () => {
    assert.match('zone-7', /^zone-[1-5]$/);
  });
  it('is free over 100', () => {});
});
`;

function heldOutNodeTest(root: string): CorpusEntry[] {
  write(root, { 'orders.test.mjs': HELD_NODE_TEST });
  const junit = run('node --test --test-reporter=junit orders.test.mjs', root);
  const facts: CorpusFact[] = [exitFact(junit.exitCode)];
  for (const match of junit.output.matchAll(/<testcase name="([^"]+)"[^>]*>\s*<failure [^>]*message="([^"]*)"/g)) {
    facts.push({ kind: 'test', keys: [xmlText(match[1]!)] });
    const message = firstLine(xmlText(match[2]!))
      .split(/:(?=\S)/)[0]!
      .replace(/:$/, '');
    if (message) facts.push({ kind: 'message', keys: [message.slice(0, 60)] });
  }
  return [
    {
      name: 'held-out-node-test-spec',
      command: 'node --test orders.test.mjs',
      ...run('node --test --test-reporter=spec orders.test.mjs', root),
      facts,
      heldOut: true,
    },
    {
      name: 'held-out-node-test-tap',
      command: 'node --test --test-reporter=tap orders.test.mjs',
      ...run('node --test --test-reporter=tap orders.test.mjs', root),
      facts,
      heldOut: true,
    },
  ];
}

const HELD_PYTEST = `import pytest


@pytest.fixture
def session():
    yield {"open": True}
    raise ConnectionError("could not close session cleanly")


@pytest.mark.parametrize("value,expected", [(1, 2), (2, 4), (3, 7)])
def test_double(value, expected):
    assert value * 2 == expected


def test_teardown_fails(session):
    assert session["open"]


class TestParser:
    def test_empty(self):
        assert "".split(",") == []
`;

function heldOutPytest(root: string): CorpusEntry[] {
  write(root, { 'test_held.py': HELD_PYTEST });
  const xml = run('python3 -m pytest -q -p no:cacheprovider --junitxml=report.xml', root);
  const facts: CorpusFact[] = [exitFact(xml.exitCode)];
  const report = readFileSync(join(root, 'report.xml'), 'utf8');
  for (const match of report.matchAll(
    /<testcase [^>]*name="([^"]+)"[^>]*>\s*<(failure|error) message="([^"]*)"[^>]*>([^<]*)/g,
  )) {
    facts.push({ kind: 'test', keys: [xmlText(match[1]!)] });
    const where = /^(\S+\.py):(\d+): /m.exec(xmlText(match[4]!));
    if (where) facts.push({ kind: 'location', keys: [`${where[1]}:${where[2]}`] });
  }
  return [
    {
      name: 'held-out-pytest',
      command: 'pytest',
      ...run('python3 -m pytest -p no:cacheprovider', root),
      facts,
      heldOut: true,
    },
    {
      name: 'held-out-pytest-tb-short',
      command: 'pytest --tb=short',
      ...run('python3 -m pytest --tb=short -p no:cacheprovider', root),
      facts,
      heldOut: true,
    },
  ];
}

const HELD_JAVA = `package com.example;

public class App {
    public static void main(String[] args) throws Exception {
        try (Resource resource = new Resource()) {
            resource.use(); // THROW-1
        }
    }

    static class Resource implements AutoCloseable {
        void use() {
            try {
                Integer.valueOf("x1");
            } catch (NumberFormatException error) {
                throw new IllegalArgumentException("bad resource id", error); // THROW-2
            }
        }

        @Override
        public void close() {
            throw new IllegalStateException("close failed"); // THROW-3
        }
    }
}
`;

function heldOutJava(root: string): CorpusEntry[] {
  write(root, { 'src/com/example/App.java': HELD_JAVA });
  const compiled = run('javac -d out src/com/example/App.java', root);
  if (compiled.exitCode !== 0) throw new Error(`javac failed: ${compiled.output}`);
  const ran = run('java -cp out com.example.App', root);
  return [
    {
      name: 'held-out-java-suppressed',
      command: 'java -cp out com.example.App',
      ...ran,
      heldOut: true,
      facts: [
        exitFact(ran.exitCode),
        { kind: 'code', keys: ['java.lang.IllegalArgumentException'] },
        { kind: 'message', keys: ['bad resource id'] },
        { kind: 'location', keys: [`App.java:${lineOf(HELD_JAVA, 'THROW-2')}`] },
        { kind: 'code', keys: ['java.lang.IllegalStateException'] },
        { kind: 'message', keys: ['close failed'] },
        { kind: 'location', keys: [`App.java:${lineOf(HELD_JAVA, 'THROW-3')}`] },
        { kind: 'code', keys: ['java.lang.NumberFormatException'] },
      ],
    },
  ];
}

const HELD_CLIPPY = `pub fn total(values: &Vec<i32>) -> i32 {
    let mut sum = 0;
    for i in 0..values.len() {
        sum = sum + values[i];
    }
    return sum;
}
`;

function heldOutClippy(root: string): CorpusEntry[] {
  write(root, {
    'Cargo.toml': '[package]\nname = "sums"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
    'src/lib.rs': HELD_CLIPPY,
  });
  const json = run('cargo clippy --offline --message-format=json -q', root);
  const facts: CorpusFact[] = [];
  for (const line of json.output.split('\n')) {
    if (!line.startsWith('{')) continue;
    const event = JSON.parse(line) as {
      reason: string;
      message?: {
        code?: { code: string };
        spans: { file_name: string; line_start: number; column_start: number; is_primary: boolean }[];
      };
    };
    if (event.reason !== 'compiler-message' || !event.message?.code || !event.message.spans.length) continue;
    const span = event.message.spans.find((entry) => entry.is_primary) ?? event.message.spans[0]!;
    facts.push({ kind: 'code', keys: [event.message.code.code] });
    facts.push({ kind: 'location', keys: [`${span.file_name}:${span.line_start}:${span.column_start}`] });
  }
  rmSync(join(root, 'target'), { recursive: true, force: true });
  const ran = run('cargo clippy --offline', root);
  return [
    {
      name: 'held-out-clippy',
      command: 'cargo clippy',
      ...ran,
      facts: [exitFact(ran.exitCode), ...facts],
      heldOut: true,
    },
  ];
}

function heldOutGrep(root: string): CorpusEntry[] {
  write(root, {
    'app/models/user.py': 'class User:\n    # FIXME: email validation\n    pass\n\n\n# FIXME: remove legacy field\n',
    'app/views.py': 'def index():\n    return "ok"  # FIXME: cache\n',
    'README.md': 'Notes\nFIXME: write docs\n',
  });
  const ran = run('grep -rn -C1 FIXME .', root);
  const located = run('grep -rno FIXME .', root);
  const facts: CorpusFact[] = [exitFact(ran.exitCode)];
  for (const match of located.output.matchAll(/^(\S+?):(\d+):/gm))
    facts.push({ kind: 'match', keys: [`${match[1]}:${match[2]}`] });
  const counted = run('grep -rc FIXME .', root);
  const total = [...counted.output.matchAll(/:(\d+)$/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
  facts.push({ kind: 'count', keys: [`${total} matches`] });
  return [{ name: 'held-out-grep-context', command: 'grep -rn -C1 FIXME .', ...ran, facts, heldOut: true }];
}

// ------------------------------------------------------------------------------ text for the counter

/** Source maps tsc writes, and JSON of localized names from ICU: text the estimator must not under-count. */
function extraTexts(root: string, tsRoot: string): CorpusText[] {
  const texts: CorpusText[] = [];
  write(tsRoot, {
    'emit/tsconfig.json': JSON.stringify({
      compilerOptions: {
        sourceMap: true,
        declarationMap: true,
        declaration: true,
        outDir: 'out',
        target: 'es2022',
        module: 'nodenext',
      },
      include: ['src'],
    }),
  });
  mkdirSync(join(tsRoot, 'emit', 'src'), { recursive: true });
  for (const file of readdirSync(join(REPO, 'src', 'pipeline'))
    .filter((name) => name.endsWith('.ts'))
    .slice(0, 6))
    writeFileSync(
      join(tsRoot, 'emit', 'src', file),
      readFileSync(join(REPO, 'src', 'pipeline', file), 'utf8').replace(/^import .*$/gm, ''),
    );
  run(`${BIN}/tsc -p . || true`, join(tsRoot, 'emit'));
  const out = join(tsRoot, 'emit', 'out');
  try {
    for (const file of readdirSync(out).filter((name) => name.endsWith('.map')))
      texts.push({ name: `sourcemap-${file}`, text: readFileSync(join(out, file), 'utf8') });
  } catch {
    // tsc wrote nothing: the corpus goes without source maps.
  }
  const script = `
const locales = ['ja', 'zh', 'ko', 'ru', 'uk', 'ar', 'he', 'hi', 'th', 'el', 'de', 'fr', 'pl', 'tr', 'vi'];
const out = {};
for (const locale of locales) {
  const names = new Intl.DisplayNames([locale], { type: 'language' });
  const regions = new Intl.DisplayNames([locale], { type: 'region' });
  out[locale] = {
    months: Array.from({ length: 12 }, (_, m) => new Intl.DateTimeFormat(locale, { month: 'long' }).format(new Date(2024, m, 1))),
    days: Array.from({ length: 7 }, (_, d) => new Intl.DateTimeFormat(locale, { weekday: 'long' }).format(new Date(2024, 0, d + 1))),
    languages: Object.fromEntries(['en', 'fr', 'de', 'ja', 'zh', 'ar', 'ru', 'es', 'pt', 'it'].map((code) => [code, names.of(code)])),
    regions: Object.fromEntries(['US', 'FR', 'DE', 'JP', 'CN', 'EG', 'RU', 'BR', 'IN', 'GR'].map((code) => [code, regions.of(code)])),
    money: new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }).format(1234567.891),
  };
}
console.log(JSON.stringify(out, null, 2));`;
  writeFileSync(join(root, 'locales.cjs'), script);
  texts.push({ name: 'localized-json', text: run('node locales.cjs', root).output });
  texts.push({ name: 'localized-json-compact', text: JSON.stringify(JSON.parse(texts[texts.length - 1]!.text)) });
  return texts;
}

/** Runs every installed tool on its scratch project; the folder is removed afterwards. */
export function generateToolCorpus(): ToolCorpus {
  const root = mkdtempSync(join(tmpdir(), 'ctxkit-corpus-'));
  const corpus: ToolCorpus = { entries: [], texts: [], skipped: [] };
  const part = (name: string, tools: string[], build: (dir: string) => CorpusEntry[]) => {
    const missing = tools.filter((tool) => !has(tool));
    if (missing.length > 0) {
      corpus.skipped.push(name);
      return;
    }
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    // Paths in the outputs read the same wherever the corpus was generated.
    for (const entry of build(dir)) {
      entry.output = entry.output.split(dir).join('/home/dev/project').split(REPO).join('/home/dev/ctxkit');
      corpus.entries.push(entry);
    }
  };
  try {
    part('tsc', ['node'], tscEntries);
    part('node-test', ['node'], nodeTestEntries);
    part('vitest', ['node'], vitestEntries);
    part('pytest', ['python3'], pytestEntries);
    part('cargo', ['cargo'], cargoEntries);
    part('java', ['javac', 'java'], javaEntries);
    part('python', ['python3'], pythonEntries);
    part('biome', ['node'], biomeEntries);
    part('grep', ['grep'], grepEntries);
    part('held-out-tsc', ['node'], heldOutTsc);
    part('held-out-node-test', ['node'], heldOutNodeTest);
    part('held-out-pytest', ['python3'], heldOutPytest);
    part('held-out-java', ['javac', 'java'], heldOutJava);
    part('held-out-clippy', ['cargo'], heldOutClippy);
    part('held-out-grep', ['grep'], heldOutGrep);
    if (has('git')) {
      const dir = join(root, 'git');
      mkdirSync(dir);
      const git = gitEntries(dir);
      corpus.entries.push(...git.entries);
      corpus.texts.push(...git.texts);
    } else corpus.skipped.push('git');
    corpus.texts.push(...extraTexts(root, join(root, 'tsc')));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  for (const text of corpus.texts) text.text = text.text.split(root).join('/home/dev');
  return corpus;
}

/** Where `npm run corpus` writes the corpus the tests read. */
export const CORPUS_FILE = join(REPO, 'test', 'fixtures', 'tool-outputs', 'real', 'corpus.json');

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const corpus = generateToolCorpus();
  mkdirSync(dirname(CORPUS_FILE), { recursive: true });
  writeFileSync(CORPUS_FILE, `${JSON.stringify(corpus, null, 2)}\n`);
  // In the project's JSON style, so that `npm run check` passes on it.
  spawnSync(join(BIN, 'biome'), ['format', '--write', CORPUS_FILE], { stdio: 'ignore' });
  console.log(
    `${corpus.entries.length} outputs (${corpus.entries.map((entry) => entry.name).join(', ')}), ${corpus.texts.length} other texts${corpus.skipped.length ? `; skipped: ${corpus.skipped.join(', ')}` : ''}`,
  );
}
