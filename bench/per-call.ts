/**
 * Per-call cost of the manager with the default settings: the first call on a long history, then
 * the steady state of an agent loop (one new user message, or one tool step: a call and its
 * result) at 1k, 14k, 100k and 200k messages, with unique and reused tool-call ids, beside
 * LangChain `trimMessages` and beside counting the whole history with the same counter.
 */
import type { BaseMessage } from '@langchain/core/messages';
import { type ContextManager, type Message, referenceCounter, sumMessageTokens } from '../src/index.js';
import {
  freshCopies,
  type IdMode,
  modelFacingCharacters,
  RealisticMix,
  realisticHistory,
  uniformHistory,
} from './histories.js';
import { SystemMessage, toLangChain, toLangChainMessage, trimWithLangChain } from './langchain-anchor.js';
import { countingSummarizer, defaultManager, SYSTEM_PROMPT } from './managers.js';
import { type Samples, sample, summarize } from './measure.js';

export const SIZES = [1_000, 14_000, 100_000, 200_000] as const;
/** LangChain runs where it finishes in reasonable time; trimming is quadratic in what it drops. */
export const LANGCHAIN_SIZES = [1_000, 14_000];
/** The limit LangChain trims to: a 128k-token model less the 16,384-token reserve, as ctxkit computes it. */
export const LANGCHAIN_LIMIT = 128_000 - 16_384;

export interface PerCallRow {
  mix: 'realistic' | 'uniform';
  ids: IdMode;
  size: number;
  characters: number;
  first: Samples;
  count: Samples;
  newMessage: Samples;
  toolStep: Samples;
  /** Summarizer calls over the tool steps measured. */
  toolSteps: number;
  summarizerCalls: number;
  appendMessage?: Samples | undefined;
  appendToolStep?: Samples | undefined;
  countNewMessage?: Samples | undefined;
  /** One new message, the host pushing it onto the `history` it received and passing that back. */
  pushOntoHistory?: Samples | undefined;
  /** Tool steps, the host pushing each onto the `history` it received (the mean and the slowest include archived batches). */
  pushToolStepOntoHistory?: Samples | undefined;
  /** The calls among {@link appendToolStep} that archived a batch. */
  appendArchive?: Samples | undefined;
  /** The calls among {@link pushToolStepOntoHistory} that archived a batch. */
  pushArchive?: Samples | undefined;
  /** One new message, the host passing `[...history, message]` (ctxkit's share: the copy is not timed). */
  copyOfHistory?: Samples | undefined;
  skipped?: string;
}

export interface LangChainRow {
  size: number;
  trimNewMessage: Samples;
  trimToolStep: Samples;
  noTrimNewMessage: Samples;
}

/** The realistic steps appended during the steady state (deterministic, independent of the history's own generator). */
function stepSource(ids: IdMode) {
  const mix = new RealisticMix(ids, 99);
  return { user: () => mix.userMessage(), tool: () => mix.toolStep() };
}

function uniformSteps(ids: IdMode) {
  let turn = 0;
  return {
    user: (): Message => ({ role: 'user', content: `turn ${turn++}: please continue with the next test.` }),
    tool: (): Message[] => {
      const id = ids === 'reused' ? 'call_0' : `step_${turn++}`;
      return [
        { role: 'assistant', content: [{ type: 'toolCall', id, name: 'bash', arguments: { command: 'npm test' } }] },
        {
          role: 'toolResult',
          toolCallId: id,
          toolName: 'bash',
          content: [{ type: 'text', text: '12 passed, 1 failed' }],
        },
      ];
    },
  };
}

/** Rounds of the warm-up: V8 optimizes a function after it ran enough times, not after one call. */
const WARM_UP_ROUNDS = 8;

/**
 * Runs the code measured before any measurement, {@link WARM_UP_ROUNDS} times on a small history
 * of each mix and id mode (a count, a first call, then a few new messages and tool steps), so the
 * first rows do not pay for compiling it: one round left the first row measured (realistic,
 * unique ids) three to ten times slower than the same row measured again.
 */
