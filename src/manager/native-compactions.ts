import type { ContextConfig } from '../config/index.js';
import type { TokenCounter } from '../counting/token-counter.js';
import { CompactionError, ConfigError } from '../errors.js';
import { isNativeCompactionRefusal } from '../models/is-native-compaction-refusal.js';
import {
  type CompactionUsage,
  jsonBytes,
  type ModelTarget,
  NATIVE_PAYLOAD_LIMIT,
  type NativeCompaction,
} from '../native-compaction.js';
import { portableSummary } from '../pipeline/portable-summary.js';
import {
  nativeCompactionOf,
  nativeSummaryMessage,
  resolveNativeCompactions,
  withoutCompactionParts,
} from '../pipeline/resolve-native-compactions.js';
import { buildContextFromBranch } from '../session/build-context-from-branch.js';
import type { SessionStore } from '../session/session-store.js';
import type { CompactionEntry, SessionEntry } from '../session-entry.js';
import type { Anchor } from '../summarizing/anchors/anchor.js';
import { checkAnchors } from '../summarizing/anchors/check-anchors.js';
import { extractAnchors } from '../summarizing/anchors/extract-anchors.js';
import { pinAnchors } from '../summarizing/anchors/pin-anchors.js';
import { heuristicSummarizer } from '../summarizing/heuristic-summarizer.js';
import type { Summarizer } from '../summarizing/summarizer-types.js';
import type { AssistantMessage, Message, UserMessage } from '../types.js';
import { describeValue } from '../validation/describe-value.js';
import type { ContextEvent, NativeCompactionReport } from './events.js';
import { firstKeptEntry } from './persist-compaction.js';

/** What a call's options give native compaction (the manager's `CallOptions`, which names this module's strategy). */
interface CallOptions {
  signal?: AbortSignal;
  target?: ModelTarget;
}

/** Models whose native compaction ctxkit knows, by API (the `'auto'` strategy's default table). */
const KNOWN_MODELS: Record<string, RegExp> = {
  // compact_20260112 (beta compact-2026-01-12): Claude 4.6 models and later.
  'anthropic-messages': /^claude-(?:opus|sonnet|haiku)-(?:4-[6-9]|[5-9])/,
  // Responses compaction: GPT-5 models, the codex models and later.
  'openai-responses': /^(?:gpt-(?:5|[6-9])|codex-|gpt-5-codex)/,
};

/**
 * Whether ctxkit knows `target` to compact natively: Anthropic's Messages API for Claude 4.6 models
 * and later, OpenAI's Responses API for GPT-5 models and later. Other APIs (Chat Completions, the AI
 * SDK) never do. Used by `nativeCompaction('auto')`; pass `supports` to it to use your own table.
 *
 * @param target - The model of the call.
 * @returns `true` when native compaction is known to work there.
 *
 * @example
 * ```ts
 * supportsNativeCompaction({ provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-6' }); // true
 * ```
 */
export function supportsNativeCompaction(target: ModelTarget): boolean {
  const api = target?.api;
  const pattern = typeof api === 'string' && Object.hasOwn(KNOWN_MODELS, api) ? KNOWN_MODELS[api] : undefined;
  return pattern?.test(String(target.model)) === true;
}

/** The share of the token limit a provider's readable summary may add as ctxkit's pinned facts (as `compact` allows). */
const PINNED_SHARE = 0.25;
/** Without a token limit, the pinned facts' room in tokens. */
const PINNED_TOKENS_WITHOUT_LIMIT = 8_192;
/** Code points per token the pinned room is read as (the anchoring step's rule). */
const CHARS_PER_TOKEN = 4;

/** Anthropic's smallest `compact_20260112` trigger. */
const ANTHROPIC_MIN_TRIGGER = 50_000;

/**
 * Native compaction for {@link createContextManager}'s `compaction` option: the provider compacts on
 * its side where the call's API supports it (`'native'`), or where the call's model is known to
 * (`'auto'`, see {@link supportsNativeCompaction}); ctxkit keeps the payload and a portable summary,
 * and its own compaction stays armed as the fallback. Made by {@link nativeCompaction}: a host that
 * never imports it does not bundle this code.
 *
 * @example
 * ```ts
 * const strategy: NativeCompactionStrategy = nativeCompaction('auto');
 * ```
 */
