/**
 * The exit codes of the `ctxkit` command line (see docs/cli.md).
 *
 * @internal
 */
export const EXIT = {
  /** Done (warnings, such as a torn last line, are printed on stderr). */
  ok: 0,
  /** An unexpected failure: a bug, or a store that failed mid-read. */
  failed: 1,
  /** Bad arguments: an unknown command or option, a bad number, an unknown model without `--window`. */
  usage: 2,
  /** Bad input: a missing or unreadable file, a file that is not a session, an unknown session. */
  input: 3,
  /** Done, but lines were skipped (a torn last line) and `--strict` was given. */
  warnings: 4,
} as const;

/**
 * A failure the command line reports as one message and an exit code, without a stack trace.
 *
 * @internal
 */
export class CliError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode: number) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/** @internal */
export function usageError(message: string): CliError {
  return new CliError(message, EXIT.usage);
}

/** @internal */
export function inputError(message: string): CliError {
  return new CliError(message, EXIT.input);
}
