/**
 * Structural comparison shared by the checkers. Internal to `ctxkit/testing`.
 */

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function definedKeys(value: Record<string, unknown>): string[] {
  return Object.keys(value).filter((key) => value[key] !== undefined);
}

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (Array.isArray(value)) return `array(${value.length})`;
  if (isRecord(value)) return 'object';
  return String(value);
}

/**
 * The paths where `expected` and `actual` differ, as readable lines (at most `limit`). Keys whose
 * value is `undefined` count as absent, as in `toEqual`; `NaN` equals `NaN`.
 *
 * @internal
 */
export function deepDifferences(expected: unknown, actual: unknown, path = '$', limit = 10): string[] {
  const out: string[] = [];
  const seen = new WeakMap<object, object>();
  const walk = (left: unknown, right: unknown, at: string): void => {
    if (out.length >= limit || Object.is(left, right)) return;
    if (!isRecord(left) || !isRecord(right) || Array.isArray(left) !== Array.isArray(right)) {
      out.push(`${at}: expected ${show(left)}, found ${show(right)}`);
      return;
    }
    if (seen.get(left) === right) return;
    seen.set(left, right);
    if (Array.isArray(left) && Array.isArray(right) && left.length !== right.length) {
      out.push(`${at}: expected ${left.length} items, found ${right.length}`);
    }
    const keys = new Set([...definedKeys(left), ...definedKeys(right)]);
    for (const key of keys) walk(left[key], right[key], Array.isArray(left) ? `${at}[${key}]` : `${at}.${key}`);
  };
  walk(expected, actual, path);
  return out;
}

/** Whether two values are structurally equal (see {@link deepDifferences}). @internal */
export function deepEqual(left: unknown, right: unknown): boolean {
  return deepDifferences(left, right, '$', 1).length === 0;
}