export interface NativeCompactionStrategy {
  /** `'native'`: wherever the call's API compacts natively; `'auto'`: where `supports(target)` says so. */
  readonly mode: 'native' | 'auto';
  /** Which models compact natively under `'auto'`. */
  readonly supports: (target: ModelTarget) => boolean;
  /** Starts the manager's native compactions. @internal */
  readonly start: (parts: NativeCompactionParts) => NativeCompactions;
}

/**
 * Turns on provider-native compaction for a manager: pass the result as `compaction`. With it the
 * manager takes in a compaction the provider returned, sends its payload only to the provider, API
 * and model that made it, writes the portable summary when another model needs it, and recovers
 * once when a provider refuses a payload. Pass `target` on each call, and hand
 * {@link ContextManager.nativeCompaction}'s threshold to the adapter's request options.
 *
 * @param mode - `'native'` (every call to an API that compacts natively) or `'auto'` (only models
 *   `supports` knows to compact). @default 'native'
 * @param options - `supports`: which models compact natively under `'auto'`
 *   (@default {@link supportsNativeCompaction}).
 * @returns The strategy to pass as `createContextManager`'s `compaction` option.
 *
 * @example
 * ```ts
 * const manager = createContextManager({ model: 'claude-sonnet-4-6', summarizer, compaction: nativeCompaction('auto') });
 * ```
 */
export function nativeCompaction(
  mode: 'native' | 'auto' = 'native',
  options: { supports?: (target: ModelTarget) => boolean } = {},
): NativeCompactionStrategy {
  if (mode !== 'native' && mode !== 'auto') {
    throw new ConfigError({
      message: `nativeCompaction: mode must be 'native' or 'auto', received ${describeValue(mode)}.`,
      field: 'mode',
    });
  }
  const supports = options?.supports ?? supportsNativeCompaction;
  if (typeof supports !== 'function') {
    throw new ConfigError({
      message: 'nativeCompaction: options.supports must be a function (target) => boolean, or left out.',
      field: 'supports',
    });
  }
  return { mode, supports, start: (parts) => new NativeCompactions(mode, supports, parts) };
}

/** What {@link NativeCompactions} needs from the manager. @internal */
export interface NativeCompactionParts {
  config: ContextConfig;
  counter: TokenCounter;
  summarizer: Summarizer;
  store: SessionStore | undefined;
  sessionId: string | undefined;
  limit: number | undefined;
  emit: (event: ContextEvent) => void;
  now: () => number;
  /** ctxkit's estimate of a list's tokens. */
  tokensOf: (messages: readonly Message[]) => number;
  /** Adds what a provider's compaction step cost to the manager's spend. */
  spend: (usage: CompactionUsage) => void;
}

interface Adoption {
  /** The summary message that stands for the compaction. */
  summary: UserMessage;
  /** The assistant turn without its compaction part (undefined when nothing else was in it). */
  rest: AssistantMessage | undefined;
}

/**
 * The manager's native compactions: takes in a compaction the provider returned (the history then
 * starts with its summary message), sends its payload only to its maker, writes the portable summary
 * when another model needs it, and splices that summary in when a provider refuses the payload.
 *
 * @internal
 */
export class NativeCompactions {
  /** Per assistant message that carried a compaction: what the history holds in its place. */
  private readonly adoptions = new WeakMap<Message, Adoption>();
  /** Per summary message: the messages its compaction replaced (to write the portable summary from). */
  private readonly replaced = new WeakMap<Message, readonly Message[]>();
  /** Per summary message: the assistant turn that carried its compaction. */
  private readonly carrierOf = new WeakMap<Message, Message>();
  /** Per summary message: its report. */
  private readonly reportOf = new WeakMap<Message, NativeCompactionReport>();
  private readonly pending: Promise<void>[] = [];
  readonly reports: NativeCompactionReport[] = [];

  constructor(
    private readonly mode: 'native' | 'auto',
    private readonly supports: (target: ModelTarget) => boolean,
    private readonly parts: NativeCompactionParts,
  ) {}

  /** Whether a call to `target` should ask for native compaction. */
  wants(target: ModelTarget | undefined): boolean {
    if (target === undefined) return false;
    if (target.api !== 'anthropic-messages' && target.api !== 'openai-responses') return false;
    return this.mode === 'native' || this.supports(target);
  }

