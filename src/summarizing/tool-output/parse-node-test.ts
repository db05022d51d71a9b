/** node:test output, in its TAP and spec reporters. Internal. */
import { cleanLocation, indentOf, squash } from './lines.js';
import type { ToolOutputProblem } from './parsed-tool-output.js';
import { emptyResult, type ParserResult } from './parser-result.js';

const SUBTEST = /^(\s*)# Subtest: (.+)$/;
const NOT_OK = /^(\s*)not ok \d+ - (.+?)(?:\s+#\s*(?:TODO|SKIP)\b.*)?$/;
const YAML_KEY = /^(\s*)(\w+):\s?(.*)$/;
const TAP_COUNT = /^# (tests|suites|pass|fail|cancelled|skipped|todo) (\d+)$/;
const SPEC_COUNT = /^ℹ (tests|suites|pass|fail|cancelled|skipped|todo) (\d+)$/;
const SPEC_SUITE = /^(\s*)▶ (.+?)(?: \([\d.]+m?s\))?$/;
const SPEC_FAIL = /^(\s*)✖ (.+?)(?: \([\d.]+m?s\))?$/;
const STACK_LOCATION = /\(?((?:file:\/\/)?[^\s()]+:\d+:\d+)\)?$/;
const MESSAGE_CHARS = 400;

/** A quoted YAML scalar as text. */
function unquote(value: string): string {
  const trimmed = value.trim();
  if (/^'.*'$/.test(trimmed)) return trimmed.slice(1, -1).replace(/''/g, "'");
  if (/^".*"$/.test(trimmed)) return trimmed.slice(1, -1).replace(/\\n/g, ' ').replace(/\\"/g, '"');
  return trimmed;
}

/** node:test's TAP reporter: `not ok` tests, their YAML `error`, `code` and `location`, and `# fail N`. @internal */
export function parseNodeTap(lines: readonly string[]): ParserResult {
  const result = emptyResult();
  const names: { indent: number; name: string }[] = [];
  let failure: (ToolOutputProblem & { parent?: boolean }) | undefined;
  let yamlIndent = -1;
  let blockKey: string | undefined;
  let blockIndent = -1;
  const failures: (ToolOutputProblem & { parent?: boolean })[] = [];
  for (const line of lines) {
    if (failure && yamlIndent >= 0) {
      const indent = indentOf(line);
      if (blockKey !== undefined && (line.trim() === '' || indent > blockIndent)) {
        if (blockKey === 'error' && line.trim() && failure.message.length < MESSAGE_CHARS)
          failure.message = squash(`${failure.message} ${line}`);
        continue;
      }
      blockKey = undefined;
      if (line.trim() === '...' && indent <= yamlIndent) {
        failure = undefined;
        yamlIndent = -1;
        continue;
      }
      const key = YAML_KEY.exec(line);
      if (key && indent === yamlIndent) {
        const value = key[3] ?? '';
        if (value === '|-' || value === '|' || value === '>-') {
          blockKey = key[2];
          blockIndent = indent;
        } else if (key[2] === 'error') failure.message = squash(unquote(value));
        else if (key[2] === 'code') failure.code = unquote(value);
        else if (key[2] === 'location') failure.location = cleanLocation(unquote(value));
        else if (key[2] === 'failureType' && unquote(value) === 'subtestsFailed') failure.parent = true;
        continue;
      }
    }
    const subtest = SUBTEST.exec(line);
    if (subtest) {
      const indent = subtest[1]!.length;
      while (names.length > 0 && names[names.length - 1]!.indent >= indent) names.pop();
      names.push({ indent, name: subtest[2]! });
      continue;
    }
    const notOk = NOT_OK.exec(line);
    if (notOk) {
      const indent = notOk[1]!.length;
      const parents = names.filter((entry) => entry.indent < indent).map((entry) => entry.name);
      while (names.length > 0 && names[names.length - 1]!.indent >= indent) names.pop();
      failure = { severity: 'failure', test: [...parents, notOk[2]!].join(' > '), message: '' };
      failures.push(failure);
      yamlIndent = -1;
      continue;
    }
    if (failure && line.trim() === '---') {
      yamlIndent = indentOf(line);
      continue;
    }
    const count = TAP_COUNT.exec(line);
    if (count) result.counts.push(`# ${count[1]} ${count[2]}`);
  }
  // A suite that failed only because its subtests failed adds nothing its subtests do not say.
  for (const entry of failures) {
    if (entry.parent) continue;
    const { parent: _parent, ...problem } = entry;
    result.problems.push(problem);
  }
  return result;
}

/**
 * node:test's spec reporter: `✖ name` with its suites, the error under it (`Expected values to be
 * strictly deep-equal:` and the like) and its location, and `ℹ fail N`; a suite's own `✖` line, which
 * only repeats that a test inside failed, is not a failure of its own. @internal
 */
export function parseNodeSpec(lines: readonly string[]): ParserResult {
  const result = emptyResult();
  const suites: { indent: number; name: string }[] = [];
  const byName = new Map<string, ToolOutputProblem>();
  const byLeaf = new Map<string, ToolOutputProblem>();
  let current: { problem: ToolOutputProblem; indent: number } | undefined;
  let inSummary = false;
  let pendingLocation: string | undefined;
  /** Suites by full name: their own `✖` line only says that a test inside them failed. */
  const suiteNames = new Set<string>();
  for (const line of lines) {
    const count = SPEC_COUNT.exec(line);
    if (count) {
      result.counts.push(`${count[1]} ${count[2]}`);
      current = undefined;
      continue;
    }
    if (/^✖ failing tests:/.test(line)) {
      inSummary = true;
      current = undefined;
      continue;
    }
    const testAt = /^test at (.+)$/.exec(line);
    if (testAt) {
      pendingLocation = cleanLocation(testAt[1]!);
      continue;
    }
    const fail = SPEC_FAIL.exec(line);
    if (fail) {
      const indent = fail[1]!.length;
      while (suites.length > 0 && suites[suites.length - 1]!.indent >= indent) suites.pop();
      const name = inSummary ? fail[2]! : [...suites.map((entry) => entry.name), fail[2]!].join(' > ');
      const known = byName.get(name) ?? (inSummary ? byLeaf.get(fail[2]!) : undefined);
      const problem = known ?? { severity: 'failure' as const, test: name, message: '' };
      if (!known) {
        byName.set(name, problem);
        byLeaf.set(fail[2]!, problem);
      }
      if (pendingLocation && !problem.location) problem.location = pendingLocation;
      pendingLocation = undefined;
      current = { problem, indent };
      continue;
    }
    const suite = SPEC_SUITE.exec(line);
    if (suite && !inSummary) {
      const indent = suite[1]!.length;
      while (suites.length > 0 && suites[suites.length - 1]!.indent >= indent) suites.pop();
      suites.push({ indent, name: suite[2]! });
      suiteNames.add(suites.map((entry) => entry.name).join(' > '));
      current = undefined;
      continue;
    }
    if (!current || !line.trim()) continue;
    if (indentOf(line) <= current.indent) {
      current = undefined;
      continue;
    }
    const trimmed = line.trim();
    if (trimmed.startsWith('at ')) {
      const location = STACK_LOCATION.exec(trimmed)?.[1];
      if (location && !current.problem.location && !/node:internal|node_modules/.test(location))
        current.problem.location = cleanLocation(location);
      continue;
    }
    const codeMatch = /\bcode: '([A-Z_0-9]+)'/.exec(trimmed) ?? /\[([A-Z][A-Z_0-9]+)\]/.exec(trimmed);
    if (codeMatch && !current.problem.code) current.problem.code = codeMatch[1]!;
    if (/^(generatedMessage|code|actual|expected|operator):/.test(trimmed) || trimmed === '}' || trimmed === '{')
      continue;
    if (current.problem.message.length < MESSAGE_CHARS && !current.problem.message.includes(trimmed))
      current.problem.message = squash(`${current.problem.message} ${trimmed}`);
  }
  for (const [name, problem] of byName) if (!suiteNames.has(name) || problem.message) result.problems.push(problem);
  return result;
}
