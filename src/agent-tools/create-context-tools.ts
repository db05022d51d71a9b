import * as z from 'zod/v4';
import type { ContextManager } from '../manager/context-manager-types.js';
import type { SpillStore } from '../pipeline/spill-store.js';
import type { SessionStore } from '../session/session-store.js';
import type { Message } from '../types.js';
import { parseOptions } from '../validation/parse-options.js';
import { describeIssues } from '../validation/zod-issues.js';
import { zodOption as option } from '../validation/zod-option.js';
import { contextStatus, contextStatusInputSchema, contextStatusToolDefinition } from './context-status.js';
import { assertManager } from './internal/assert-manager.js';
import { recall, recallInputSchema, recallToolDefinition } from './recall.js';
import type { ContextToolDefinition } from './tool-definition.js';

/**
 * Options of {@link createContextTools}.
 *
 * @example
 * ```ts
 * const options: CreateContextToolsOptions = { store, sessionId: session.id, maxRecallCharacters: 6000 };
 * ```
 */
export interface CreateContextToolsOptions {
  /** The store the manager records in: `recall` also reads this session's branch (never another's). */
  store?: SessionStore;
  /** The session in `store`; needed with `store`. */
  sessionId?: string;
  /** Characters of one page `recall` returns, at most the manager's `toolOutput.maxChars`. @default 8000 */
  maxRecallCharacters?: number;
  /**
   * The spill store the manager cuts outputs into: `recall` reads a spilled output back through
   * its `read` (only files whose path and SHA-256 a notice of this session names).
   * @default none: a cut output is recalled as it was cut
   */
  spillStore?: SpillStore;
  /**
   * Opt-in: `remind(history)` returns one message, once, when the context reaches this fraction
   * of the compaction point (a number in (0, 1], or `true` for 0.85). Nothing is injected on its own.
   * @default off
   */
  reminder?: boolean | number;
}

/** `meta.kind` of the reminder message: a history that holds one gets no second. */
const REMINDER_KIND = 'context_reminder';

/**
 * A tool call the host got from the model: the tool's name and its arguments (an object, or the
 * JSON string some providers send).
 *
 * @example
 * ```ts
 * const call: ContextToolCall = { name: 'recall', arguments: '{"id":"call_17"}' };
 * ```
 */
export interface ContextToolCall {
  name: string;
  arguments: unknown;
}

/**
 * What a ctxkit tool answers: the text of the tool result, and whether it reports an error.
 *
 * @example
 * ```ts
 * const message = { role: 'toolResult', toolCallId: id, toolName: name, content: [{ type: 'text', text: result.content }], isError: result.isError };
 * ```
 */
export interface ContextToolResult {
  content: string;
  isError: boolean;
}

/**
 * The tools {@link createContextTools} makes: their definitions and one handler for their calls.
 *
 * @example
 * ```ts
 * const tools: ContextTools = createContextTools(manager);
 * ```
 */
export interface ContextTools {
  /** `context_status` and `recall`, to hand to the model beside the host's own tools. */
  readonly definitions: readonly ContextToolDefinition[];
  /** Whether `name` is one of these tools (so the host passes its calls to `handle`). */
  handles(name: string): boolean;
  /**
   * Answers one call of these tools against `history`, the history the manager returned last.
   * Never throws: bad arguments and a failing store come back as `isError` results the model can
   * read. A call of another tool resolves to `undefined`.
   */
  handle(call: ContextToolCall, history: readonly Message[]): Promise<ContextToolResult | undefined>;
  /**
   * The opt-in one-shot reminder (option `reminder`): a user message holding the
   * `context_status` line, returned once when the context of `history` first reaches the
   * threshold; `undefined` before, after, and without the option. Append it at the end of the
   * history (after the prompt cache's prefix, which it therefore leaves intact) and keep it there:
   * it stays the same bytes on later calls, and a history that holds it (after a reload too)
   * never gets a second.
   */
  remind(history: readonly Message[]): Message | undefined;
}