export async function warmUp(): Promise<void> {
  for (let round = 0; round < WARM_UP_ROUNDS; round++) {
    for (const ids of ['unique', 'reused'] as const) {
      for (const mix of ['realistic', 'uniform'] as const) {
        const history = mix === 'realistic' ? realisticHistory(2_000, ids, 7).history : uniformHistory(2_000, ids);
        const steps = mix === 'realistic' ? stepSource(ids) : uniformSteps(ids);
        sumMessageTokens(freshCopies(history), referenceCounter);
        const manager: AppendAware = defaultManager(referenceCounter);
        await manager.prepare(freshCopies(history));
        const host = [...history];
        for (let step = 0; step < 5; step++) {
          host.push(steps.user(), ...steps.tool());
          await manager.prepare(host);
        }
        for (let step = 0; step < 5; step++) await manager.append?.([steps.user(), ...steps.tool()]);
      }
    }
  }
}

/** An optional append-aware entry point of the manager (measured when the manager has one). */
type AppendAware = ContextManager & { append?: (messages: readonly Message[]) => Promise<unknown> };

export async function measurePerCall(options: {
  mix: 'realistic' | 'uniform';
  ids: IdMode;
  size: number;
  newMessages: number;
  toolSteps: number;
  budgetMs: number;
}): Promise<PerCallRow> {
  const { mix, ids, size } = options;
  const history = mix === 'realistic' ? realisticHistory(size, ids).history : uniformHistory(size, ids);
  const steps = mix === 'realistic' ? stepSource(ids) : uniformSteps(ids);
  const characters = modelFacingCharacters(history);
  const counter = referenceCounter;
  // More runs at 1k, where a run takes milliseconds: a server starts a manager per session, so
  // the first call a user pays for most often is one whose code V8 has already optimized.
  const repeats = size <= 1_000 ? 41 : size <= 14_000 ? 5 : 3;
  // A collection before each timed run, so neither side pays for the garbage of the other's run.
  const collect = (globalThis as { gc?: () => void }).gc ?? (() => {});

  // The first call against counting every message once with the same counter, both on objects never seen.
  const firstTimes: number[] = [];
  const countTimes: number[] = [];
  let manager: AppendAware = defaultManager(counter);
  let summarizer = countingSummarizer();
  for (let repeat = 0; repeat < repeats; repeat++) {
    const copies = freshCopies(history);
    collect();
    let start = cpuMs();
    sumMessageTokens(copies, counter);
    countTimes.push(cpuMs() - start);
    const input = repeat === repeats - 1 ? history : freshCopies(history);
    summarizer = countingSummarizer();
    manager = defaultManager(counter, summarizer);
    collect();
    start = cpuMs();
    await manager.prepare(input);
    firstTimes.push(cpuMs() - start);
  }

  // The steady state: the host keeps its own array, pushes what is new, and prepares again.
  const host = [...history];
  const newMessage = await sample(options.newMessages, () => manager.prepare(host), {
    before: () => host.push(steps.user()),
    budgetMs: options.budgetMs,
  });
  const callsBefore = totalCalls(summarizer);
  const toolStep = await sample(options.toolSteps, () => manager.prepare(host), {
    before: () => host.push(...steps.tool()),
    budgetMs: options.budgetMs,
  });
  const summarizerCalls = totalCalls(summarizer) - callsBefore;

  // Counting the new message alone, the floor of any per-call cost.
  const countNewMessage = await sample(options.newMessages, () => sumMessageTokens(pending, counter), {
    before: () => {
      pending = [steps.user()];
    },
  });

  let appendMessage: Samples | undefined;
  let appendToolStep: Samples | undefined;
  let appendArchive: Samples | undefined;
  let kept: Message[] = host;
  const keep = (prepared: unknown) => {
    kept = (prepared as { history: Message[] }).history;
  };
  if (typeof manager.append === 'function') {
    const append = manager.append.bind(manager);
    let next: Message[] = [];
    appendMessage = await sample(options.newMessages, () => append(next), {
      before: () => {
        next = [steps.user()];
      },
      budgetMs: options.budgetMs,
    });
    appendToolStep = await sample(options.toolSteps, () => append(next).then(keep), {
      before: () => {
        next = steps.tool();
      },
      budgetMs: options.budgetMs,
    });
    appendArchive = await archivingCalls(
      () => {
        next = steps.tool();
      },
      () => append(next).then(keep),
      () => totalCalls(summarizer),
    );
  }

  // The other ways a host keeps its history: the `history` the manager returned, pushed onto, or a
  // copy of it with the new message (README's loop). The host's own array (above) lags behind the
  // appended messages, so these go on from the history the last append returned.
  const pushOntoHistory = await sample(options.newMessages, () => manager.prepare(kept).then(keep), {
    before: () => kept.push(steps.user()),
    budgetMs: options.budgetMs,
  });
  // Tool steps pushed onto the returned history: the mean and the slowest include the calls that archive a batch.
  const pushToolStepOntoHistory = await sample(options.toolSteps, () => manager.prepare(kept).then(keep), {
    before: () => kept.push(...steps.tool()),
    budgetMs: options.budgetMs,
  });
  const pushArchive = await archivingCalls(
    () => kept.push(...steps.tool()),
    () => manager.prepare(kept).then(keep),
    () => totalCalls(summarizer),
  );
  let copy: Message[] = [];
  const copyOfHistory = await sample(options.newMessages, () => manager.prepare(copy).then(keep), {
    before: () => {
      copy = [...kept, steps.user()];
    },
    budgetMs: options.budgetMs,
  });
  return {
    mix,
    ids,
    size,
    characters,
    first: summarize(firstTimes),
    count: summarize(countTimes),
    newMessage,
    toolStep,
    toolSteps: toolStep.count,
    summarizerCalls,
    appendMessage,
    appendToolStep,
    countNewMessage,
    pushOntoHistory,
    pushToolStepOntoHistory,
    appendArchive,
    pushArchive,
    copyOfHistory,
  };
}