  /**
   * The token count at which the provider should compact: a tenth below ctxkit's own trigger (so the
   * server acts first and ctxkit's compaction stays the fallback), at least Anthropic's minimum of
   * 50,000 for Anthropic. `undefined` when native compaction is off for `target` or there is no limit.
   */
  threshold(target: ModelTarget | undefined): number | undefined {
    const { limit } = this.parts;
    if (!this.wants(target) || limit === undefined) return undefined;
    const below = Math.floor(limit * 0.9);
    return target!.api === 'anthropic-messages' ? Math.max(ANTHROPIC_MIN_TRIGGER, below) : Math.max(1, below);
  }

  /**
   * Stage 0 of a call: when the newest native compaction in `input` is not taken in yet, the history
   * from it on (its summary message, then the turn that carried it and what follows). Scans from the
   * end and stops at a summary message already in place; `undefined` when there is nothing new.
   */
  intake(input: readonly Message[], from = 0): Message[] | undefined {
    for (let index = input.length - 1; index >= from; index--) {
      const message = input[index]!;
      // A summary in place (native or ctxkit's): what precedes it is replaced already.
      if (message.meta?.kind === 'compaction_summary') return undefined;
      if (message.role !== 'assistant') continue;
      const adoption = this.adoptions.get(message) ?? this.adopt(input, index);
      if (adoption === undefined) continue;
      const tail = input.slice(index + 1);
      return adoption.rest === undefined ? [adoption.summary, ...tail] : [adoption.summary, adoption.rest, ...tail];
    }
    return undefined;
  }

  private adopt(input: readonly Message[], index: number): Adoption | undefined {
    const message = input[index] as AssistantMessage;
    const carried = nativeCompactionOf(message);
    if (carried === undefined) return undefined;
    // The items that go before the payload (OpenAI's standalone endpoint) are sent with it: counted with it.
    const bytes = jsonBytes(carried.payload) + (carried.leading === undefined ? 0 : jsonBytes(carried.leading));
    const fits = bytes <= NATIVE_PAYLOAD_LIMIT;
    const older = input.slice(0, index);
    // A readable summary gets ctxkit's pinned facts of the span it replaced beside it.
    const pinned = this.pinFacts(carried, older);
    // Past the limit the payload is not kept: its portable summary goes to every model.
    const { leading: _, ...withoutLeading } = pinned.native;
    const found: NativeCompaction = fits
      ? pinned.native
      : { ...withoutLeading, payload: { type: 'compaction' }, omitted: bytes };
    const content = message.content.filter((part) => !isCompactionPart(part));
    const rest = content.length > 0 ? { ...message, content } : undefined;
    // The turn that carried it is the one message kept from before: its usage measured the old context.
    const summary = withKept(
      nativeSummaryMessage(found, pinned.anchors ? { anchors: pinned.anchors } : {}),
      rest === undefined ? 0 : 1,
    );
    const report: NativeCompactionReport = {
      provider: found.provider,
      api: found.api,
      model: found.model,
      at: this.parts.now(),
      tokensBefore: this.parts.tokensOf(input.slice(0, index + 1)),
      usage: found.usage,
      summary: found.summary,
      state: fits ? 'native' : 'portable',
      summarizerCalls: 0,
    };
    const adoption: Adoption = { summary, rest };
    this.adoptions.set(message, adoption);
    this.carrierOf.set(summary, message);
    this.replaced.set(summary, older);
    this.reportOf.set(summary, report);
    this.reports.push(report);
    if (found.usage !== undefined) this.parts.spend(found.usage);
    this.pending.push(
      this.record(summary, {
        history: input,
        firstKeptIndex: index,
        native: found,
        report,
        anchors: pinned.anchors,
      }).then((storeError) =>
        this.parts.emit({
          type: 'native-compaction',
          action: 'adopted',
          compaction: report,
          ...(storeError === undefined ? {} : { storeError }),
        }),
      ),
    );
    return adoption;
  }