const optionsSchema = z
  .object({
    store: z
      .custom<SessionStore>(
        (value) =>
          typeof value === 'object' &&
          value !== null &&
          typeof (value as { getBranch?: unknown }).getBranch === 'function',
        'must be a SessionStore (with getBranch): the store the manager records in',
      )
      .optional(),
    sessionId: z.string({ error: 'must be the id of the session in store' }).min(1).optional(),
    maxRecallCharacters: option.count().min(100, 'must be a whole number ≥ 100').default(8000),
    reminder: z
      .union([z.boolean(), z.number().gt(0).max(1)], {
        error: 'must be true, false or a fraction of the compaction point in (0, 1]',
      })
      .default(false),
    spillStore: z
      .custom<SpillStore>(
        (value) =>
          typeof value === 'object' && value !== null && typeof (value as { save?: unknown }).save === 'function',
        'must be a SpillStore (with save, and read to recall from it): the one the manager spills into',
      )
      .optional(),
  })
  .refine((value) => (value.store === undefined) === (value.sessionId === undefined), {
    message: 'store and sessionId go together: pass both (recall reads that session) or neither',
    path: ['sessionId'],
  });

/** The arguments of a call as an object: a JSON string is parsed. */
function readArguments(value: unknown): { ok: true; value: unknown } | { ok: false } {
  if (typeof value !== 'string') return { ok: true, value: value ?? {} };
  if (value.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(value) };
  } catch {
    return { ok: false };
  }
}

function invalidCall(name: string, error: z.ZodError): string {
  return `invalid ${name} call: ${describeIssues(error, '', Number.POSITIVE_INFINITY)}`;
}

/**
 * Makes ctxkit's tools for the model, bound to a manager: `context_status` (no parameters; one
 * line: tokens used of the window, where compaction fires, how many results are archived) and
 * `recall` (an archived tool result by its tool call id, paged; or a search of the archived
 * results). Hand `definitions` to the model with the host's tools; for each tool call whose name
 * `handles`, send back what `handle` returns as that call's tool result. Nothing is injected into
 * the conversation on its own.
 *
 * @param manager - The manager that prepares this session's requests.
 * @param options - The session store to search too, and the page size of `recall`.
 * @returns The definitions and the handler.
 * @throws ConfigError when an option is malformed, or only one of `store` and `sessionId` is given.
 *
 * @example
 * ```ts
 * import { createContextTools } from 'ctxkit/agent-tools';
 *
 * const contextTools = createContextTools(manager);
 * const tools = [...myTools, ...contextTools.definitions];
 * // for each tool call in the model's reply:
 * if (contextTools.handles(call.name)) {
 *   const result = await contextTools.handle(call, history);
 * }
 * ```
 */
export function createContextTools(manager: ContextManager, options?: CreateContextToolsOptions): ContextTools {
  assertManager(manager, 'createContextTools');
  const { store, sessionId, maxRecallCharacters, spillStore, reminder } = parseOptions(
    'createContextTools',
    optionsSchema,
    options ?? {},
  );
  // A page never exceeds what the manager keeps of one tool output.
  const pageSize = Math.min(maxRecallCharacters, manager.config.toolOutput.maxChars);
  const names = new Set<string>([contextStatusToolDefinition.name, recallToolDefinition.name]);
  const remindAt = reminder === true ? 0.85 : reminder === false ? undefined : reminder;
  let reminded = false;
  return {
    remind(history) {
      if (remindAt === undefined || reminded || !Array.isArray(history)) return undefined;
      if (history.some((message) => message?.meta?.kind === REMINDER_KIND)) {
        reminded = true;
        return undefined;
      }
      const { usage } = manager.stats(history);
      if (usage.limit === undefined || usage.tokens < usage.limit * remindAt) return undefined;
      reminded = true;
      return {
        role: 'user',
        content: `[Reminder: compaction is near. ${contextStatus(manager, history)}]`,
        meta: { kind: REMINDER_KIND, userVisible: false },
      };
    },
    definitions: Object.freeze([contextStatusToolDefinition, recallToolDefinition]),
    handles: (name) => names.has(name),
    async handle(call, history) {
      if (!names.has(call?.name)) return undefined;
      const args = readArguments(call.arguments);
      if (!args.ok)
        return {
          content: `invalid ${call.name} call: the arguments are not valid JSON; send an object`,
          isError: true,
        };
      if (call.name === contextStatusToolDefinition.name) {
        const parsed = contextStatusInputSchema.safeParse(args.value);
        if (!parsed.success) return { content: invalidCall(call.name, parsed.error), isError: true };
        return { content: contextStatus(manager, history), isError: false };
      }
      const parsed = recallInputSchema.safeParse(args.value);
      if (!parsed.success) return { content: invalidCall(call.name, parsed.error), isError: true };
      try {
        const content = await recall(parsed.data, { history, store, sessionId, spillStore, maxCharacters: pageSize });
        return { content, isError: false };
      } catch {
        return { content: 'recall failed: the session store could not be read; try again later', isError: true };
      }
    },
  };
}
