import { readFile, writeFile } from 'node:fs/promises';
import { HELP, option, parse, positiveNumber, ratio, wholeNumber } from './arguments.js';
import { branchTranscript } from './branch-transcript.js';
import { CliError, EXIT, inputError, usageError } from './cli-error.js';
import { type ContextSettings, resolveWindow } from './context-settings.js';
import { escapeForTerminal } from './escape-controls.js';
import { formatInspection } from './format-inspection.js';
import { formatReplay } from './format-replay.js';
import { inspectSession } from './inspect-session.js';
import { loadSession } from './load-session.js';
import type { LoadedSession } from './loaded-session.js';
import { renderReport } from './render-report.js';
import { replaySession } from './replay-session.js';

/**
 * What a command writes: text for stdout and stderr (already escaped for a terminal), and the exit
 * code.
 *
 * @internal
 */
export interface CommandOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/**
 * What the command line takes from its process besides the arguments.
 *
 * @internal
 */
export interface CommandContext {
  /** What `--version` prints: the package's version. */
  version: string;
}

/**
 * Runs the command line on `argv` (without `node` and the script) and returns what to print, with
 * control and bidi characters escaped: the `ctxkit` binary writes it as it is and exits with
 * `exitCode`. Never throws: a failure is an exit code and a message on stderr.
 *
 * @internal
 */
export async function run(argv: readonly string[], context: CommandContext): Promise<CommandOutput> {
  const output = await settle(argv, context.version);
  return {
    stdout: escapeForTerminal(output.stdout),
    stderr: escapeForTerminal(output.stderr),
    exitCode: output.exitCode,
  };
}

async function settle(argv: readonly string[], version: string): Promise<CommandOutput> {
  try {
    return await dispatch(argv, version);
  } catch (error) {
    if (error instanceof CliError)
      return { stdout: '', stderr: `ctxkit: ${error.message}\n`, exitCode: error.exitCode };
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    return { stdout: '', stderr: `ctxkit: unexpected failure: ${text}\n`, exitCode: EXIT.failed };
  }
}

