// The checks at the top of a public function that takes data, not options (a message, an entry, a
// path): a value of the wrong kind fails there with a ContextError (code INPUT_INVALID) naming the
// function and the argument, never as a TypeError from inside.
import { ContextError } from '../errors.js';
import { describeValue } from './describe-value.js';

/**
 * The error for an argument of the wrong kind: `<where>: <name> must be <requirement> (got <value>).`
 *
 * @param where - The public function, as the host calls it.
 * @param name - The argument or the field, as the host spells it (`message`, `usage.input_tokens`).
 * @param requirement - What it must be (`a message object`).
 * @param value - What was given, described briefly (never converted to a string).
 * @internal
 */
export function invalidArgument(where: string, name: string, requirement: string, value: unknown): ContextError {
  return new ContextError({
    message: `${where}: ${name} must be ${requirement} (got ${describeValue(value)}).`,
    code: 'INPUT_INVALID',
  });
}

/**
 * Checks that an argument is an object (not null, not an array). @internal
 *
 * @throws {@link ContextError} with code `INPUT_INVALID`.
 */
export function assertObjectArgument(
  value: unknown,
  where: string,
  name: string,
  requirement = 'an object',
): asserts value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidArgument(where, name, requirement, value);
  }
}

/**
 * Checks that an argument is a string. @internal
 *
 * @throws {@link ContextError} with code `INPUT_INVALID`.
 */
export function assertStringArgument(value: unknown, where: string, name: string): asserts value is string {
  if (typeof value !== 'string') throw invalidArgument(where, name, 'a string', value);
}

/**
 * Checks that an optional argument is an object or left out. @internal
 *
 * @throws {@link ContextError} with code `INPUT_INVALID`.
 */
export function assertOptionalObjectArgument(
  value: unknown,
  where: string,
  name: string,
): asserts value is Record<string, unknown> | undefined {
  if (value !== undefined) assertObjectArgument(value, where, name, 'an object or left out');
}

/**
 * Checks the shape a function that reads one message's text relies on: an object whose `content`
 * is a string or an array of parts (objects). Cheaper than a full message check, and lenient
 * about the rest, for functions the pipeline calls on every message. @internal
 *
 * @throws {@link ContextError} with code `INPUT_INVALID`.
 */
export function assertMessageShape(value: unknown, where: string): asserts value is Record<string, unknown> {
  assertObjectArgument(value, where, 'message', 'a message object');
  const content = value['content'];
  if (typeof content === 'string') return;
  if (!Array.isArray(content))
    throw invalidArgument(where, 'message.content', 'a string or an array of parts', content);
  for (const [index, part] of content.entries()) assertObjectArgument(part, where, `message.content[${index}]`);
}
