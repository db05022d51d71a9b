import { parseArgs } from 'node:util';
import * as z from 'zod/v4';
import { usageError } from './cli-error.js';

/** @internal */
export const HELP = `ctxkit: see what is in an agent session's context and what compaction did to it.

Usage:
  ctxkit inspect <session> [options]          the branch as the model sees it now
  ctxkit replay <session> --model <id> [options]   where compaction would fire under other settings
  ctxkit report <session> -o report.html [options] one self-contained HTML page

<session> is a JSONL session file (<session-id>.jsonl), a SQLite database, or a Postgres
connection string (postgres://…, read in read-only transactions).

Options:
  --session <id>             the session to read from a database that holds several
  --schema <name>            Postgres: the schema of the store's tables
  --table-prefix <prefix>    Postgres: the tables' prefix (default ctxkit_)
  --leaf <entry-id>          another branch (default: the session's current leaf)
  --model <id>               the model whose context window applies (default: the session's latest)
  --window <tokens>          the context window, for models the table does not know
  --system-prompt <file>     a system prompt to count (sessions do not store it)
  --tools <file.json>        tool definitions to count
  --tool-summaries <mode>    heuristic (default) archives old tool results as the manager would; off
  --json                     inspect and replay: stable JSON on stdout (see docs/cli.md)
  --full                     inspect: whole checkpoints and summaries
  --strict                   exit 4 when lines of the session file were skipped (a torn last line)
  -o, --output <file>        report: where to write the HTML
Settings (the manager's; they move the limits inspect shows and what replay compacts):
  --threshold <0-1>          compaction threshold (share of the window)
  --reserve <tokens>         tokens kept free for the response
  --keep-recent-tokens <n>   tokens of recent messages kept verbatim
  --warning-threshold <0-1>  warning threshold
  --tool-call-cutoff <n>     visible tool results before the oldest are archived
  --tool-summary-batch <n>   results collected past the cutoff before a batch is archived (0: each)
  -h, --help                 this help
  -v, --version              the version

Exit codes: 0 done, 1 failure, 2 bad arguments or unknown model, 3 bad input
(missing file, not a session, unknown session), 4 lines skipped with --strict.`;

const OPTIONS = {
  session: { type: 'string' },
  schema: { type: 'string' },
  'table-prefix': { type: 'string' },
  leaf: { type: 'string' },
  model: { type: 'string' },
  window: { type: 'string' },
  'system-prompt': { type: 'string' },
  tools: { type: 'string' },
  'tool-summaries': { type: 'string' },
  json: { type: 'boolean' },
  full: { type: 'boolean' },
  strict: { type: 'boolean' },
  output: { type: 'string', short: 'o' },
  threshold: { type: 'string' },
  reserve: { type: 'string' },
  'keep-recent-tokens': { type: 'string' },
  'warning-threshold': { type: 'string' },
  'tool-call-cutoff': { type: 'string' },
  'tool-summary-batch': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

/** @internal */
type Values = ReturnType<typeof parse>['values'];

/** @internal */
export function parse(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageError(`${error instanceof Error ? error.message : String(error)}\nRun ctxkit --help for the options.`);
  }
}

/** @internal */
export const wholeNumber = z.coerce.number().int().nonnegative();
/** @internal */
export const positiveNumber = z.coerce.number().int().positive();
/** @internal */
export const ratio = z.coerce.number().gt(0).lte(1);

/** @internal */
export function option<T>(values: Values, name: keyof Values, schema: z.ZodType<T>, expected: string): T | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const result = schema.safeParse(raw);
  if (!result.success) throw usageError(`--${name} ${String(raw)}: expected ${expected}.`);
  return result.data;
}