  /**
   * A provider's readable summary (Anthropic's `content`) with the facts of the span it replaced
   * that it lost pinned after it (`## Pinned Facts`, as ctxkit's own checkpoints carry them): the
   * anchors of the replaced messages, an earlier checkpoint's included, so a fact survives however
   * the provider wrote its summary and however often the session moves. The pinned section takes at
   * most a quarter of the token limit beyond the provider's text (lowest-priority facts go first),
   * and the anchors kept are those the text now holds, so neither grows without bound. An opaque
   * item is left alone: its portable summary is written from the same span by `compact`, which
   * pins the same way.
   */
  private pinFacts(
    native: NativeCompaction,
    older: readonly Message[],
  ): { native: NativeCompaction; anchors?: Anchor[] } {
    if (native.summary === undefined) return { native };
    const visible = older.filter((message) => message.meta?.agentVisible !== false);
    if (visible.length === 0) return { native };
    try {
      const anchors = extractAnchors(visible);
      if (anchors.length === 0) return { native };
      const { limit } = this.parts;
      const room =
        (limit === undefined ? PINNED_TOKENS_WITHOUT_LIMIT : Math.floor(limit * PINNED_SHARE)) * CHARS_PER_TOKEN;
      // The provider's text is never cut: only what it lost is pinned, within the room.
      const { kept, lost } = checkAnchors(native.summary, anchors);
      if (lost.length === 0) return { native, anchors: kept };
      const pinned = pinAnchors('', lost, { maxChars: room });
      if (pinned.text.trim() === '') return { native, anchors: kept };
      const summary = `${native.summary.trimEnd()}\n\n${pinned.text}`;
      return { native: { ...native, summary }, anchors: [...kept, ...pinned.pinned] };
    } catch {
      // Facts are a help, not a condition: the provider's summary stands as it came.
      return { native };
    }
  }

  /**
   * The last stage of a call: waits for the store, then resolves what is sent for the call's model:
   * the payload to its maker, the portable summary to any other (written now when it is missing,
   * the history then holding the summarized message). `replace` gives the manager the new history
   * and returns what it sends then.
   */
  async finish(
    messages: Message[],
    history: readonly Message[],
    callOptions: CallOptions,
    replace: (history: Message[]) => Message[],
  ): Promise<Message[]> {
    await this.settle();
    const target = callOptions.target;
    let resolved = resolveNativeCompactions(messages, target ? { target } : {});
    if (resolved.unsummarized.length === 0) return resolved.messages;
    const next = await this.summarizeAll(history, callOptions);
    resolved = resolveNativeCompactions(replace(next), target ? { target } : {});
    return resolved.messages;
  }

  /** Waits for the store writes of earlier adoptions. */
  async settle(): Promise<void> {
    while (this.pending.length > 0) await this.pending.shift();
  }

  /** Whether a native summary in `history` lacks its portable summary (an opaque item's, written lazily). */
  lacksPortable(history: readonly Message[]): boolean {
    return history.some((message) => message.meta?.native !== undefined && message.meta.native.summary === undefined);
  }

  /** The history with every native summary that lacks a portable summary given one (one summarizer call each). */
  async summarizeAll(history: readonly Message[], callOptions: CallOptions): Promise<Message[]> {
    const next: Message[] = [];
    for (const message of history) {
      const native = message.meta?.native;
      next.push(
        native !== undefined && native.summary === undefined ? await this.summarize(message, callOptions) : message,
      );
    }
    return next;
  }

  /** Whether `error` is a provider's refusal of a payload that `history` may still send. */
  refused(error: unknown, history: readonly Message[]): boolean {
    return isNativeCompactionRefusal(error) && history.some((message) => message.meta?.native !== undefined);
  }

  /**
   * A provider refused a payload: the history with every native payload dropped, the portable
   * summaries written where missing and recorded in the store, so no later request sends one again.
   */
  async refuse(history: readonly Message[], callOptions: CallOptions, refusal: unknown): Promise<Message[]> {
    await this.settle();
    const summarized = await this.summarizeAll(history, callOptions);
    const portable: Message[] = [];
    for (const message of summarized) {
      const native = message.meta?.native;
      if (native === undefined) {
        const stripped = withoutCompactionParts(message);
        if (stripped !== undefined) portable.push(stripped);
        continue;
      }
      const { native: _, ...meta } = message.meta!;
      const next: Message = { ...message, meta } as Message;
      this.succeed(message, next);
      const report = this.reportOf.get(message);
      const storeError = await this.rerecord(message, undefined, 'native-refused', message.meta?.anchors);
      if (report) {
        report.state = 'portable';
        this.reportOf.set(next, report);
        this.parts.emit({
          type: 'native-compaction',
          action: 'refused',
          compaction: report,
          error: refusal,
          ...(storeError === undefined ? {} : { storeError }),
        });
      }
      portable.push(next);
    }
    return portable;
  }

