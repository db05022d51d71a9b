// Records a large session made of real tool output, for the report's heavy browser test and the
// report bench: an agent working through this repository, told by a user what to do every few
// steps, reading files (`cat -n`), searching them (`grep -rn`), reading history (`git show`),
// listing folders (`ls -la`) and running the tools of the recorded corpus (tsc, node --test,
// vitest, pytest, cargo, java, biome, git). Every output comes from running the tool, here, now, or
// from test/fixtures/tool-outputs/real/corpus.json (which `npm run corpus` recorded the same way).
// Imported from the sources (not the package entries) so that the bench, outside vitest, can use it.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Message } from '../../src/index.js';
import { createJsonlStore } from '../../src/node/index.js';
import { assistantMessage, toolCallMessage, toolResultMessage, userMessage } from '../../src/testing/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** One tool run the agent can make: the call it sends and what the tool printed. */
interface ToolRun {
  name: string;
  arguments: Record<string, unknown>;
  output: string;
  isError: boolean;
}

/** Runs a command in the repository and returns its output, or undefined when it failed to start. */
function run(command: string, args: readonly string[]): { output: string; status: number } | undefined {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.error || result.status === null) return undefined;
  return { output: `${result.stdout}${result.stderr}`, status: result.status };
}

function filesUnder(directory: string, extensions: readonly string[]): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, directory)).sort()) {
    const path = join(directory, name);
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...filesUnder(path, extensions));
    else if (extensions.some((extension) => name.endsWith(extension))) out.push(path);
  }
  return out;
}

/** Every tool run the session draws from, made by running the tools on this repository. */
function collectToolRuns(): ToolRun[] {
  const runs: ToolRun[] = [];
  const bash = (command: string, output: string, status: number) =>
    runs.push({ name: 'bash', arguments: { command }, output, isError: status !== 0 });
  for (const path of [...filesUnder('src', ['.ts']), ...filesUnder('docs', ['.md']), ...filesUnder('test', ['.ts'])]) {
    const read = run('cat', ['-n', path]);
    if (read) runs.push({ name: 'read_file', arguments: { path }, output: read.output, isError: read.status !== 0 });
  }
  for (const term of ['createContextManager', 'throw new', 'export function', 'TODO', 'appendEntry', 'escapeHtml']) {
    const found = run('grep', ['-rn', term, 'src', 'docs']);
    if (found) bash(`grep -rn "${term}" src docs`, found.output, found.status);
  }
  for (const directory of ['src', 'src/cli', 'src/session', 'test', 'docs', 'bench']) {
    const listed = run('ls', ['-la', directory]);
    if (listed) bash(`ls -la ${directory}`, listed.output, listed.status);
  }
  // History: each commit as `git show` prints it (a shallow clone has fewer; a copy without git, none).
  const log = run('git', [
    'log',
    '-n',
    '300',
    '-p',
    '--stat',
    '--no-color',
    '--format=commit %H%nAuthor: %an%nDate: %ad%n%n%B',
  ]);
  if (log && log.status === 0) {
    for (const commit of log.output.split(/\n(?=commit [0-9a-f]{40}\n)/)) {
      const sha = commit.slice('commit '.length, 'commit '.length + 12);
      if (commit.startsWith('commit ')) bash(`git show --stat -p ${sha}`, commit, 0);
    }
  }
  const corpus = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/tool-outputs/real/corpus.json'), 'utf8')) as {
    entries: { command: string; output: string; exitCode: number }[];
  };
  for (const entry of corpus.entries) bash(entry.command, entry.output, entry.exitCode);
  return runs;
}

/** A small deterministic generator (mulberry32), so that every run records the same session. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const ASKS = [
  'The report is slow to open on a big session: find where the time goes.',
  'Make the JSONL store survive a crash mid-append, and add a test that kills a writer.',
  'Why does the summary lose the failing test names? Look at the tool-output digest.',
  'Add a --json flag to ctxkit inspect and document it.',
  'The CI is red on Node 20: fix the type errors, then run the suite again.',
  'Review the last commits and tell me what changed in the session tree.',
];

function describeRun(tool: ToolRun): string {
  return tool.name === 'read_file'
    ? `Reading ${String(tool.arguments.path)}.`
    : `Running \`${String(tool.arguments.command)}\`.`;
}

/** A short reply about what the agent saw: a few lines of the output quoted, as agents do. */
function reply(step: number, tool: ToolRun): string {
  const lines = tool.output.split('\n').filter((line) => line.trim() !== '');
  const quoted = lines.slice(0, 3 + (step % 5)).map((line) => `> ${line.slice(0, 160)}`);
  return [
    `Step ${step}: ${tool.isError ? 'the command failed' : 'done'}; ${lines.length} lines of output.`,
    ...quoted,
    tool.isError
      ? 'The first error above is the one to fix; the rest follow from it.'
      : 'Nothing there contradicts the plan, so I continue with the next file.',
  ].join('\n');
}

/**
 * Records a session of at least `megabytes` MB (its JSONL file) in `directory` and returns the file:
 * steps of an assistant message with one or two tool calls, their results, and now and then a
 * reply or a new request from the user.
 *
 * @param directory - Where the JSONL store writes.
 * @param megabytes - The least size of the session file.
 */
export async function recordRealisticSession(directory: string, megabytes: number): Promise<string> {
  const runs = collectToolRuns();
  const next = random(21);
  const store = createJsonlStore({ directory });
  await store.createSession({ id: 'realistic', name: `${megabytes} MB agent session` });
  const file = join(directory, 'realistic.jsonl');
  const append = (message: Message) => store.appendEntry('realistic', { type: 'message', message });
  let bytes = 0;
  for (let step = 1; bytes < megabytes * 1_000_000; step++) {
    if (step % 12 === 1)
      await append(userMessage(`Request ${Math.ceil(step / 12)}: ${ASKS[((step / 12) % ASKS.length) | 0]}`));
    const calls = Array.from({ length: next() < 0.3 ? 2 : 1 }, (_, index) => ({
      id: `call_${step}_${index}`,
      tool: runs[Math.floor(next() * runs.length)]!,
    }));
    await append(
      toolCallMessage(
        calls.map(({ id, tool }) => ({ id, name: tool.name, arguments: tool.arguments })),
        calls.map(({ tool }) => describeRun(tool)).join(' '),
      ),
    );
    for (const { id, tool } of calls) {
      await append(toolResultMessage(id, tool.output, { toolName: tool.name, isError: tool.isError }));
    }
    if (step % 4 === 0) await append(assistantMessage(reply(step, calls[0]!.tool)));
    bytes = statSync(file).size;
  }
  await store.close();
  return file;
}
