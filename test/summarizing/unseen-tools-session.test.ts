// A long agent session made of the output of tools ctxkit had not been tried on (python -m unittest,
// make over gcc, g++, javac, git rebase and merge conflicts, curl, psql, find; see the fixtures'
// README), driven through the context manager as a host would: each step's call and result appended,
// the projection sent. Archived results and compactions must keep what a reader of each run needs.
import { readFileSync } from 'node:fs';
import {
  createContextManager,
  heuristicSummarizer,
  isAgentVisible,
  type Message,
  referenceCounter,
  sumMessageTokens,
} from 'ctxkit';
import { checkToolPairing, toolCallMessage, toolResultMessage, userMessage } from 'ctxkit/testing';
import { describe, expect, it } from 'vitest';

interface Run {
  file: string;
  command: string;
  exitCode: number;
  /** What a reader of the run needs, each kept somewhere in what the model is sent. */
  facts: string[];
  /** Facts of an output no parser reads: kept when the host said the run failed (else nothing says it did). */
  whenFailed?: string[];
  /** Its errors are a compiler's or a test runner's, which fail the run: it failed even when the host does not say. */
  diagnostics?: true;
}

const RUNS: Run[] = [
  {
    file: 'unittest.txt',
    command: 'python3 -m unittest test_calc',
    exitCode: 1,
    diagnostics: true,
    facts: ['test_div_zero', 'test_add', 'test_list', 'ZeroDivisionError', '4 != 5'],
  },
  {
    file: 'make-k.txt',
    command: 'make -k',
    exitCode: 2,
    diagnostics: true,
    facts: ['main.c:3:59', 'util.c:1:33', 'undefined_var'],
  },
  {
    file: 'gpp-template.txt',
    command: 'g++ -std=c++17 tmpl.cpp -o tmpl',
    exitCode: 1,
    diagnostics: true,
    facts: ['tmpl.cpp:8:12'],
  },
  {
    file: 'javac.txt',
    command: 'javac Main.java',
    exitCode: 1,
    diagnostics: true,
    facts: ['Main.java:5', 'Main.java:6'],
  },
  { file: 'git-rebase.txt', command: 'git rebase main', exitCode: 1, facts: ['config.toml', 'VERSION'] },
  {
    file: 'curl.txt',
    command: 'curl -v http://127.0.0.1:9',
    exitCode: 7,
    facts: [],
    whenFailed: ['Connection refused'],
  },
  { file: 'psql.txt', command: 'psql -c "select * from no_such_table"', exitCode: 1, facts: ['no_such_table'] },
  { file: 'find-missing.txt', command: 'find legal /opt/app/config -ls', exitCode: 1, facts: ['/opt/app/config'] },
  { file: 'git-status-rebase.txt', command: 'git status', exitCode: 0, facts: [] },
  { file: 'make-colour.txt', command: 'make -k', exitCode: 2, diagnostics: true, facts: ['main.c:3:59'] },
];

const outputs = new Map(
  RUNS.map((run) => [
    run.file,
    readFileSync(new URL(`../fixtures/tool-outputs/unseen/${run.file}`, import.meta.url), 'utf8'),
  ]),
);

/** How a host reports the exit status: `isError` on the result, an `Exit code: N` line after the output, or not at all. */
type Convention = 'isError' | 'exit line' | 'none';

/** The summaries the model is sent (of archived results, of compacted history): what is left of the runs before them. */
function summaryText(messages: readonly Message[]): string {
  return messages
    .filter((message) => isAgentVisible(message))
    .filter((message) => message.meta?.kind === 'tool_summary' || message.meta?.kind === 'compaction_summary')
    .map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content)))
    .join('\n');
}

async function session(convention: Convention) {
  const window = 12_000;
  const manager = createContextManager({
    contextWindow: window,
    summarizer: heuristicSummarizer,
    systemPrompt: 'You fix builds.',
  });
  const limit = window - manager.config.reserveTokens;
  let sent: Message[] = [];
  const steps: { run: Run; id: string }[] = [];
  await manager.append([userMessage('The build and the tests fail: find out why and fix them.')]);
  for (let turn = 0; turn < 60; turn++) {
    const run = RUNS[turn % RUNS.length]!;
    const id = `call_${turn}`;
    const output = outputs.get(run.file)!;
    const result =
      convention === 'isError'
        ? toolResultMessage(id, output, { toolName: 'bash', isError: run.exitCode !== 0 })
        : convention === 'exit line'
          ? toolResultMessage(id, `${output}\n\nExit code: ${run.exitCode}`, { toolName: 'bash' })
          : toolResultMessage(id, output, { toolName: 'bash' });
    const prepared = await manager.append([
      toolCallMessage([{ id, name: 'bash', arguments: { command: run.command } }]),
      result,
    ]);
    sent = [...prepared.messages];
    steps.push({ run, id });
    expect(checkToolPairing(sent)).toEqual([]);
    expect(sumMessageTokens(sent, referenceCounter)).toBeLessThanOrEqual(limit);
  }
  return sent;
}

describe('a long session of tool output ctxkit had not been tried on', () => {
  it.each<Convention>(['isError', 'exit line', 'none'])(
    'results reported by %s: within the limit, calls with their results, each run’s facts and how it ended in the summaries',
    async (convention) => {
      const sent = await session(convention);
      // The session is longer than the window: its older runs are known from the summaries alone.
      const text = summaryText(sent);
      const lost = RUNS.flatMap((run) =>
        [...run.facts, ...(convention === 'none' ? [] : (run.whenFailed ?? []))]
          .filter((fact) => !text.includes(fact))
          .map((fact) => `${run.file}: ${fact}`),
      );
      expect(lost).toEqual([]);
      // Each command is named with how it ended, and none that failed reads as ok.
      let labels = 0;
      for (const run of RUNS) {
        const said = new RegExp(`\`${run.command.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\` → (\\w+)`, 'g');
        for (const [, status] of text.matchAll(said)) {
          labels++;
          if (convention === 'none') {
            if (run.diagnostics) expect(status, run.command).toBe('failed');
          } else
            expect(status, run.command).toBe(run.exitCode === 0 ? 'ok' : convention === 'isError' ? 'error' : 'failed');
        }
      }
      expect(labels).toBeGreaterThanOrEqual(RUNS.length);
    },
  );
});
