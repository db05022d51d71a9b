import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { buildContextFromBranch, createContextManager, heuristicSummarizer } from 'ctxkit';
import { createJsonlStore } from 'ctxkit/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { SessionInspection } from '../../src/cli/inspect-session.js';
import type { ReplayResult } from '../../src/cli/replay-session.js';
import { readReportTranscript } from './read-report-transcript.js';
import {
  BIDI_PAYLOAD,
  type RecordedSessions,
  recordSessions,
  SYSTEM_PROMPT,
  TERMINAL_PAYLOAD,
  XSS_PAYLOAD,
} from './record-sessions.js';
import { type CliRun, PACKAGE_VERSION, runCli, spawnCli } from './run-cli.js';

/** The settings the compacted session was recorded with. */
const RECORDED_SETTINGS = ['--window', '16000', '--reserve', '3000', '--keep-recent-tokens', '2000'];

let sessions: RecordedSessions;
let before: Map<string, string>;

/** Every file under the directory with its bytes and modification time: the CLI must change none. */
function snapshot(directory: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (folder: string) => {
    for (const name of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, name.name);
      if (name.isDirectory()) walk(path);
      else files.set(path, `${statSync(path).mtimeMs}:${readFileSync(path).toString('base64')}`);
    }
  };
  walk(directory);
  return files;
}

type Inspection = SessionInspection & { version: number };

function json<T = Inspection>(run: CliRun): T {
  expect(run.stderr).toBe('');
  expect(run.exitCode).toBe(0);
  return JSON.parse(run.stdout) as T;
}

beforeAll(async () => {
  const directory = mkdtempSync(join(tmpdir(), 'ctxkit-cli-'));
  sessions = await recordSessions(directory);
  before = snapshot(directory);
  // Recording the sessions runs managers over many turns: give a busy machine room.
}, 60_000);

afterAll(() => {
  // Nothing the commands did (inspect, replay, JSON) wrote to the sessions.
  const reports = join(sessions.directory, 'reports');
  rmSync(reports, { recursive: true, force: true });
  expect(snapshot(sessions.directory)).toEqual(before);
  rmSync(sessions.directory, { recursive: true, force: true });
});

