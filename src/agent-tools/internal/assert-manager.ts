import type { ContextManager } from '../../manager/context-manager-types.js';
import { assertObjectArgument, invalidArgument } from '../../validation/assert-argument.js';

/**
 * Checks that a host passed a context manager (what `createContextManager` returns), so a wrong
 * argument fails with a typed error naming it instead of a `TypeError` inside a tool handler.
 *
 * @throws {@link ContextError} with code `INPUT_INVALID`.
 * @internal
 */
export function assertManager(value: unknown, where: string): asserts value is ContextManager {
  const requirement = 'a context manager (from createContextManager)';
  assertObjectArgument(value, where, 'manager', requirement);
  const config: unknown = value['config'];
  if (typeof value['stats'] !== 'function' || typeof config !== 'object' || config === null) {
    throw invalidArgument(where, 'manager', requirement, value);
  }
}
