// How a caught value reads inside another message: an error's message, or the thrown value as text.

/**
 * The message of `error`, or the thrown value as text, for the message of the error or report
 * that mentions it.
 *
 * @internal
 */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
