/**
 * The conformance suite every `SessionStore` passes: the built-in stores run it, and so can a
 * host's own store, with the host's test runner.
 */
import fc from 'fast-check';
import { LeafConflictError, SessionError, StoreError } from '../errors.js';
import { recallIdOf } from '../messages/recall-id.js';
import { buildContextFromBranch } from '../session/build-context-from-branch.js';
import { searchToolResultsByScanning } from '../session/search-tool-results.js';
import type { SessionStore, ToolResultHit, ToolResultSearch } from '../session/session-store.js';
import type { SessionEntry, SessionEntryInput } from '../session-entry.js';
import type { Message } from '../types.js';
import { assertObjectArgument, invalidArgument } from '../validation/assert-argument.js';
import { applyOperations, contextBranchOperations } from './context-branch-operations.js';
import { deepEqual } from './deep-differences.js';
import { toolCallMessage, toolResultMessage, userMessage } from './message-builders.js';
import { sessionTreeArbitrary } from './session-tree-arbitrary.js';

/**
 * One store under test with what the suite needs around it.
 *
 * @example
 * ```ts
 * const directory = await mkdtemp(join(tmpdir(), 'sessions-'));
 * const harness: SessionStoreHarness = {
 *   store: createJsonlStore({ directory }),
 *   reopen: () => createJsonlStore({ directory }),
 *   cleanup: () => rm(directory, { recursive: true }),
 * };
 * ```
 */
export interface SessionStoreHarness {
  /** A fresh, empty store. */
  store: SessionStore;
  /**
   * Opens a second store on the same data, for durable stores: the suite then checks that what
   * was written reads back the same. @default none: the suite reads the first store again
   */
  reopen?: () => SessionStore | Promise<SessionStore>;
  /** Runs after the test, once the stores are closed (remove a directory, drop a schema). @default nothing */
  cleanup?: () => void | Promise<void>;
}

/**
 * The assertions the suite makes: the subset of the Jest / Vitest `expect` API it uses.
 *
 * @example
 * ```ts
 * const assertion: ConformanceAssertion = expect(await store.getLeaf(sessionId));
 * ```
 */
export interface ConformanceAssertion {
  /** Passes when the value is `expected` itself (`Object.is`). */
  toBe(expected: unknown): void;
  /** Passes when the value deeply equals `expected` (asymmetric matchers allowed). */
  toEqual(expected: unknown): void;
  /** Passes when the value has at least `expected`'s fields, recursively. */
  toMatchObject(expected: object): void;
  /** Passes when the array or string holds `expected`. */
  toContain(expected: unknown): void;
  /** Passes when the array holds an item deeply equal to `expected`. */
  toContainEqual(expected: unknown): void;
  /** Passes when the value's `length` is `length`. */
  toHaveLength(length: number): void;
  /** Passes when the value is not `undefined`. */
  toBeDefined(): void;
  /** Passes when the value is `undefined`. */
  toBeUndefined(): void;
  /** Passes when the value is `null`. */
  toBeNull(): void;
  /** Passes when the string matches `pattern`. */
  toMatch(pattern: RegExp): void;
  /** The same assertions, negated. */
  not: ConformanceAssertion;
}

/**
 * The test runner the suite registers its tests with: Vitest's or Jest's `describe`, `it`,
 * `afterEach` and `expect` fit as they are. ctxkit depends on no runner; the host passes its own.
 *
 * @example
 * ```ts
 * import { afterEach, describe, expect, it } from 'vitest';
 * const runner: ConformanceRunner = { afterEach, describe, expect, it };
 * ```
 */
export interface ConformanceRunner {
  /** Groups the suite's tests under one title. */
  describe(name: string, body: () => void): void;
  /** Registers one async test; `timeout` is the test's time limit in milliseconds (Vitest's and Jest's third argument). */
  it(name: string, body: () => Promise<void>, timeout?: number): void;
  /** Registers what runs after each test (the suite closes and cleans up its stores there). */
  afterEach(body: () => Promise<void>): void;
  /** Starts an assertion on a value; the message names what is checked. */
  expect: {
    (actual: unknown, message?: string): ConformanceAssertion;
    /** A matcher for a string that contains `text` (inside `toEqual`). */
    stringContaining(text: string): unknown;
  };
}

/**
 * Options of {@link describeSessionStoreConformance}.
 *
 * @example
 * ```ts
 * const options: DescribeSessionStoreConformanceOptions = {
 *   name: 'Redis store',
 *   create: () => createRedisSessionStore({ redis, prefix: `test-${randomUUID()}:` }),
 *   runner: { afterEach, describe, expect, it },
 * };
 * ```
 */