describe.concurrent('ctxkit inspect', () => {
  test('prints the breakdown, the branch and the messages of a plain session', async () => {
    const run = await runCli(['inspect', sessions.plain, '--window', '8000', '--reserve', '1000']);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('Session plain "plain session" (jsonl: ');
    expect(run.stdout).toMatch(/Context: [\d,]+ tokens, [\d.]+% of the window/);
    expect(run.stdout).toContain('Window 8,000 tokens (from --window)');
    expect(run.stdout).toMatch(/Tool results +\d+ +[\d.]+%/);
    expect(run.stdout).toContain('Compactions on this branch: 0');
    expect(run.stdout).toContain('Branches: 1');
    // Terminal escapes from the session are shown escaped, never sent to the terminal.
    expect(run.stdout).not.toContain('\u001b');
  });

  test('--json gives the same numbers as the manager’s stats() for the same settings', async () => {
    const inspection = json(await runCli(['inspect', sessions.compacted, '--json', ...RECORDED_SETTINGS]));
    const store = createJsonlStore({ directory: sessions.directory });
    const context = buildContextFromBranch(await store.getBranch('compacted'));
    const manager = createContextManager({
      summarizer: heuristicSummarizer,
      contextWindow: 16_000,
      config: { reserveTokens: 3_000, keepRecentTokens: 2_000, autoCompact: false, toolSummaryStrategy: 'heuristic' },
    });
    const { history } = await manager.prepare(context.messages);
    const stats = manager.stats(history);
    expect(inspection.version).toBe(1);
    expect(inspection.context.tokens).toBe(stats.currentUsage);
    expect(inspection.context.messageCount).toBe(stats.messageCount);
    expect(inspection.context.limit).toBe(13_000);
    expect(Math.abs((inspection.context.percent ?? Number.NaN) - stats.usagePercent)).toBeLessThanOrEqual(0.05 + 1e-9); // the JSON rounds to one decimal
    expect(inspection.context.breakdown.total.tokens).toBe(stats.breakdown.total);
    for (const [role, tokens] of Object.entries(stats.breakdown.byRole)) {
      expect(inspection.context.breakdown.byRole[role]?.tokens).toBe(tokens);
    }
    for (const [kind, tokens] of Object.entries(stats.breakdown.byKind)) {
      expect(inspection.context.breakdown.byKind[kind]?.tokens).toBe(tokens);
    }
  });

  test('shows every compaction with its numbers, what it kept verbatim and its checkpoint', async () => {
    const inspection = json(await runCli(['inspect', sessions.compacted, '--json', ...RECORDED_SETTINGS]));
    const store = createJsonlStore({ directory: sessions.directory });
    const recorded = (await store.getBranch('compacted')).filter((entry) => entry.type === 'compaction');
    expect(sessions.compactions).toBeGreaterThanOrEqual(2);
    expect(inspection.compactions).toHaveLength(recorded.length);
    inspection.compactions.forEach((compaction, index) => {
      const entry = recorded[index]!;
      expect(compaction.entryId).toBe(entry.id);
      expect(compaction.checkpoint).toBe(entry.type === 'compaction' && entry.summary);
      expect(compaction.tokensBefore).toBe(entry.type === 'compaction' && entry.tokensBefore);
      expect(compaction.tokensAfter).toBeLessThan(compaction.tokensBefore);
      // The manager records why it compacted.
      expect(compaction.reason).toBe('threshold');
      expect(compaction.tokensAfterSource).toBe('recorded');
      const fates = compaction.replaced.map((message) => message.fate);
      expect(fates).toContain('kept');
      expect(fates).toContain('summarized');
      // The first kept message is the compaction's firstKeptEntryId; kept messages come last.
      const kept = compaction.replaced.filter((message) => message.fate === 'kept');
      expect(kept[0]?.entryId).toBe(compaction.firstKeptEntryId);
      expect(fates.slice(fates.indexOf('kept')).every((fate) => fate === 'kept')).toBe(true);
    });
    // The second compaction updated the first one's checkpoint.
    expect(inspection.compactions[1]?.replaced[0]?.fate).toBe('previous-summary');

    const text = await runCli(['inspect', sessions.compacted, ...RECORDED_SETTINGS]);
    expect(text.stdout).toContain(`Compactions on this branch: ${recorded.length}`);
    expect(text.stdout).toMatch(/#1 entry .*before model call \d+/);
    expect(text.stdout).toMatch(/reason: threshold; [\d,]+ → [\d,]+ tokens/);
    expect(text.stdout).toMatch(/[\d,]+ → [\d,]+ tokens/);
    expect(text.stdout).toContain('Checkpoint:');
  });

  test('lists the tool results the pipeline archives, with the summary that stands for them', async () => {
    const inspection = json(
      await runCli(['inspect', sessions.plain, '--json', '--tool-call-cutoff', '1', '--tool-summary-batch', '0']),
    );
    expect(inspection.archived.map((archived) => archived.toolCallId)).toEqual(['call_1', 'call_2']);
    expect(inspection.archived.every((archived) => !archived.recorded)).toBe(true);
    expect(inspection.toolSummaries).toHaveLength(1);
    expect(inspection.toolSummaries[0]?.text).toContain('typecheck');
    expect(inspection.context.breakdown.byKind.tool_summary?.tokens).toBeGreaterThan(0);
    const off = json(
      await runCli([
        'inspect',
        sessions.plain,
        '--json',
        '--tool-summaries',
        'off',
        '--tool-call-cutoff',
        '1',
        '--tool-summary-batch',
        '0',
      ]),
    );
    expect(off.archived).toEqual([]);
  });

  test('shows the branches and labels of a branched session, and another branch with --leaf', async () => {
    const inspection = json(await runCli(['inspect', sessions.branched, '--json']));
    expect(inspection.branches).toHaveLength(2);
    expect(inspection.branches.filter((branch) => branch.current)).toHaveLength(1);
    expect(inspection.labels.map((label) => label.label).sort()).toEqual(['first-attempt', 'fork-point']);
    const forkPoint = inspection.labels.find((label) => label.label === 'fork-point')?.targetId;
    expect(inspection.branches.map((branch) => branch.forkedAt)).toEqual([null, forkPoint]);
    const other = inspection.branches.find((branch) => !branch.current)!;
    const text = await runCli(['inspect', sessions.branched]);
    expect(text.stdout).toContain('Branches: 2');
    expect(text.stdout).toContain('labels: fork-point');
    const previous = json(await runCli(['inspect', sessions.branched, '--json', '--leaf', other.leafId]));
    expect(previous.session.leafId).toBe(other.leafId);
    expect(previous.context.messageCount).toBeGreaterThan(inspection.context.messageCount);
  });

  test('reports a torn last line, shows the rest, and exits 0 (4 with --strict)', async () => {
    const run = await runCli(['inspect', sessions.torn, '--json']);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toMatch(/warning: .*line 14: torn last line/);
    const inspection = JSON.parse(run.stdout);
    expect(inspection.warnings).toEqual([expect.objectContaining({ line: 14, torn: true })]);
    expect(inspection.session.entryCount).toBe(12);
    const strict = await runCli(['inspect', sessions.torn, '--strict']);
    expect(strict.exitCode).toBe(4);
    expect(strict.stdout).toContain('Session plain');
  });

  test('reads a SQLite database, listing its sessions when it holds several', async () => {
    const unchosen = await runCli(['inspect', sessions.sqlite]);
    expect(unchosen.exitCode).toBe(2);
    expect(unchosen.stderr).toContain('holds 2 sessions; pick one with --session <id>');
    expect(unchosen.stderr).toMatch(/alpha[\s\S]*beta/);
    const beta = json(await runCli(['inspect', sessions.sqlite, '--session', 'beta', '--json', ...RECORDED_SETTINGS]));
    expect(beta.session.source.kind).toBe('sqlite');
    expect(beta.compactions.length).toBeGreaterThanOrEqual(2);
    const missing = await runCli(['inspect', sessions.sqlite, '--session', 'gamma']);
    expect(missing.exitCode).toBe(3);
    expect(missing.stderr).toContain('has no session "gamma"');
  });

  test('keeps session text as data: the XSS payload comes back verbatim in JSON', async () => {
    const inspection = json(await runCli(['inspect', sessions.plain, '--json']));
    expect(inspection.messages.some((message) => message.text.includes(XSS_PAYLOAD))).toBe(true);
    expect(inspection.messages.some((message) => message.text.includes(TERMINAL_PAYLOAD))).toBe(true);
  });

  test('shows bidi controls escaped, never raw, in the terminal and in JSON; the data keeps them', async () => {
    const bidi = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
    const text = await runCli(['inspect', sessions.plain]);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).not.toMatch(bidi);
    expect(text.stdout).toContain('invoice\\u202efdp.exe');
    const raw = await runCli(['inspect', sessions.plain, '--json']);
    expect(raw.stdout).not.toMatch(bidi);
    const inspection = json(raw);
    expect(inspection.messages.some((message) => message.text.includes(BIDI_PAYLOAD))).toBe(true);
    const replay = await runCli(['replay', sessions.plain, '--window', '8000']);
    expect(replay.stdout + replay.stderr).not.toMatch(bidi);
    mkdirSync(join(sessions.directory, 'reports'), { recursive: true });
    const report = join(sessions.directory, 'reports', 'bidi.html');
    expect(await runCli(['report', sessions.plain, '-o', report])).toMatchObject({ exitCode: 0 });
    const page = readFileSync(report, 'utf8');
    expect(page).not.toMatch(bidi);
    const transcript = readReportTranscript(report);
    expect(transcript.some((row) => row.text.includes('invoice\\u202efdp.exe'))).toBe(true);
    expect(transcript.some((row) => bidi.test(row.text))).toBe(false);
  });
});