  /** `next` takes the place of the summary message `previous`, also for a host that passes the carrying turn again. */
  private succeed(previous: Message, next: Message): void {
    this.replaced.set(next, this.replaced.get(previous) ?? []);
    const carrier = this.carrierOf.get(previous);
    if (carrier === undefined) return;
    this.carrierOf.set(next, carrier);
    const adoption = this.adoptions.get(carrier);
    if (adoption !== undefined) this.adoptions.set(carrier, { ...adoption, summary: next as UserMessage });
  }

  /** Writes the portable summary of one native summary message from the messages it replaced. */
  private async summarize(message: Message, callOptions: CallOptions): Promise<Message> {
    const native = message.meta!.native!;
    const report = this.reportOf.get(message);
    const older = this.replaced.get(message) ?? (await this.olderFromStore(native));
    const span = await this.withEarlierSummary(older, callOptions);
    const visible = span.filter((candidate) => candidate.meta?.agentVisible !== false);
    let text: string;
    let anchors: Anchor[] | undefined;
    let error: unknown;
    try {
      if (visible.length === 0) {
        throw new CompactionError({
          message: `The ${native.provider} compaction replaced messages this manager does not hold and the store cannot give back; pass a store and sessionId so its portable summary can be written.`,
          code: 'NOTHING_TO_COMPACT',
        });
      }
      const result = await this.compactAll(visible, this.parts.summarizer, callOptions);
      text = result.summary;
      anchors = result.anchors.length > 0 ? result.anchors : undefined;
    } catch (failure) {
      error = failure;
      // The conversation must go on: a heuristic checkpoint of what is held, or a note when nothing is.
      const note = `(${native.provider} compacted the earlier conversation; it could not be summarized for this model.)`;
      text =
        visible.length > 0
          ? await this.compactAll(visible, heuristicSummarizer, callOptions).then(
              (result) => result.summary,
              () => note,
            )
          : note;
    }
    const summarized: NativeCompaction = { ...native, summary: text };
    const next = withKept(
      nativeSummaryMessage(summarized, anchors ? { anchors } : {}),
      message.meta?.keptMessages ?? 0,
    );
    this.succeed(message, next);
    this.replaced.set(next, older);
    if (report) {
      report.summary = text;
      report.summarizerCalls++;
      this.reportOf.set(next, report);
    }
    const storeError = await this.rerecord(message, summarized, 'native-summarized', anchors);
    if (report) {
      this.parts.emit({
        type: 'native-compaction',
        action: 'summarized',
        compaction: report,
        ...(error === undefined ? {} : { error }),
        ...(storeError === undefined ? {} : { storeError }),
      });
    }
    return next;
  }

  /**
   * A replaced span whose first message is an earlier opaque native summary (OpenAI compacted twice
   * without the session leaving it), with that summary written, in memory only, from its own span
   * (and so on back): the portable summary then holds what the earlier item stood for, not a note
   * that it exists. Not recorded: the store's latest compaction is the newer one. The span as it
   * was when the earlier one cannot be summarized.
   */
  private async withEarlierSummary(span: readonly Message[], callOptions: CallOptions): Promise<readonly Message[]> {
    const index = span.findIndex((candidate) => candidate.meta?.native && candidate.meta.native.summary === undefined);
    if (index < 0) return span;
    const head = span[index]!;
    const native = head.meta!.native!;
    const earlier = await this.withEarlierSummary(
      this.replaced.get(head) ?? (await this.olderFromStore(native)),
      callOptions,
    );
    const visible = earlier.filter((candidate) => candidate.meta?.agentVisible !== false);
    if (visible.length === 0) return span;
    try {
      const result = await this.compactAll(visible, this.parts.summarizer, callOptions);
      const written = withKept(
        nativeSummaryMessage(
          { ...native, summary: result.summary },
          result.anchors.length > 0 ? { anchors: result.anchors } : {},
        ),
        head.meta?.keptMessages ?? 0,
      );
      return span.map((candidate, at) => (at === index ? written : candidate));
    } catch {
      return span;
    }
  }

  /** The portable summary of a whole span (its last message included). */
  private compactAll(messages: readonly Message[], summarizer: Summarizer, callOptions: CallOptions) {
    return portableSummary(messages, {
      summarizer,
      config: this.parts.config,
      counter: this.parts.counter,
      signal: callOptions.signal,
    });
  }