export interface DescribeSessionStoreConformanceOptions {
  /** The store's name, used in the test titles. */
  name: string;
  /**
   * Makes a fresh, empty store for one test: the store itself, or a {@link SessionStoreHarness}
   * when it can be reopened on the same data or needs cleaning up. Called once per test.
   */
  create: () => SessionStore | SessionStoreHarness | Promise<SessionStore | SessionStoreHarness>;
  /** The test runner's `describe`, `it`, `afterEach` and `expect`. */
  runner: ConformanceRunner;
  /** Runs after each test, once its stores are closed. @default nothing */
  cleanup?: (store: SessionStore) => void | Promise<void>;
  /**
   * Each test's time limit in milliseconds, passed to the runner's `it`. The suite's property
   * tests and its thousand appends take seconds over a store that rewrites a session per append,
   * more than a runner's default (Vitest's and Jest's 5 s). @default 60000
   */
  timeout?: number;
}

const user = (text: string): Message => userMessage(text);
const say = (text: string): SessionEntryInput => ({ type: 'message', message: user(text) });

/** One entry of every type, with tool calls, images and thinking. */
function everyEntryType(): SessionEntryInput[] {
  return [
    { type: 'session_info', name: 'demo', data: { cwd: '/repo' } },
    { type: 'model_change', provider: 'openai', modelId: 'gpt-4o' },
    { type: 'thinking_level_change', thinkingLevel: 'high' },
    {
      type: 'message',
      message: {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', data: 'aGk=', mimeType: 'image/png' },
        ],
      },
    },
    {
      type: 'message',
      message: {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hmm', signature: 'sig' },
          { type: 'toolCall', id: 'call-1', name: 'read', arguments: { path: 'a.ts', nested: { deep: [1, 2] } } },
        ],
        usage: { input: 120, output: 30 },
        stopReason: 'toolUse',
        provider: 'openai',
        model: 'gpt-4o',
      },
    },
    {
      type: 'message',
      message: {
        role: 'toolResult',
        toolCallId: 'call-1',
        toolName: 'read',
        content: [{ type: 'text', text: 'x' }],
        isError: true,
      },
    },
    {
      type: 'custom_message',
      customType: 'reminder',
      content: 'remember the tests',
      display: false,
      details: { n: 1 },
    },
    { type: 'label', targetId: 'placeholder', label: 'checkpoint' },
    { type: 'custom', customType: 'state', data: { open: ['a.ts'] } },
    { type: 'branch_summary', fromId: 'placeholder', summary: 'tried a regex parser' },
    {
      type: 'compaction',
      summary: 'the story so far',
      firstKeptEntryId: 'placeholder',
      tokensBefore: 1234,
      details: { why: 'test' },
    },
  ];
}

async function expectSessionError(
  expect: ConformanceRunner['expect'],
  promise: Promise<unknown>,
  code: string,
): Promise<SessionError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(SessionError.isInstance(error), `expected a SessionError ${code}, got ${String(error)}`).toBe(true);
  expect((error as SessionError).code).toBe(code);
  return error as SessionError;
}

/** Appends every entry type, pointing references at real entries. */
async function appendEveryType(store: SessionStore, sessionId: string): Promise<SessionEntry[]> {
  const stored: SessionEntry[] = [];
  for (const input of everyEntryType()) {
    const first = stored[0]?.id ?? 'none';
    const fixed =
      input.type === 'label'
        ? { ...input, targetId: first }
        : input.type === 'branch_summary'
          ? { ...input, fromId: first }
          : input.type === 'compaction'
            ? { ...input, firstKeptEntryId: stored[3]!.id }
            : input;
    stored.push(await store.appendEntry(sessionId, fixed));
  }
  return stored;
}

/** What a host resumes from: the context's messages, their entries and the metadata. */
function resumable(entries: SessionEntry[], leafId?: string | null) {
  const context = buildContextFromBranch(entries, leafId === undefined ? {} : { leafId });
  const { messages, entryIds, model, provider, thinkingLevel, compaction } = context;
  return { messages, entryIds, model, provider, thinkingLevel, compaction, leafId: context.leafId };
}

/** Checks, for each leaf, that the context branch gives the context the whole path gives. */
async function expectSameContexts(
  expect: ConformanceRunner['expect'],
  store: SessionStore,
  sessionId: string,
  leaves: (string | null)[],
): Promise<void> {
  for (const leaf of leaves) {
    const whole = await store.getBranch(sessionId, leaf);
    const part = await store.getBranch(sessionId, leaf, { from: 'context' });
    expect(resumable(part), `context of leaf ${leaf}`).toEqual(resumable(whole));
    // A context branch is the whole path's tail, with at most the two metadata entries ahead.
    const head = [0, 1, 2].find((size) => {
      const tail = part.slice(size);
      return size <= part.length && deepEqual(tail, whole.slice(whole.length - tail.length));
    });
    expect(head, `context branch of leaf ${leaf}`).toBeDefined();
    for (const entry of part.slice(0, head)) expect(['model_change', 'thinking_level_change']).toContain(entry.type);
  }
}