async function dispatch(argv: readonly string[], version: string): Promise<CommandOutput> {
  const { values, positionals } = parse(argv);
  if (values.version) return { stdout: `${version}\n`, stderr: '', exitCode: EXIT.ok };
  const [command, target, ...extra] = positionals;
  if (values.help || command === undefined || command === 'help') {
    return { stdout: `${HELP}\n`, stderr: '', exitCode: command === undefined && !values.help ? EXIT.usage : EXIT.ok };
  }
  if (command !== 'inspect' && command !== 'replay' && command !== 'report') {
    throw usageError(`Unknown command "${command}". Commands: inspect, replay, report (ctxkit --help).`);
  }
  if (target === undefined) throw usageError(`ctxkit ${command} needs a session: ctxkit ${command} <file>.`);
  if (extra.length > 0) throw usageError(`Unexpected argument "${extra[0]}" after the session.`);
  if (command === 'report' && values.output === undefined) {
    throw usageError('ctxkit report needs an output file: ctxkit report <session> -o report.html.');
  }
  const toolSummaries = values['tool-summaries'] ?? 'heuristic';
  if (toolSummaries !== 'heuristic' && toolSummaries !== 'off') {
    throw usageError(`--tool-summaries ${toolSummaries}: expected heuristic or off.`);
  }
  const window = option(values, 'window', positiveNumber, 'a positive whole number of tokens');
  const config = {
    toolSummaryStrategy: toolSummaries,
    ...defined('compactionThreshold', option(values, 'threshold', ratio, 'a share of the window above 0, at most 1')),
    ...defined('reserveTokens', option(values, 'reserve', wholeNumber, 'a whole number of tokens')),
    ...defined('keepRecentTokens', option(values, 'keep-recent-tokens', wholeNumber, 'a whole number of tokens')),
    ...defined('warningThreshold', option(values, 'warning-threshold', ratio, 'a share above 0, at most 1')),
    ...defined('toolCallCutoff', option(values, 'tool-call-cutoff', wholeNumber, 'a whole number')),
    ...defined('toolSummaryBatch', option(values, 'tool-summary-batch', wholeNumber, 'a whole number')),
  } as const;
  const systemPrompt = values['system-prompt'] === undefined ? undefined : await readText(values['system-prompt']);
  const tools = values.tools === undefined ? undefined : parseTools(values.tools, await readText(values.tools));

  const loaded = chooseLeaf(
    await loadSession(target, {
      sessionId: values.session,
      schema: values.schema,
      tablePrefix: values['table-prefix'],
    }),
    values.leaf,
  );
  const resolved = resolveWindow({ window, model: values.model, sessionModel: sessionModel(loaded) });
  if (command === 'replay' && resolved.contextWindow === undefined) {
    throw usageError('ctxkit replay needs a context window: pass --model <id> or --window <tokens>.');
  }
  const settings: ContextSettings = { ...resolved, config, systemPrompt, tools };
  const stderr = formatWarnings(loaded);
  const exitCode = values.strict && loaded.warnings.length > 0 ? EXIT.warnings : EXIT.ok;

  if (command === 'replay') {
    const replay = await replaySession(loaded, settings);
    return { stdout: `${values.json ? toJson(replay) : formatReplay(replay)}\n`, stderr, exitCode };
  }
  const inspection = await inspectSession(loaded, settings);
  if (command === 'inspect') {
    const text = values.json
      ? toJson({ version: 1, ...inspection })
      : formatInspection(inspection, { full: values.full === true });
    return { stdout: `${text}\n`, stderr, exitCode };
  }
  const output = values.output!;
  try {
    await writeFile(output, renderReport(inspection, branchTranscript(loaded, inspection)), 'utf8');
  } catch (error) {
    throw inputError(`Cannot write ${output} (${error instanceof Error ? error.message : String(error)}).`);
  }
  return { stdout: `Wrote ${output}\n`, stderr, exitCode };
}

function defined<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw inputError(`Cannot read ${file} (${error instanceof Error ? error.message : String(error)}).`);
  }
}

function parseTools(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw inputError(`${file} is not JSON: --tools takes a JSON file of tool definitions.`);
  }
}

function chooseLeaf(loaded: LoadedSession, leaf: string | undefined): LoadedSession {
  if (leaf === undefined) return loaded;
  if (!loaded.entries.some((entry) => entry.id === leaf)) {
    throw inputError(
      `Entry "${leaf}" is not in session ${loaded.info.id}; --leaf takes an entry id (see the branches).`,
    );
  }
  return { ...loaded, leafId: leaf };
}

/** The latest model the branch names: a model change, else the newest assistant message's model. */
function sessionModel(loaded: LoadedSession): string | undefined {
  const byId = new Map(loaded.entries.map((entry) => [entry.id, entry]));
  for (let id = loaded.leafId; id !== null; ) {
    const entry = byId.get(id);
    if (entry === undefined) return undefined;
    if (entry.type === 'model_change') return entry.modelId;
    if (entry.type === 'message' && entry.message.role === 'assistant' && entry.message.model) {
      return entry.message.model;
    }
    id = entry.parentId;
  }
  return undefined;
}

function formatWarnings(loaded: LoadedSession): string {
  return loaded.warnings
    .map(
      (warning) =>
        `ctxkit: warning: ${loaded.source.location} line ${warning.line}: ${warning.torn ? 'torn last line (an append cut short)' : 'invalid line'} skipped (${warning.reason}); the rest of the session is shown.\n`,
    )
    .join('');
}

function toJson(value: unknown): string {
  // DEL, C1 and bidi controls pass JSON.stringify as they are: the terminal escapes below turn them
  // into JSON's own \uXXXX escapes, so the output parses back to the same data.
  return JSON.stringify(value, null, 2);
}