describe.concurrent('ctxkit replay', () => {
  test('with the recorded settings, compaction fires where the session recorded it', async () => {
    // The system prompt is one of them: without it the replay counts a few tokens less per call.
    const prompt = join(mkdtempSync(join(tmpdir(), 'ctxkit-prompt-')), 'system-prompt.txt');
    writeFileSync(prompt, SYSTEM_PROMPT);
    const replay = json<ReplayResult>(
      await runCli([
        'replay',
        sessions.compacted,
        '--json',
        ...RECORDED_SETTINGS,
        '--system-prompt',
        prompt,
        '--tool-call-cutoff',
        '4',
        '--tool-summary-batch',
        '0',
      ]),
    );
    expect(replay.recorded.length).toBeGreaterThanOrEqual(2);
    expect(replay.compactions.map((compaction) => compaction.beforeCall)).toEqual(
      replay.recorded.map((recorded) => recorded.beforeCall),
    );
    expect(replay.archivedToolResults).toBeGreaterThan(0);
    expect(replay.settings).toMatchObject({ contextWindow: 16_000, limit: 13_000, reserveTokens: 3_000 });
  });

  test('a what-if: a lower threshold compacts earlier and more often', async () => {
    const recorded = json<ReplayResult>(
      await runCli([
        'replay',
        sessions.compacted,
        '--json',
        ...RECORDED_SETTINGS,
        '--tool-call-cutoff',
        '4',
        '--tool-summary-batch',
        '0',
      ]),
    );
    const lower = json<ReplayResult>(
      await runCli([
        'replay',
        sessions.compacted,
        '--json',
        ...RECORDED_SETTINGS,
        '--tool-call-cutoff',
        '4',
        '--tool-summary-batch',
        '0',
        '--threshold',
        '0.5',
      ]),
    );
    expect(lower.settings.limit).toBe(8_000);
    expect(lower.compactions.length).toBeGreaterThan(recorded.compactions.length);
    expect(lower.compactions[0]!.beforeCall).toBeLessThan(recorded.compactions[0]!.beforeCall);
    for (const call of lower.calls) expect(call.tokens).toBeLessThanOrEqual(8_000 + 3_000);
    const text = await runCli(['replay', sessions.compacted, ...RECORDED_SETTINGS, '--threshold', '0.5']);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toMatch(/Compaction would fire \d+ times \(the session recorded \d+\)/);
    expect(text.stdout).toContain('◆ compacted before this call');
  });

  test('takes the window of the model the session recorded, and needs one', async () => {
    const recorded = json<ReplayResult>(await runCli(['replay', sessions.branched, '--json']));
    expect(recorded.settings).toMatchObject({ model: 'gpt-4o', contextWindow: 128_000 });
    const scratch = mkdtempSync(join(tmpdir(), 'ctxkit-cli-nomodel-'));
    try {
      const store = createJsonlStore({ directory: scratch });
      await store.createSession({ id: 'bare' });
      await store.appendEntry('bare', { type: 'message', message: { role: 'user', content: 'hello' } });
      await store.close();
      const run = await runCli(['replay', join(scratch, 'bare.jsonl')]);
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toContain('--model <id> or --window <tokens>');
      const inspected = await runCli(['inspect', join(scratch, 'bare.jsonl')]);
      expect(inspected.exitCode).toBe(0);
      expect(inspected.stdout).toContain('Window: unknown; pass --model <id> or --window <tokens>');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

describe.concurrent('bad input', () => {
  test.each([
    [['inspect', '/nonexistent/session.jsonl'], 3, 'No such file'],
    [['inspect', tmpdir()], 3, 'is a directory'],
    [['inspect', 'NOT_A_SESSION'], 3, 'is not a ctxkit session: its first line is not JSON'],
    [['inspect', 'OTHER_JSON'], 3, 'is not a ctxkit session: its first line is not a session header'],
    [['inspect', 'EMPTY'], 3, 'is not a ctxkit session: it is empty'],
    [
      ['inspect', 'PLAIN', '--model', 'gpt-99-turbo'],
      2,
      'Unknown model "gpt-99-turbo": pass its context window with --window',
    ],
    [['inspect', 'PLAIN', '--window', 'lots'], 2, '--window lots: expected a positive whole number'],
    [['inspect', 'PLAIN', '--threshold', '2'], 2, '--threshold 2: expected a share'],
    [['inspect', 'PLAIN', '--no-such-option'], 2, "Unknown option '--no-such-option'"],
    [['inspect'], 2, 'ctxkit inspect needs a session'],
    [['summarize', 'PLAIN'], 2, 'Unknown command "summarize"'],
    [['report', 'PLAIN'], 2, 'needs an output file'],
    [['inspect', 'PLAIN', '--leaf', 'nope'], 3, 'Entry "nope" is not in session plain'],
    [['inspect', 'PLAIN', '--system-prompt', '/nonexistent/prompt.txt'], 3, 'Cannot read /nonexistent/prompt.txt'],
  ] as const)('%j exits %i', async (args, exitCode, message) => {
    const scratch = mkdtempSync(join(tmpdir(), 'ctxkit-cli-bad-'));
    try {
      const files: Record<string, string> = {
        NOT_A_SESSION: join(scratch, 'notes.jsonl'),
        OTHER_JSON: join(scratch, 'data.jsonl'),
        EMPTY: join(scratch, 'empty.jsonl'),
        PLAIN: sessions.plain,
      };
      writeFileSync(files.NOT_A_SESSION!, 'just some notes\n');
      writeFileSync(files.OTHER_JSON!, '{"name":"not a session"}\n');
      writeFileSync(files.EMPTY!, '');
      const run = await runCli(args.map((arg) => files[arg] ?? arg));
      expect(run.exitCode).toBe(exitCode);
      expect(run.stderr).toContain(message);
      expect(run.stderr).not.toContain('    at ');
      expect(run.stdout).toBe('');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  test('a SQLite database without ctxkit tables is not a session', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'ctxkit-cli-db-'));
    try {
      const file = join(scratch, 'other.db');
      const database = new Database(file);
      database.exec('CREATE TABLE notes (text TEXT)');
      database.close();
      const run = await runCli(['inspect', file]);
      expect(run.exitCode).toBe(3);
      expect(run.stderr).toContain('has no ctxkit session tables');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

// The tests above run the command line in this process; these run the built `ctxkit` binary as a
// process, so what a shell sees (the version it reads, stdout, stderr, the exit code) stays covered.
describe.concurrent('the ctxkit process', () => {
  test('--help exits 0, no command exits 2 with the help, --version reads the package.json', async () => {
    const [help, none, version] = await Promise.all([spawnCli(['--help']), spawnCli([]), spawnCli(['--version'])]);
    expect(help).toMatchObject({ exitCode: 0, stderr: '' });
    expect(help.stdout).toContain('ctxkit inspect <session>');
    expect(none).toEqual({ ...help, exitCode: 2 });
    expect(version).toEqual({ stdout: `${PACKAGE_VERSION}\n`, stderr: '', exitCode: 0 });
  });

  test('prints exactly what run returns: the same bytes and exit code in and out of process', async () => {
    const cases = [
      ['inspect', sessions.compacted, '--json', ...RECORDED_SETTINGS],
      ['inspect', sessions.plain],
      ['replay', sessions.plain, '--window', '8000'],
      ['inspect', sessions.torn, '--strict'],
    ];
    const processes = await Promise.all(cases.map((args) => spawnCli(args)));
    const inProcess = await Promise.all(cases.map((args) => runCli(args)));
    expect(processes).toEqual(inProcess);
    expect(processes.map((run) => run.exitCode)).toEqual([0, 0, 0, 4]);
    // Terminal escapes and bidi controls from the session reach the terminal escaped.
    expect(processes[1]!.stdout).not.toContain('\u001b');
    expect(processes[1]!.stdout).not.toContain('\u202e');
    expect(processes[1]!.stdout).toContain('invoice\\u202efdp.exe');
    expect(processes[3]!.stderr).toMatch(/^ctxkit: warning: .*line 14: torn last line/);
  });

  test('bad arguments exit 2 and bad input 3, with the message on stderr and nothing on stdout', async () => {
    const [usage, input] = await Promise.all([
      spawnCli(['inspect', sessions.plain, '--no-such-option']),
      spawnCli(['inspect', join(sessions.directory, 'missing.jsonl')]),
    ]);
    expect(usage).toMatchObject({ exitCode: 2, stdout: '' });
    expect(usage.stderr).toMatch(
      /^ctxkit: Unknown option '--no-such-option'[\s\S]*Run ctxkit --help for the options\.\n$/,
    );
    expect(input).toMatchObject({ exitCode: 3, stdout: '' });
    expect(input.stderr).toMatch(
      /^ctxkit: No such file: .*missing\.jsonl\. Pass a JSONL session file or a SQLite database\.\n$/,
    );
  });
});