/** An arbitrary tree's entries as appends (references the store would refuse become messages). */
function treeInputs(entries: SessionEntry[]): SessionEntryInput[] {
  const seen = new Set<string>();
  return entries.map((entry) => {
    const target = entry.type === 'label' ? entry.targetId : entry.type === 'branch_summary' ? entry.fromId : undefined;
    seen.add(entry.id);
    if (target === undefined || seen.has(target)) return entry;
    const { id, parentId, timestamp } = entry;
    return { id, parentId, timestamp, type: 'message', message: userMessage(`instead of ${entry.type}`) };
  });
}

/**
 * Registers the conformance suite of the `SessionStore` contract: sessions, appends and their
 * validation, leaf conflicts, branches, the transcript, context branches (with property tests
 * over random trees), a thousand appends, concurrent appends and, for a store that can be
 * reopened, durability. A store that passes it works with every session function and the manager.
 * It uses `fast-check`, an optional peer dependency of ctxkit that this entry needs.
 *
 * @param options - The store's name and factory, the test runner, a cleanup and each test's time limit.
 *
 * @example
 * ```ts
 * import { describeSessionStoreConformance } from 'ctxkit/testing';
 * import { afterEach, describe, expect, it } from 'vitest';
 * import { createRedisSessionStore } from '../src/redis-store.js';
 *
 * describeSessionStoreConformance({
 *   name: 'Redis store',
 *   create: () => createRedisSessionStore({ redis, prefix: `test-${crypto.randomUUID()}:` }),
 *   runner: { afterEach, describe, expect, it },
 * });
 * ```
 */
