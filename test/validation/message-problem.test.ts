import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { ContextError, estimateContextTokens } from '../../src/index.js';
import { messageSchema } from '../../src/schemas/index.js';
import { arbitraryMessage } from '../../src/testing/index.js';
import { messageProblem } from '../../src/validation/is-well-formed-message.js';

// Functions check the messages a host hands in with a hand-written check, not with zod, so that a
// bundle converting and managing messages carries no zod schema. The check must accept exactly
// what `messageSchema` (ctxkit/schemas) accepts: generated messages, whole and damaged.

/** Values a field may be damaged to: each breaks some field's type and fits another's. */
const damage = fc.constantFrom<unknown>(
  undefined,
  null,
  '',
  'text',
  0,
  -1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  [],
  ['x'],
  {},
  { type: 'text', text: 'x' },
  { type: 'image', data: 'x', mimeType: 'image/png' },
  { type: 'toolCall', id: '', name: 'x', arguments: {} },
  { type: 'thinking', thinking: 'x', signature: 1 },
  new Date(0),
  Object.create(null),
  'stop',
  'user',
  'toolResult',
);

/** Every path to a value inside `value` (objects and arrays), the root excluded. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [];
  const keys: (string | number)[] = Array.isArray(value) ? value.map((_, index) => index) : Object.keys(value);
  return keys.flatMap((key) => {
    const path = [...prefix, key];
    return [path, ...paths((value as Record<string | number, unknown>)[key], path)];
  });
}

/** A copy of `value` with the field at `path` replaced (or removed when `replacement` is undefined). */
function replaced(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (replacement === undefined && !Array.isArray(parent)) delete parent[last];
  else parent[last] = replacement;
  return copy;
}

/** A generated message, and the same message with one field damaged or added. */
const messages = fc.oneof(
  arbitraryMessage(),
  arbitraryMessage().chain((message) => {
    const all = paths(message);
    const extra = ['meta', 'usage', 'stopReason', 'isError', 'providerData', 'errorMessage', 'role', 'content'];
    return fc
      .tuple(fc.oneof(fc.constantFrom(...all), fc.constantFrom(...extra.map((key) => [key]))), damage)
      .map(([path, value]) => replaced(message, path, value));
  }),
);

describe('the hand-written message check', () => {
  test.prop([messages], { numRuns: 2000 })('accepts exactly what messageSchema accepts', (message) => {
    const parsed = messageSchema.safeParse(message);
    // meta.anchors is left to the stores, which check what they read back with the schema.
    const anchors = (message as { meta?: { anchors?: unknown } } | null)?.meta?.anchors;
    if (anchors !== undefined) return;
    expect(messageProblem(message) === undefined).toBe(parsed.success);
  });

  it('names the field and what it must be', () => {
    expect(messageProblem({ role: 'system', content: 'x' })).toBe(".role must be 'user', 'assistant' or 'toolResult'");
    expect(messageProblem({ role: 'user', content: [{ type: 'text' }] })).toBe('.content[0].text must be a string');
    expect(messageProblem({ role: 'toolResult', toolName: 'bash', content: [] })).toMatch(/^\.toolCallId must be/);
    expect(messageProblem({ role: 'assistant', content: [], usage: { input: -1, output: 0 } })).toBe(
      '.usage.input must be a finite number ≥ 0',
    );
    expect(messageProblem(null)).toBe(' must be an object');
  });

  it('is what a function says about a bad message', () => {
    let caught: unknown;
    try {
      estimateContextTokens([
        { role: 'user', content: 'ok' },
        { role: 'user', content: [{ type: 'image', data: 'x' }] },
      ] as never);
    } catch (error) {
      caught = error;
    }
    expect(ContextError.isInstance(caught)).toBe(true);
    expect((caught as Error).message).toMatch(
      /^estimateContextTokens: messages\[1\]\.content\[0\]\.mimeType must be a string\./,
    );
  });
});
