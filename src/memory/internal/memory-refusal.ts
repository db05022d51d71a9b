import { resolveMemoryPath } from '../memory-paths.js';

/**
 * An expected refusal, thrown inside the command handlers and returned by `runMemoryCommand` as `{ error }`.
 *
 * @internal
 */
export class Refusal {
  constructor(readonly message: string) {}
}

/**
 * The normalised path in `value`, or a {@link Refusal} naming `field` and why the path is refused.
 *
 * @internal
 */
export function resolveField(field: string, value: string): string {
  const resolved = resolveMemoryPath(value);
  if (!resolved.ok) throw new Refusal(`${field}: ${resolved.reason}`);
  return resolved.path;
}
