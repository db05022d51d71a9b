// Every function of every package entry, called with arbitrary arguments: it returns (or its promise
// settles) or it throws one of ctxkit's typed errors (`ContextError` and its subclasses) — never a
// `TypeError` from deep inside. The entries are read from package.json's `exports`, their functions
// enumerated at run time, so a new export is fuzzed without a change here; so are the methods of
// what the factories build (counters, stores, the manager, the memory tool) and of the objects the
// entries export. Runs are bounded and seeded so the suite stays fast and deterministic;
// `FUZZ_RUNS=…` runs more.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContextError, heuristicSummarizer } from 'ctxkit';
import { createInMemoryMemoryStore } from 'ctxkit/memory';
import { assistantMessage, toolCallMessage, toolResultMessage, userMessage } from 'ctxkit/testing';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };

const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
/** A call whose promise has not settled by then is reported as hanging. */
const SETTLE_MS = 2_000;

const ENTRIES = Object.keys(packageJson.exports)
  .filter((path) => path !== './package.json')
  .map((path) => (path === '.' ? 'ctxkit' : `ctxkit/${path.slice(2)}`));

/** Where the file stores fuzzed here write: nothing is written anywhere else. */
const directory = mkdtempSync(join(tmpdir(), 'ctxkit-fuzz-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/**
 * The options a factory is built with before its product's methods are fuzzed (a factory not
 * listed is built with no arguments, when it accepts that). Stores on disk get the directory above.
 */
const FACTORY_OPTIONS: Record<string, () => unknown> = {
  'ctxkit createContextManager': () => ({ contextWindow: 8_000, summarizer: heuristicSummarizer }),
  'ctxkit/memory createMemoryTool': () => ({ store: createInMemoryMemoryStore() }),
  'ctxkit/node createFileSpillStore': () => ({ directory: join(directory, 'spill') }),
  'ctxkit/node createJsonlStore': () => ({ directory: join(directory, 'jsonl') }),
  'ctxkit/node createFileMemoryStore': () => ({ directory: join(directory, 'memory') }),
};

/** Well-formed values, so that the fuzzer reaches past the first check (a null among good entries…). */
const message = userMessage('hello');
const call = toolCallMessage([{ id: 'call_1', name: 'bash', arguments: { command: 'ls' } }]);
const WELL_FORMED: unknown[] = [
  message,
  assistantMessage('done'),
  call,
  toolResultMessage('call_1', 'README.md'),
  { id: 'e1', parentId: null, timestamp: 1, type: 'message', message },
  { id: 'e2', parentId: 'e1', timestamp: 2, type: 'compaction', summary: 's', firstKeptEntryId: 'e1', tokensBefore: 9 },
  { id: 'e3', parentId: 'e2', timestamp: 3, type: 'branch_summary', fromId: 'e1', summary: 's' },
  { id: 'e4', parentId: 'e3', timestamp: 4, type: 'custom_message', customType: 'note', content: 'c' },
  { role: 'user', content: [{ type: 'image', data: 'x', mimeType: 'image/png' }], meta: { kind: 'toString' } },
  { inputTokens: 1e308, outputTokens: 1e308, totalTokens: 1e308 },
  { input_tokens: 1e308, output_tokens: 1e308, cache_read_input_tokens: 1e308 },
  { content: [{ type: 'text', text: 'hi' }], finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } },
  { response: { messages: [{ role: 'assistant', content: 'hi' }] }, steps: [], text: 'hi' },
  '/memories',
  '/memories/notes.md',
  'memories/../x',
  'x'.repeat(2_000),
  42,
  Number.NaN,
  null,
  undefined,
];

const anything = fc.anything({
  maxDepth: 3,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withTypedArray: true,
  withSparseArray: true,
});
const part = fc.oneof(anything, fc.constantFrom(...WELL_FORMED));
/** A well-formed object with one field replaced by anything. */
const damaged = fc
  .tuple(fc.constantFrom(...WELL_FORMED.filter((value) => typeof value === 'object' && value !== null)), anything)
  .chain(([value, replacement]) =>
    fc.constantFrom(...Object.keys(value as object)).map((key) => ({ ...(value as object), [key]: replacement })),
  );
const argument = fc.oneof(part, damaged, fc.array(fc.oneof(part, damaged), { maxLength: 4 }));
const argumentLists = fc.array(argument, { maxLength: 3 });

type AnyFunction = (...values: unknown[]) => unknown;

const isClass = (value: AnyFunction) => /^class\b/.test(Function.prototype.toString.call(value));

/** What one call did wrong, or undefined when it returned or threw a ctxkit error. */
async function misbehaviour(target: AnyFunction, thisValue: unknown, values: unknown[]): Promise<string | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const result = target.apply(thisValue, values);
    if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function') {
      const hang = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`did not settle within ${SETTLE_MS} ms`)), SETTLE_MS);
      });
      await Promise.race([result, hang]);
    }
    return undefined;
  } catch (error) {
    if (ContextError.isInstance(error)) return undefined;
    return `${(error as Error | undefined)?.name}: ${(error as Error | undefined)?.message}`;
  } finally {
    clearTimeout(timer);
  }
}

interface Target {
  name: string;
  call: AnyFunction;
  thisValue: unknown;
}

/** The methods of an object (its own function-valued properties but `close`), as targets. */
function methodsOf(name: string, object: unknown): Target[] {
  if (typeof object !== 'object' || object === null) return [];
  return Object.entries(object).flatMap(([method, member]) =>
    typeof member === 'function' && method !== 'close'
      ? [{ name: `${name}.${method}`, call: member as AnyFunction, thisValue: object }]
      : [],
  );
}

/**
 * The entry's functions, the methods of the objects it exports (`referenceCounter`…), and the
 * methods of what its factories build.
 */
async function targetsOf(entry: string): Promise<Target[]> {
  const module = (await import(entry)) as Record<string, unknown>;
  const targets: Target[] = [];
  for (const [name, value] of Object.entries(module)) {
    const fullName = `${entry} ${name}`;
    if (typeof value !== 'function') {
      // A zod schema's methods are zod's, not ctxkit's.
      if (typeof value === 'object' && value !== null && '_zod' in value) continue;
      targets.push(...methodsOf(fullName, value));
      continue;
    }
    if (isClass(value as AnyFunction)) continue;
    targets.push({ name: fullName, call: value as AnyFunction, thisValue: undefined });
    if (!/^create/.test(name)) continue;
    let built: unknown;
    try {
      built = await (value as AnyFunction)(FACTORY_OPTIONS[fullName]?.());
    } catch {
      continue; // a factory that needs options it was not given: fuzzed above, its product is not
    }
    targets.push(...methodsOf(`${fullName}()`, built));
  }
  return targets;
}

describe('every exported function fails only with ctxkit errors', () => {
  for (const entry of ENTRIES) {
    it(`${entry}`, async () => {
      const problems: string[] = [];
      for (const [index, target] of (await targetsOf(entry)).entries()) {
        const samples = fc.sample(argumentLists, { numRuns: RUNS, seed: 21 + index });
        for (const values of samples) {
          const problem = await misbehaviour(target.call, target.thisValue, values);
          if (problem !== undefined) {
            problems.push(`${target.name}(${fc.stringify(values).slice(0, 160)}) → ${problem.slice(0, 160)}`);
            break; // one example per function is enough to read
          }
        }
      }
      expect(problems).toEqual([]);
    });
  }
});