  /** The messages a stored native compaction replaced, read back from the session's branch. */
  private async olderFromStore(native: NativeCompaction): Promise<Message[]> {
    const { store, sessionId } = this.parts;
    if (store === undefined || sessionId === undefined) return [];
    try {
      const branch = await store.getBranch(sessionId);
      const entry = latestEntryOf(branch, native);
      if (entry === undefined) return [];
      const first = branch.findIndex((candidate) => candidate.id === entry.firstKeptEntryId);
      if (first <= 0) return [];
      return buildContextFromBranch(branch.slice(0, first), { leafId: branch[first - 1]!.id }).messages;
    } catch {
      return [];
    }
  }

  /** Appends the compaction entry of an adoption; returns the store's error instead of throwing. */
  private async record(
    summary: Message,
    adoption: {
      history: readonly Message[];
      firstKeptIndex: number;
      native: NativeCompaction;
      report: NativeCompactionReport;
      anchors: Anchor[] | undefined;
    },
  ): Promise<unknown> {
    const { store, sessionId } = this.parts;
    if (store === undefined || sessionId === undefined) return undefined;
    try {
      const branch = await store.getBranch(sessionId);
      const firstKeptEntryId = firstKeptEntry(branch, adoption.history.slice(adoption.firstKeptIndex));
      if (firstKeptEntryId === undefined) {
        throw new CompactionError({
          message:
            'The turn that carried the native compaction is not in the session, so the compaction could not be recorded. Append every message to the store before preparing.',
          code: 'NOTHING_TO_COMPACT',
        });
      }
      const native = adoption.native;
      await store.appendEntry(sessionId, {
        type: 'compaction',
        summary: native.summary ?? '',
        firstKeptEntryId,
        tokensBefore: adoption.report.tokensBefore,
        details: {
          reason: 'native',
          provider: adoption.report.provider,
          model: adoption.report.model,
          ...(adoption.anchors && adoption.anchors.length > 0 ? { anchors: adoption.anchors } : {}),
        },
        native,
      });
      this.entryOf.set(summary, firstKeptEntryId);
      return undefined;
    } catch (error) {
      return error;
    }
  }

  /** Per summary message: the first kept entry of its compaction in the store. */
  private readonly entryOf = new WeakMap<Message, string>();

  /** Appends a compaction entry that supersedes the one of `message`: the same kept range, a new summary or no payload. */
  private async rerecord(
    message: Message,
    native: NativeCompaction | undefined,
    reason: string,
    anchors: readonly Anchor[] | undefined,
  ): Promise<unknown> {
    const { store, sessionId } = this.parts;
    if (store === undefined || sessionId === undefined) return undefined;
    try {
      const old = message.meta!.native!;
      const branch = await store.getBranch(sessionId);
      const entry = latestEntryOf(branch, old);
      if (entry === undefined) return undefined;
      const summary = native?.summary ?? old.summary ?? '';
      await store.appendEntry(sessionId, {
        type: 'compaction',
        summary,
        firstKeptEntryId: entry.firstKeptEntryId,
        tokensBefore: entry.tokensBefore,
        details: {
          reason,
          provider: old.provider,
          model: old.model,
          ...(anchors && anchors.length > 0 ? { anchors } : {}),
        },
        ...(native === undefined ? {} : { native }),
      });
      return undefined;
    } catch (error) {
      return error;
    }
  }
}

function isCompactionPart(part: AssistantMessage['content'][number]): boolean {
  return nativeCompactionOf({ role: 'assistant', content: [part] }) !== undefined;
}

function withKept(message: UserMessage, kept: number): UserMessage {
  return kept > 0 ? { ...message, meta: { ...message.meta, keptMessages: kept } } : message;
}

/** The newest compaction entry on a branch that holds `native`'s payload. */
function latestEntryOf(branch: readonly SessionEntry[], native: NativeCompaction): CompactionEntry | undefined {
  const key = JSON.stringify(native.payload);
  for (let index = branch.length - 1; index >= 0; index--) {
    const entry = branch[index]!;
    if (entry.type !== 'compaction') continue;
    if (entry.native !== undefined && JSON.stringify(entry.native.payload) === key) return entry;
  }
  return undefined;
}