let pending: Message[] = [];

/**
 * CPU time of the process in milliseconds (user and system, collector threads included): the
 * first call and the count it is compared with are timed so, as wall time on a shared machine
 * swings with the other work.
 */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1_000;
}

/** Calls that archive a batch, measured apart from the others. */
const ARCHIVES = 5;

/**
 * Tool steps until {@link ARCHIVES} calls archived a batch (at most 600 steps), timing those calls:
 * among the 45 tool steps of a row they are one or two, and a garbage collection that lands on
 * one of them weighs as much as the archive.
 */
async function archivingCalls(
  before: () => unknown,
  step: () => Promise<unknown>,
  archived: () => number,
): Promise<Samples | undefined> {
  const times: number[] = [];
  for (let steps = 0; steps < 600 && times.length < ARCHIVES; steps++) {
    before();
    const calls = archived();
    const start = performance.now();
    await step();
    const time = performance.now() - start;
    if (archived() > calls) times.push(time);
  }
  return times.length > 0 ? summarize(times) : undefined;
}

function totalCalls(summarizer: { calls: Record<string, number> }): number {
  return Object.values(summarizer.calls).reduce((sum, calls) => sum + calls, 0);
}

/** LangChain `trimMessages` per call on the same steps: trimming to a 128k model's limit, and with nothing to trim. */
export async function measureLangChain(size: number, samples: number): Promise<LangChainRow> {
  const { history } = realisticHistory(size, 'unique');
  const steps = stepSource('unique');
  const system = new SystemMessage(SYSTEM_PROMPT);
  const host: BaseMessage[] = toLangChain(history);
  const trimNewMessage = await sample(samples, () => trimWithLangChain(system, host, LANGCHAIN_LIMIT), {
    before: () => host.push(toLangChainMessage(steps.user())),
    minimum: 1,
    budgetMs: 2_000,
  });
  // One trimming call at 14k takes seconds: the tool step is measured where it is quick.
  const trimToolStep =
    size <= 1_000
      ? await sample(samples, () => trimWithLangChain(system, host, LANGCHAIN_LIMIT), {
          before: () => host.push(...steps.tool().map(toLangChainMessage)),
          minimum: 1,
          budgetMs: 2_000,
        })
      : summarize([]);
  const noTrimNewMessage = await sample(
    Math.max(3, samples),
    () => trimWithLangChain(system, host, Number.MAX_SAFE_INTEGER),
    { before: () => host.push(toLangChainMessage(steps.user())) },
  );
  return { size, trimNewMessage, trimToolStep, noTrimNewMessage };
}
