// The anchors of runs of the real tools (bench/tool-corpus.ts, `npm run corpus`), checked against the
// facts the tools' structured output gives: what a pinned section would carry of each run.
import { readFileSync } from 'node:fs';
import { type Anchor, extractAnchors } from 'ctxkit/summarizing';
import { toolCallMessage, toolResultMessage, userMessage } from 'ctxkit/testing';
import { describe, expect, it } from 'vitest';
import type { CorpusEntry, ToolCorpus } from '../../bench/tool-corpus.js';
import { normalizeForCheck } from '../../src/summarizing/anchors/normalize.js';
import { corpusRun } from '../helpers/tool-runs.js';

const corpus = JSON.parse(
  readFileSync(new URL('../fixtures/tool-outputs/real/corpus.json', import.meta.url), 'utf8'),
) as ToolCorpus;

function entry(name: string): CorpusEntry {
  const found = corpus.entries.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no ${name} in the corpus`);
  return found;
}

/** The tools' notations as the anchors write them: `path(line,col)` and `File "path", line N`. */
function sameNotation(text: string): string {
  return text
    .replace(/\\"/g, '"')
    .replace(/([\w./-]+)\((\d+),(\d+)\)/g, '$1:$2:$3')
    .replace(/File "([^"]+)", line (\d+)/g, '$1:$2');
}

const of = (anchors: readonly Anchor[], category: Anchor['category']) =>
  anchors.filter((anchor) => anchor.category === category);

describe('anchors of the real tools’ output', () => {
  it('hold every fact of every run: codes, places, failing tests, assertions, matches, changed files, exits', () => {
    const missing: string[] = [];
    for (const found of corpus.entries) {
      const anchors = extractAnchors([userMessage('Fix it.'), ...corpusRun(found, 'call')]);
      const text = normalizeForCheck(sameNotation(anchors.map((anchor) => anchor.text).join('\n')));
      for (const fact of found.facts) {
        if (fact.kind === 'exit' && found.exitCode === 0) continue;
        const said = text.replace(/\bexit code (-?\d+)/g, 'exit $1');
        if (!fact.keys.every((key) => said.includes(normalizeForCheck(key))))
          missing.push(`${found.name}: ${fact.kind} ${fact.keys.join(' & ')}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('anchor each grep match by its place as grep wrote it, from the command that found it', () => {
    const found = entry('held-out-grep-context');
    const matches = of(extractAnchors(corpusRun(found, 'call')), 'match');
    const wanted = found.facts.filter((fact) => fact.kind === 'match').map((fact) => fact.keys[0]);
    expect(matches.map((anchor) => anchor.keys[0])).toEqual(wanted);
    expect(wanted[0]).toMatch(/^\.\//);
    expect(matches.every((anchor) => anchor.sources?.[0] === found.command)).toBe(true);
  });

  it('anchor the files git status reports changed, and drop them once a later git status no longer does', () => {
    const found = entry('git-status');
    const paths = found.facts.filter((fact) => fact.kind === 'path').map((fact) => fact.keys[0]);
    const anchors = of(extractAnchors(corpusRun(found, 'call')), 'file-changed');
    expect(anchors.map((anchor) => anchor.keys[0])).toEqual(paths);
    expect(anchors.find((anchor) => anchor.keys[0] === 'src/legacy.js')?.text).toBe('src/legacy.js (deleted)');
    const clean = extractAnchors([
      ...corpusRun(found, 'a'),
      toolCallMessage([{ id: 'b', name: 'bash', arguments: { command: 'git status' } }]),
      toolResultMessage('b', 'On branch main\nnothing to commit, working tree clean', { toolName: 'bash' }),
    ]);
    expect(of(clean, 'file-changed')).toEqual([]);
  });

  it("make a pytest teardown error a failing test, and keep cargo's test path whole", () => {
    const pytest = of(extractAnchors(corpusRun(entry('held-out-pytest'), 'call')), 'failing-test');
    expect(pytest.find((anchor) => anchor.keys[0] === 'test_teardown_fails')?.keys).toEqual([
      'test_teardown_fails',
      'test_held.py:7',
      'ConnectionError: could not close session cleanly',
    ]);
    const cargo = of(extractAnchors(corpusRun(entry('cargo-test'), 'call')), 'failing-test');
    expect(cargo.map((anchor) => anchor.keys[0])).toContain('tests::parses_plain_port');
  });

  it("keep a linter's warnings when its run failed", () => {
    const errors = of(extractAnchors(corpusRun(entry('biome-lint'), 'call')), 'error');
    expect(errors.map((anchor) => anchor.keys[0])).toContain('lint/correctness/noUnusedFunctionParameters');
  });

  it('keep a fact another command still reports when one command runs again without it', () => {
    // Two spellings of tsc report the same ten errors; the pretty one then runs on another project.
    const plain = entry('tsc');
    const pretty = entry('tsc-pretty');
    const other = entry('held-out-tsc-many');
    expect(pretty.command).toBe(other.command);
    const anchors = extractAnchors([...corpusRun(plain, 'a'), ...corpusRun(pretty, 'b'), ...corpusRun(other, 'c')]);
    const places = plain.facts.filter((fact) => fact.kind === 'location').map((fact) => fact.keys[0]);
    const errors = of(anchors, 'error');
    for (const place of places) {
      const anchor = errors.find((candidate) => candidate.keys.includes(place!));
      expect(anchor?.sources, place).toEqual([plain.command]);
    }
    // Once the plain spelling runs clean too, they are resolved.
    const fixed = extractAnchors([
      ...corpusRun(plain, 'a'),
      ...corpusRun(pretty, 'b'),
      ...corpusRun(other, 'c'),
      toolCallMessage([{ id: 'd', name: 'bash', arguments: { command: plain.command } }]),
      toolResultMessage('d', '', { toolName: 'bash' }),
    ]);
    const left = of(fixed, 'error').filter((anchor) => places.some((place) => anchor.keys.includes(place!)));
    expect(left).toEqual([]);
  });
});
