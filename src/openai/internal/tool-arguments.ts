import { isObject } from '../../internal/wire-object.js';
import type { ToolCall } from '../../types.js';

// A tool call's arguments: JSON text on the wire, an object in ctxkit, and the wire text kept when it
// would not print back the same.

/**
 * Parses a tool call's JSON-string arguments. `raw` is set when the string is not exactly what
 * `JSON.stringify` would print for them (other spacing, key escapes) or is not a JSON object at all
 * (then `arguments` is `{}` and `invalid` is true), so the wire text can be sent back verbatim.
 *
 * @internal
 */
export function parseArguments(text: string): { arguments: Record<string, unknown>; raw?: string; invalid?: true } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { arguments: {}, raw: text, invalid: true };
  }
  if (!isObject(parsed)) return { arguments: {}, raw: text, invalid: true };
  return JSON.stringify(parsed) === text ? { arguments: parsed } : { arguments: parsed, raw: text };
}

/**
 * The JSON text of a tool call's arguments: the verbatim wire text while it still says the same as
 * `arguments` (the core never edits arguments, but a host might), else `JSON.stringify(arguments)`.
 *
 * @internal
 */
export function printArguments(call: ToolCall, raw: unknown): string {
  if (typeof raw === 'string') {
    const again = parseArguments(raw);
    if (again.invalid ? Object.keys(call.arguments).length === 0 : sameJson(again.arguments, call.arguments)) {
      return raw;
    }
  }
  return JSON.stringify(call.arguments);
}

function sameJson(left: unknown, right: unknown): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}