export function describeSessionStoreConformance(options: DescribeSessionStoreConformanceOptions): void {
  const where = 'describeSessionStoreConformance';
  assertObjectArgument(options, where, 'options', 'an object ({ name, create, runner })');
  if (typeof options.name !== 'string') throw invalidArgument(where, 'options.name', 'a string', options.name);
  if (typeof options.create !== 'function')
    throw invalidArgument(where, 'options.create', 'a function', options.create);
  assertObjectArgument(options.runner, where, 'options.runner', 'an object ({ describe, it, afterEach, expect })');
  const { name, create, runner, cleanup, timeout = 60_000 } = options;
  if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0)
    throw invalidArgument(where, 'options.timeout', 'a number of milliseconds greater than 0', timeout);
  const { describe, afterEach, expect } = runner;
  const it = (title: string, body: () => Promise<void>) => runner.it(title, body, timeout);
  const factory = async (): Promise<SessionStoreHarness> => {
    const made = await create();
    if (isHarness(made)) return made;
    return cleanup === undefined ? { store: made } : { store: made, cleanup: () => cleanup(made) };
  };
  describe(`${name}: SessionStore conformance`, () => {
    const harnesses: SessionStoreHarness[] = [];
    const open = async () => {
      const harness = await factory();
      harnesses.push(harness);
      return harness;
    };
    afterEach(async () => {
      for (const harness of harnesses.splice(0)) {
        await harness.store.close?.();
        await harness.cleanup?.();
      }
    });

    it('creates, gets and lists sessions', async () => {
      const { store } = await open();
      const first = await store.createSession({ id: 'first', name: 'First', metadata: { cwd: '/repo' } });
      const second = await store.createSession();
      expect(first).toMatchObject({ id: 'first', name: 'First', metadata: { cwd: '/repo' } });
      expect(typeof first.createdAt).toBe('number');
      expect(second.id).toMatch(/^[A-Za-z0-9]/);
      expect(await store.getSession('first')).toEqual(first);
      expect(await store.getSession('missing')).toBeUndefined();
      const listed = await store.listSessions();
      expect(listed.map((info) => info.id).sort()).toEqual(['first', second.id].sort());
      expect(await store.getLeaf('first')).toBeNull();
      expect(await store.getEntries('first')).toEqual([]);
      expect(await store.getBranch('first')).toEqual([]);
    });

    it('lists sessions oldest first (by createdAt, then id)', async () => {
      const { store } = await open();
      const made = [await store.createSession({ id: 'm' }), await store.createSession({ id: 'b' })];
      // A later clock tick for the last one, whose id sorts first: newest first or by id alone fails.
      const tick = Date.now();
      while (Date.now() <= tick) await new Promise((resolve) => setTimeout(resolve, 1));
      made.push(await store.createSession({ id: 'a' }));
      const oldestFirst = made
        .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1))
        .map((info) => info.id);
      expect(
        (await store.listSessions()).map((info) => info.id),
        'listSessions order',
      ).toEqual(oldestFirst);
    });

    it('rejects a taken or invalid session id', async () => {
      const { store } = await open();
      await store.createSession({ id: 'taken' });
      await expectSessionError(expect, store.createSession({ id: 'taken' }), 'INPUT_INVALID');
      const invalid = await expectSessionError(expect, store.createSession({ id: '../escape' }), 'INPUT_INVALID');
      expect(invalid.message).toContain('init.id');
    });

    it('rejects every call on an unknown session with SESSION_NOT_FOUND', async () => {
      const { store } = await open();
      await expectSessionError(expect, store.appendEntry('nope', say('hi')), 'SESSION_NOT_FOUND');
      await expectSessionError(expect, store.getEntries('nope'), 'SESSION_NOT_FOUND');
      await expectSessionError(expect, store.getBranch('nope'), 'SESSION_NOT_FOUND');
      await expectSessionError(expect, store.getLeaf('nope'), 'SESSION_NOT_FOUND');
      await expectSessionError(expect, store.setLeaf('nope', null), 'SESSION_NOT_FOUND');
      await expectSessionError(expect, store.getMessages('nope'), 'SESSION_NOT_FOUND');
      await expectSessionError(expect, store.getEntries('../../etc/passwd'), 'SESSION_NOT_FOUND');
    });

    it('fills id, timestamp and parentId, links to the leaf and keeps append order', async () => {
      const { store } = await open();
      const { id } = await store.createSession();
      const a = await store.appendEntry(id, say('a'));
      const b = await store.appendEntry(id, say('b'));
      const c = await store.appendEntry(id, { ...say('c'), id: 'given', timestamp: 42 });
      expect(a.parentId).toBeNull();
      expect(b.parentId).toBe(a.id);
      expect(c).toMatchObject({ id: 'given', parentId: b.id, timestamp: 42 });
      expect(a.id).not.toBe(b.id);
      expect(typeof a.timestamp).toBe('number');
      expect(await store.getLeaf(id)).toBe('given');
      expect(await store.getEntries(id)).toEqual([a, b, c]);
      expect(await store.getBranch(id)).toEqual([a, b, c]);
    });

    it('stores every entry type exactly as written', async () => {
      const { store } = await open();
      const { id } = await store.createSession();
      const stored = await appendEveryType(store, id);
      const inputs = everyEntryType();
      stored.forEach((entry, index) => {
        expect(entry).toMatchObject({ type: inputs[index]!.type });
      });
      expect(stored[4]).toMatchObject({ message: { content: [{}, { arguments: { nested: { deep: [1, 2] } } }] } });
      expect(await store.getEntries(id)).toEqual(stored);
    });

    it('does not change what it stored when the caller later changes its input', async () => {
      const { store } = await open();
      const { id } = await store.createSession();
      const input = {
        type: 'message' as const,
        message: { role: 'user' as const, content: [{ type: 'text' as const, text: 'before' }] },
      };
      await store.appendEntry(id, input);
      input.message.content[0]!.text = 'after';
      const [entry] = await store.getEntries(id);
      expect(entry).toMatchObject({ message: { content: [{ text: 'before' }] } });
    });

    it('rejects an invalid entry, naming the field, and stores nothing', async () => {
      const { store } = await open();
      const { id } = await store.createSession();
      const first = await store.appendEntry(id, say('ok'));
      const bad = { type: 'message', message: { role: 'user', content: 42 } } as unknown as SessionEntryInput;
      const error = await expectSessionError(expect, store.appendEntry(id, bad), 'INPUT_INVALID');
      expect(error.message).toContain('entry.message.content');
      const unknownType = { type: 'mystery' } as unknown as SessionEntryInput;
      expect((await expectSessionError(expect, store.appendEntry(id, unknownType), 'INPUT_INVALID')).message).toContain(
        'entry.type',
      );
      await expectSessionError(expect, store.appendEntry(id, { ...say('x'), parentId: 'ghost' }), 'PARENT_MISSING');
      await expectSessionError(expect, store.appendEntry(id, { ...say('x'), id: first.id }), 'INPUT_INVALID');
      expect(await store.getEntries(id)).toEqual([first]);
      expect(await store.getLeaf(id)).toBe(first.id);
    });

    it('rejects references that would leave the branch unbuildable', async () => {
      const { store } = await open();
      const { id } = await store.createSession();
      const root = await store.appendEntry(id, say('root'));
      const left = await store.appendEntry(id, say('left'));
      await store.setLeaf(id, root.id);
      const right = await store.appendEntry(id, say('right'));
      const compaction = { type: 'compaction', summary: 's', tokensBefore: 10 } as const;
      for (const firstKeptEntryId of ['ghost', left.id]) {
        const error = await expectSessionError(
          expect,
          store.appendEntry(id, { ...compaction, firstKeptEntryId }),
          'INPUT_INVALID',
        );
        expect(error.message).toContain('entry.firstKeptEntryId');
      }
      const branchSummary = { type: 'branch_summary', fromId: 'ghost', summary: 's' } as const;
      expect(
        (await expectSessionError(expect, store.appendEntry(id, branchSummary), 'INPUT_INVALID')).message,
      ).toContain('entry.fromId');
      const label = { type: 'label', targetId: 'ghost', label: 'x' } as const;
      expect((await expectSessionError(expect, store.appendEntry(id, label), 'INPUT_INVALID')).message).toContain(
        'entry.targetId',
      );
      expect(await store.getEntries(id)).toEqual([root, left, right]);
      // Keeping from the parent itself, or from an ancestor, is fine.
      await store.appendEntry(id, { ...compaction, firstKeptEntryId: right.id });
      await store.appendEntry(id, { ...compaction, firstKeptEntryId: root.id });
      expect(buildContextFromBranch(await store.getBranch(id)).messages).toHaveLength(3);
    });

    it('validates what it stores: the JSON form of the entry', async () => {
      const { store } = await open();
      const { id } = await store.createSession();
      const sneaky = { role: 'user', content: 'fine', toJSON: () => ({ role: 'user', text: 'not a message' }) };
      const error = await expectSessionError(
        expect,
        store.appendEntry(id, { type: 'message', message: sneaky as unknown as Message }),
        'INPUT_INVALID',
      );
      expect(error.message).toContain('entry.message');
      await expectSessionError(expect, store.appendEntry(id, { ...say('late'), timestamp: 1e16 }), 'INPUT_INVALID');
      expect(await store.getEntries(id)).toEqual([]);
    });

    it('refuses a write from a stale leaf with LEAF_CONFLICT and the current leaf, and stores nothing', async () => {
      const { store } = await open();
      const { id } = await store.createSession();
      const root = await store.appendEntry(id, say('root'), { expectedLeafId: null });
      const next = await store.appendEntry(id, say('next'), { expectedLeafId: root.id });
      const stale = await store.appendEntry(id, say('stale'), { expectedLeafId: root.id }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(LeafConflictError.isInstance(stale)).toBe(true);
      expect(StoreError.isInstance(stale) && stale.code).toBe('LEAF_CONFLICT');
      expect(stale).toMatchObject({ sessionId: id, expectedLeafId: root.id, currentLeafId: next.id });
      expect(await store.getEntries(id)).toEqual([root, next]);
      // An explicit branch is a choice, not a race: it is not checked unless asked.
      const side = await store.appendEntry(id, { ...say('side'), parentId: root.id });
      expect(side.parentId).toBe(root.id);
      const moved = await store.setLeaf(id, next.id, { expectedLeafId: next.id }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(LeafConflictError.isInstance(moved) && moved.currentLeafId).toBe(side.id);
      await store.setLeaf(id, next.id, { expectedLeafId: side.id });
      expect(await store.getLeaf(id)).toBe(next.id);
      const wrongType = store.appendEntry(id, say('x'), { expectedLeafId: 7 as unknown as string });
      expect((await expectSessionError(expect, wrongType, 'INPUT_INVALID')).message).toContain(
        'options.expectedLeafId',
      );
      expect(await store.getEntries(id)).toHaveLength(3);
    });

    it('branches: moves the leaf back, continues there and keeps both branches', async () => {
      const { store } = await open();
      const { id } = await store.createSession();
      const a = await store.appendEntry(id, say('a'));
      const b = await store.appendEntry(id, say('b'));
      const c = await store.appendEntry(id, say('c'));
      await store.setLeaf(id, a.id);
      expect(await store.getLeaf(id)).toBe(a.id);
      const d = await store.appendEntry(id, say('d'));
      expect(d.parentId).toBe(a.id);
      expect((await store.getBranch(id)).map((entry) => entry.id)).toEqual([a.id, d.id]);
      expect((await store.getBranch(id, c.id)).map((entry) => entry.id)).toEqual([a.id, b.id, c.id]);
      expect(await store.getBranch(id, null)).toEqual([]);
      expect((await store.getEntries(id)).map((entry) => entry.id)).toEqual([a.id, b.id, c.id, d.id]);
      await expectSessionError(expect, store.setLeaf(id, 'ghost'), 'ENTRY_NOT_FOUND');
      await expectSessionError(expect, store.getBranch(id, 'ghost'), 'ENTRY_NOT_FOUND');
      expect(await store.getLeaf(id)).toBe(d.id);
      await store.setLeaf(id, null);
      const root = await store.appendEntry(id, say('new root'));
      expect(root.parentId).toBeNull();
    });

    it('gives the flat transcript of every branch while the context holds one branch', async () => {
      const { store } = await open();
      const { id } = await store.createSession();
      const a = await store.appendEntry(id, say('a'));
      await store.appendEntry(id, say('b'));
      await store.appendEntry(id, { type: 'label', targetId: a.id, label: 'start' });
      await store.setLeaf(id, a.id);
      await store.appendEntry(id, { type: 'branch_summary', fromId: a.id, summary: 'b was a dead end' });
      await store.appendEntry(id, say('c'));
      const transcript = await store.getMessages(id);
      expect(transcript.map(({ message }) => message.content)).toEqual([
        'a',
        'b',
        expect.stringContaining('b was a dead end'),
        'c',
      ]);
      const entries = await store.getEntries(id);
      expect(transcript.map((item) => item.entryId)).toEqual(
        entries.filter((entry) => entry.type !== 'label').map((entry) => entry.id),
      );
      const context = buildContextFromBranch(await store.getBranch(id));
      expect(context.messages.map((message) => message.content)).toEqual([
        'a',
        expect.stringContaining('dead end'),
        'c',
      ]);
      expect(context.messages[0]).toEqual(transcript[0]!.message);
      // A store that hands back the same entry objects (as the contract allows) hands back their messages.
      if ((await store.getEntries(id))[0] === entries[0]) expect(context.messages[0]).toBe(transcript[0]!.message);
    });

    it('reads the context branch: only what the context needs, the same context as the whole path', async () => {
      const { store } = await open();
      const { id } = await store.createSession();
      const first = await store.appendEntry(id, { type: 'model_change', provider: 'openai', modelId: 'gpt-4o' });
      const low = await store.appendEntry(id, { type: 'thinking_level_change', thinkingLevel: 'low' });
      await store.appendEntry(id, say('old question'));
      const latestModel = await store.appendEntry(id, { type: 'model_change', provider: 'anthropic', modelId: 'opus' });
      const callEntry = await store.appendEntry(id, {
        type: 'message',
        message: toolCallMessage([
          { id: 'c1', name: 'run', arguments: {} },
          { id: 'c2', name: 'run', arguments: {} },
        ]),
      });
      await store.appendEntry(id, { type: 'message', message: toolResultMessage('c1', 'one') });
      const second = await store.appendEntry(id, { type: 'message', message: toolResultMessage('c2', 'two') });
      const thinking = await store.appendEntry(id, { type: 'thinking_level_change', thinkingLevel: 'high' });
      await store.appendEntry(id, say('after'));
      // A hand-made cut on a tool result keeps from the call it answers.
      const compaction = await store.appendEntry(id, {
        type: 'compaction',
        summary: 'the story so far',
        firstKeptEntryId: second.id,
        tokensBefore: 500,
      });
      const leaf = await store.appendEntry(id, say('new question'));
      const part = await store.getBranch(id, undefined, { from: 'context' });
      const whole = await store.getBranch(id);
      expect(part.map((entry) => entry.id)).toEqual([
        low.id,
        latestModel.id,
        ...whole.slice(4).map((entry) => entry.id),
      ]);
      expect(whole[4]).toEqual(callEntry);
      expect(part).not.toContainEqual(first);
      expect(part.at(-1)).toEqual(leaf);
      const context = resumable(part);
      expect(context).toEqual(resumable(await store.getBranch(id)));
      expect(context).toMatchObject({ model: 'opus', provider: 'anthropic', thinkingLevel: 'high', compaction });
      expect(context.entryIds[1]).toBe(callEntry.id);
      // Earlier leaves: no compaction on the path, the whole path.
      expect(await store.getBranch(id, thinking.id, { from: 'context' })).toEqual(
        await store.getBranch(id, thinking.id),
      );
      expect(await store.getBranch(id, null, { from: 'context' })).toEqual([]);
      expect(await store.getBranch(id, undefined, { from: 'root' })).toEqual(await store.getBranch(id));
      await expectSessionError(expect, store.getBranch(id, 'ghost', { from: 'context' }), 'ENTRY_NOT_FOUND');
      await expectSessionError(expect, store.getBranch(id, undefined, { from: 'leaf' } as never), 'INPUT_INVALID');
      await expectSessionError(expect, store.getBranch('nobody', undefined, { from: 'context' }), 'SESSION_NOT_FOUND');
    });

    it('reads the context branch of a long single-branch session compacted twice (and after reopening)', async () => {
      const harness = await open();
      const { store } = harness;
      const { id } = await store.createSession({ id: 'linear' });
      await store.appendEntry(id, { type: 'model_change', provider: 'openai', modelId: 'gpt-4o' });
      const written: SessionEntry[] = [];
      for (let index = 0; index < 60; index++) {
        if (index === 20) await store.appendEntry(id, { type: 'thinking_level_change', thinkingLevel: 'medium' });
        written.push(await store.appendEntry(id, say(`m${index}`)));
        if (index === 30 || index === 50) {
          const keep = written[index - 5]!.id;
          await store.appendEntry(id, {
            type: 'compaction',
            summary: `to ${index}`,
            firstKeptEntryId: keep,
            tokensBefore: 9,
          });
        }
      }
      const expected = resumable(await store.getBranch(id));
      const check = async (reader: SessionStore) => {
        const part = await reader.getBranch(id, undefined, { from: 'context' });
        expect(part.map((entry) => entry.type).slice(0, 3)).toEqual([
          'model_change',
          'thinking_level_change',
          'message',
        ]);
        expect(part[2]!.id).toBe(written[45]!.id);
        expect(part).toHaveLength(2 + 15 + 1);
        expect(resumable(part)).toEqual(expected);
        expect(resumable(part)).toMatchObject({ model: 'gpt-4o', thinkingLevel: 'medium' });
      };
      await check(store);
      if (harness.reopen !== undefined) {
        const reopened = await harness.reopen();
        harnesses.push({ store: reopened });
        await check(reopened);
      }
    });

    it('gives the same context from the context branch as from the whole path, on any tree (and after reopening)', async () => {
      const harness = await open();
      const { store } = harness;
      let run = 0;
      await fc.assert(
        fc.asyncProperty(sessionTreeArbitrary, async (entries) => {
          const sessionId = `tree-${run++}`;
          await store.createSession({ id: sessionId });
          for (const input of treeInputs(entries)) await store.appendEntry(sessionId, input);
          const leaves = [
            undefined,
            ...entries.filter((_, index) => index % 3 === 0).map((entry) => entry.id),
          ] as string[];
          await expectSameContexts(expect, store, sessionId, leaves);
          if (harness.reopen !== undefined) {
            const reopened = await harness.reopen();
            await expectSameContexts(expect, reopened, sessionId, leaves);
            await reopened.close?.();
          }
        }),
        { numRuns: 8 },
      );
    });

    it('gives the same context from the context branch for compactions that keep from any entry of their branch', async () => {
      const harness = await open();
      const { store } = harness;
      let run = 0;
      await fc.assert(
        fc.asyncProperty(contextBranchOperations, async (operations) => {
          const sessionId = `cut-${run++}`;
          await store.createSession({ id: sessionId });
          const ids = await applyOperations(store, sessionId, operations);
          const leaves = [undefined, ...ids.filter((_, index) => index % 2 === 0)] as string[];
          await expectSameContexts(expect, store, sessionId, leaves);
          if (harness.reopen !== undefined) {
            const reopened = await harness.reopen();
            await expectSameContexts(expect, reopened, sessionId, leaves);
            await reopened.close?.();
          }
        }),
        { numRuns: 12 },
      );
    });

    it('keeps a thousand appends in order', async () => {
      const { store } = await open();
      const { id } = await store.createSession();
      for (let index = 0; index < 1000; index++) await store.appendEntry(id, say(`m${index}`));
      const branch = await store.getBranch(id);
      expect(branch).toHaveLength(1000);
      expect(branch.map((entry) => (entry.type === 'message' ? entry.message.content : ''))).toEqual(
        Array.from({ length: 1000 }, (_, index) => `m${index}`),
      );
    });

    it('loses nothing under concurrent appends from one process, applying them in call order', async () => {
      const { store } = await open();
      const [one, two] = await Promise.all([store.createSession(), store.createSession()]);
      const calls = Array.from({ length: 200 }, (_, index) =>
        store.appendEntry(index % 2 ? one.id : two.id, say(`m${index}`)),
      );
      const results = await Promise.all(calls);
      expect(new Set(results.map((entry) => entry.id)).size).toBe(200);
      for (const session of [one, two]) {
        const entries = await store.getEntries(session.id);
        expect(entries).toHaveLength(100);
        entries.forEach((entry, index) => {
          expect(entry.parentId).toBe(index === 0 ? null : entries[index - 1]!.id);
        });
        expect(await store.getLeaf(session.id)).toBe(entries[99]!.id);
      }
    });

    it('finds tool results of the branch by tool call id, recall id and words (searchToolResults, or the scan without it)', async () => {
      const harness = await open();
      const search = (store: SessionStore, sessionId: string, request: ToolResultSearch): Promise<ToolResultHit[]> =>
        store.searchToolResults
          ? store.searchToolResults(sessionId, request)
          : searchToolResultsByScanning(store, sessionId, request);
      const { id } = await harness.store.createSession();
      const other = await harness.store.createSession();
      const step = async (sessionId: string, callId: string, output: string) => {
        await harness.store.appendEntry(sessionId, {
          type: 'message',
          message: toolCallMessage([{ id: callId, name: 'bash', arguments: { command: 'make' } }]),
        });
        return harness.store.appendEntry(sessionId, {
          type: 'message',
          message: toolResultMessage(callId, output, { toolName: 'bash' }),
        });
      };
      await step(other.id, 'call_other', 'artifact checksum of another session');
      await step(id, 'call_1', 'compiled 12 modules\nartifact checksum sha256-5f1c');
      const fork = await step(id, 'call_2', 'linking the binary');
      await step(id, 'call_3', 'the tests passed: checksum verified');
      await step(id, 'call_4', 'nothing relevant here');
      // A second branch from call_2: call_3 and call_4 are not on it.
      await harness.store.setLeaf(id, fork.id);
      await step(id, 'call_5', 'ARTIFACT uploaded to the registry');
      let store = harness.store;
      if (harness.reopen !== undefined) {
        await store.close?.();
        store = await harness.reopen();
        harnesses.push({ store });
      }
      const ids = (hits: ToolResultHit[]) => hits.map((hit) => hit.toolCallId);
      expect(ids(await search(store, id, { id: 'call_1' }))).toEqual(['call_1']);
      const [byRecall] = await search(store, id, { id: recallIdOf('call_1') });
      expect(byRecall?.toolCallId).toBe('call_1');
      expect(byRecall?.toolName).toBe('bash');
      expect(byRecall?.text).toBe('compiled 12 modules\nartifact checksum sha256-5f1c');
      // Only this branch: call_3 is on the other one; call_other in another session.
      expect(await search(store, id, { id: 'call_3' })).toEqual([]);
      expect(await search(store, id, { id: 'call_other' })).toEqual([]);
      expect(ids(await search(store, id, { id: 'call_3', leafId: fork.id }))).toEqual([]);
      const leafOfOther = (await store.getEntries(id)).find(
        (entry) =>
          entry.type === 'message' && entry.message.role === 'toolResult' && entry.message.toolCallId === 'call_4',
      )!;
      expect(ids(await search(store, id, { id: 'call_3', leafId: leafOfOther.id }))).toEqual(['call_3']);
      // Words, case-insensitively, any of them; best first: call_1 has both words.
      const found = ids(await search(store, id, { query: 'Artifact checksum' }));
      expect(found[0]).toBe('call_1');
      expect([...found].sort()).toEqual(['call_1', 'call_5']);
      expect(ids(await search(store, id, { query: 'artifact checksum', limit: 1 }))).toEqual(['call_1']);
      expect([...ids(await search(store, id, { query: 'checksum', leafId: leafOfOther.id }))].sort()).toEqual([
        'call_1',
        'call_3',
      ]);
      expect(await search(store, id, { query: 'absent-word' })).toEqual([]);
      await expectSessionError(expect, search(store, id, { id: 'a', query: 'b' }), 'INPUT_INVALID');
      await expectSessionError(expect, search(store, 'ghost', { query: 'b' }), 'SESSION_NOT_FOUND');
    });

    it('returns exactly what was written after reopening (durable stores; the same store otherwise)', async () => {
      const harness = await open();
      const { store } = harness;
      const info = await store.createSession({
        id: 'durable',
        name: 'Durable',
        parentSessionId: 'origin',
        metadata: { cwd: '/x' },
      });
      const other = await store.createSession({ id: 'other' });
      const stored = await appendEveryType(store, info.id);
      await store.setLeaf(info.id, stored[4]!.id);
      await store.appendEntry(other.id, say('elsewhere'));
      const before = {
        entries: await store.getEntries(info.id),
        messages: await store.getMessages(info.id),
        branch: await store.getBranch(info.id),
        leaf: await store.getLeaf(info.id),
        sessions: await store.listSessions(),
      };
      let reopened = store;
      if (harness.reopen !== undefined) {
        await store.close?.();
        reopened = await harness.reopen();
        harnesses.push({ store: reopened });
      }
      expect(await reopened.getSession(info.id)).toEqual(info);
      expect(await reopened.listSessions()).toEqual(before.sessions);
      expect(await reopened.getEntries(info.id)).toEqual(before.entries);
      expect(await reopened.getEntries(info.id)).toEqual(stored);
      expect(await reopened.getLeaf(info.id)).toBe(before.leaf);
      expect(await reopened.getBranch(info.id)).toEqual(before.branch);
      expect(await reopened.getMessages(info.id)).toEqual(before.messages);
      const next = await reopened.appendEntry(info.id, say('after reopen'));
      expect(next.parentId).toBe(stored[4]!.id);
    });
  });
}

function isHarness(value: SessionStore | SessionStoreHarness): value is SessionStoreHarness {
  return typeof (value as Partial<SessionStore>).appendEntry !== 'function' && 'store' in value;
}
