/**
 * `npm run bench:cost`: what a 300-call coding session costs under each context policy, with the
 * provider's prompt cache emulated (bench/prompt-cache.ts) and usage priced by ctxkit's own
 * `usageCost` / `addSpend`.
 *
 * Policies: no management until the window overflows; a pi-like compaction at window − reserve
 * (summary rebuilt each time); an opencode-like prune of old tool outputs every turn; clearing tool
 * uses on every request past a trigger; ctxkit's previous defaults; ctxkit's new defaults (the
 * cost-aware archive policy, compaction and tool-summary calls that reuse the conversation's cached
 * prefix, cache breakpoints that include the last stable message). Every policy summarizes with
 * ctxkit's heuristic summarizer (so retention compares policies, not models); each summary call is
 * billed as the model call an adapter would make. Facts kept: the retention bench's facts, checked
 * in the context the model would be sent after the last call. Writes the cost block of
 * docs/benchmarks.md and docs/images/cost.svg.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import {
  type AssistantMessage,
  addSpend,
  approximateCounter,
  type ContextManager,
  clearToolUses,
  compact,
  createContextManager,
  ctxkitMessageKind,
  emptySpend,
  estimateMessageTokens,
  getModelPricing,
  heuristicSummarizer,
  type Message,
  MODEL_PRICING_DATE,
  type ModelPricing,
  type SpendTally,
  type Summarizer,
  type Usage,
} from '../src/index.js';
import { normalizeForCheck } from '../src/summarizing/anchors/normalize.js';
import type { SummaryRequest } from '../src/summarizing/index.js';
import { createTokenizerCounter } from '../src/tokenizer/index.js';
import { type CostSession, costSession } from './cost-session.js';
import { blockKey, type CacheBlock, PromptCacheEmulator } from './prompt-cache.js';
import { table } from './report.js';
import { visibleText } from './visible-text.js';

/** Seeds to run: `COST_SEEDS=2` runs the first two while iterating; the published numbers are the mean of all 5. */
const SEEDS = [1, 2, 3, 4, 5].slice(0, Number(process.env.COST_SEEDS ?? 5));
const CALLS = 300;
const WINDOWS = [200_000, 64_000];
/** Room a request leaves for the reply: a request larger than window − this overflows. */
const REPLY_ROOM = 4_096;
/** Tokens a reply adds beyond its visible content (reasoning, the text of the answer). */
const HIDDEN_OUTPUT = 150;

const PROVIDERS: Array<{ name: string; model: string; pricing: ModelPricing }> = [
  { name: 'Anthropic Sonnet 4.5', model: 'claude-sonnet-4-5', pricing: getModelPricing('claude-sonnet-4-5')! },
  { name: 'OpenAI GPT-5', model: 'gpt-5', pricing: getModelPricing('gpt-5')! },
];

export const SYSTEM_PROMPT = [
  'You are a coding agent working in the user’s repository. Work in small, verifiable steps.',
  'Read the code before you change it; prefer the smallest change that fixes the problem.',
  'Run the tests after each change and read their output before you go on.',
  'Never invent file contents: read them with the read tool. Quote paths exactly.',
  'When a command fails, read the error, find its cause, and fix the cause rather than the symptom.',
  'Keep the user’s constraints: no new dependencies unless asked, no public API changes unless asked.',
  'Report what you changed, what you ran and what is left, briefly.',
].join('\n');

/** The agent's tool definitions, as a host sends them. */
export const TOOLS = [
  {
    name: 'read',
    description: 'Read a file, numbered lines, 2,000 lines or 50 KiB at most.',
    input_schema: {
      type: 'object',
      properties: { path: { type: 'string' }, offset: { type: 'integer' }, limit: { type: 'integer' } },
      required: ['path'],
    },
  },
  {
    name: 'bash',
    description: 'Run a shell command in the repository and return stdout and stderr.',
    input_schema: {
      type: 'object',
      properties: { command: { type: 'string' }, timeout: { type: 'integer' } },
      required: ['command'],
    },
  },
  {
    name: 'edit',
    description: 'Replace an exact string in a file.',
    input_schema: {
      type: 'object',
      properties: { path: { type: 'string' }, old_string: { type: 'string' }, new_string: { type: 'string' } },
      required: ['path', 'old_string', 'new_string'],
    },
  },
  {
    name: 'grep',
    description: 'Search files for a pattern; prints path:line:text.',
    input_schema: {
      type: 'object',
      properties: { pattern: { type: 'string' }, path: { type: 'string' } },
      required: ['pattern'],
    },
  },
];

const exact = createTokenizerCounter();
const exactTokens = new WeakMap<Message, CacheBlock>();
const TOOLS_BLOCK: CacheBlock = { key: blockKey(JSON.stringify(TOOLS)), tokens: exact.count(JSON.stringify(TOOLS)) };
const SYSTEM_BLOCK: CacheBlock = { key: blockKey(SYSTEM_PROMPT), tokens: exact.count(SYSTEM_PROMPT) };

/** A message as the provider sees it: what goes on the wire, and its tokens by the provider's count. */
function blockOf(message: Message): CacheBlock {
  let block = exactTokens.get(message);
  if (block === undefined) {
    const wire = JSON.stringify({
      role: message.role,
      content: message.content,
      ...(message.role === 'toolResult' ? { id: message.toolCallId, isError: message.isError ?? false } : {}),
    });
    block = { key: blockKey(wire), tokens: estimateMessageTokens(message, exact) + 4 };
    exactTokens.set(message, block);
  }
  return block;
}

/** Where the breakpoints go: `standard` is the system prompt and the last two messages (pi, opencode); `stable` adds the last message no archive changes. */
type Placement = 'standard' | 'stable';

/** Breakpoint indexes into [tools, system, ...messages]. */
function breakpoints(messages: readonly Message[], placement: Placement): number[] {
  const at = (index: number) => index + 2;
  const marks = [1];
  if (placement === 'stable') {
    // The last of ctxkit's messages that no batch changes again (an archived result, a summary, a digest).
    for (let index = messages.length - 3; index >= 0; index--) {
      // As toAnthropic's cacheBreakpoints chooses it.
      const kind = messages[index]!.meta?.kind;
      if (kind === 'tool_result_archived' || kind === 'compaction_summary' || kind === 'tool_summary') {
        marks.push(at(index));
        break;
      }
    }
  }
  if (messages.length >= 2) marks.push(at(messages.length - 2));
  if (messages.length >= 1) marks.push(at(messages.length - 1));
  return [...new Set(marks)].slice(-4);
}

/** The emulated provider: its cache, its bill, the tokens it was sent. */
class Provider {
  readonly cache: PromptCacheEmulator;
  spent: SpendTally;
  tokensSent = 0;
  summaryCalls = 0;

  constructor(
    readonly pricing: ModelPricing,
    readonly placement: Placement,
  ) {
    this.cache = new PromptCacheEmulator(pricing.cache);
    this.spent = emptySpend(true);
  }

  inputTokens(messages: readonly Message[]): number {
    let total = TOOLS_BLOCK.tokens + SYSTEM_BLOCK.tokens;
    for (const message of messages) total += blockOf(message).tokens;
    return total;
  }

  /** One request; `extra` is a final block after the messages (a summary instruction). */
  send(messages: readonly Message[], at: number, output: number, extra?: CacheBlock): Usage {
    const blocks = [TOOLS_BLOCK, SYSTEM_BLOCK, ...messages.map(blockOf), ...(extra ? [extra] : [])];
    const marks = this.pricing.cache.mode === 'breakpoints' ? breakpoints(messages, this.placement) : undefined;
    const usage = { ...this.cache.send({ blocks, at, ...(marks ? { breakpoints: marks } : {}) }), output };
    this.spent = addSpend(this.spent, usage, this.pricing);
    this.tokensSent += blocks.reduce((sum, block) => sum + block.tokens, 0);
    return usage;
  }

  /** A summary call of its own, rebuilt prompt: the summarizer's instructions, then the serialized conversation. */
  sendRebuilt(request: SummaryRequest, at: number, output: number): void {
    const text = `${request.previousSummary ?? ''}\n${request.text}`;
    const blocks = [SUMMARIZER_BLOCK, { key: blockKey(text), tokens: exact.count(text) }];
    const usage = { ...this.cache.send({ blocks, at, breakpoints: [] }), output };
    this.spent = addSpend(this.spent, usage, this.pricing);
    this.tokensSent += blocks[0]!.tokens + blocks[1]!.tokens;
  }
}

const SUMMARIZER_PROMPT =
  'You write the checkpoint of a coding session that another model will continue from. Keep the goal, the constraints, decisions, files read and changed, commands and their errors with locations, and the next steps. '.repeat(
    4,
  );
const SUMMARIZER_BLOCK: CacheBlock = { key: blockKey(SUMMARIZER_PROMPT), tokens: exact.count(SUMMARIZER_PROMPT) };

/**
 * The heuristic summarizer, billed as the model call an adapter would make: `rebuilt` sends its own
 * prompt with the serialized conversation; `aligned` sends the conversation as last sent (same
 * tools, system prompt and messages: the cached prefix) with the summary instruction after it.
 */
function billedSummarizer(provider: Provider, mode: 'rebuilt' | 'aligned', clock: () => number): Summarizer {
  return {
    async summarize(request) {
      const answer = await heuristicSummarizer.summarize(request);
      const text = typeof answer === 'string' ? answer : answer.text;
      const output = exact.count(text) + HIDDEN_OUTPUT;
      provider.summaryCalls++;
      // The manager passes the conversation as last sent (`request.conversation`).
      const conversation = request.conversation ?? [];
      if (mode === 'rebuilt' || conversation.length === 0) provider.sendRebuilt(request, clock(), output);
      else {
        const instruction = `Summarize the conversation above (${request.kind}) as a checkpoint.`;
        provider.send(conversation, clock(), output, {
          key: blockKey(instruction),
          tokens: exact.count(instruction) + 200,
        });
      }
      return answer;
    },
  };
}

/** One policy: what to send for the next call, and the history the host keeps. */
interface Policy {
  prepare(history: Message[]): Promise<{ send: Message[]; history: Message[] }>;
  recordUsage(usage: Usage): void;
  /** The provider refused the request as too long: compact (as the tools do on an overflow). */
  recover(history: Message[]): Promise<Message[]>;
}

const tokensOf = (messages: readonly Message[]) =>
  messages.reduce((sum, message) => sum + estimateMessageTokens(message, approximateCounter), 0) +
  approximateCounter.count(SYSTEM_PROMPT) +
  approximateCounter.count(JSON.stringify(TOOLS));

/** ctxkit's `compact` with the tail pi and opencode keep (20k tokens, tool results left as they are). */
function compactor(summarizer: Summarizer, window: number) {
  return async (history: Message[]): Promise<Message[]> => {
    const result = await compact(history, {
      summarizer,
      config: { contextWindow: window, keepRecentTokens: 20_000, toolCallCutoff: 100_000 },
      systemPrompt: SYSTEM_PROMPT,
      tools: TOOLS,
    });
    return result.messages;
  };
}

const PLACEHOLDER = '[Old tool result content cleared]';

/** opencode's prune: past the newest 40k tokens of tool output (and the last two user turns), clear older outputs when that frees 20k. */
function prune(history: Message[]): Message[] {
  let turns = 0;
  let seen = 0;
  const clear: number[] = [];
  let freed = 0;
  for (let index = history.length - 1; index >= 0; index--) {
    const message = history[index]!;
    if (message.role === 'user' && ctxkitMessageKind(message) === undefined) turns++;
    if (turns < 2 || message.role !== 'toolResult') continue;
    const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    if (text === PLACEHOLDER) break;
    const tokens = estimateMessageTokens(message, approximateCounter);
    seen += tokens;
    if (seen > 40_000) {
      clear.push(index);
      freed += tokens;
    }
  }
  if (freed < 20_000) return history;
  const next = [...history];
  for (const index of clear) {
    const message = next[index]!;
    if (message.role === 'toolResult') next[index] = { ...message, content: [{ type: 'text', text: PLACEHOLDER }] };
  }
  return next;
}

type PolicyName =
  | 'none'
  | 'pi-like'
  | 'opencode-like'
  | 'clear-tool-uses'
  | 'ctxkit previous'
  | 'ctxkit new'
  | 'ctxkit new, 20k tail';
const POLICIES: PolicyName[] = [
  'none',
  'pi-like',
  'opencode-like',
  'clear-tool-uses',
  'ctxkit previous',
  'ctxkit new',
  'ctxkit new, 20k tail',
];
const ALTERNATIVES: PolicyName[] = ['none', 'pi-like', 'opencode-like', 'clear-tool-uses'];

function makePolicy(name: PolicyName, window: number, provider: Provider, clock: () => number, model: string): Policy {
  const rebuilt = billedSummarizer(provider, 'rebuilt', clock);
  const recover = compactor(rebuilt, window);
  const limit = window - 16_384;
  switch (name) {
    case 'none':
      return { prepare: async (history) => ({ send: history, history }), recordUsage() {}, recover };
    case 'pi-like':
      return {
        async prepare(history) {
          const kept = tokensOf(history) > limit ? await recover(history) : history;
          return { send: kept, history: kept };
        },
        recordUsage() {},
        recover,
      };
    case 'opencode-like':
      return {
        async prepare(history) {
          let kept = history;
          if (history[history.length - 1]?.role === 'user') kept = prune(kept);
          if (tokensOf(kept) > limit) kept = await recover(kept);
          return { send: kept, history: kept };
        },
        recordUsage() {},
        recover,
      };
    case 'clear-tool-uses':
      return {
        async prepare(history) {
          const kept = tokensOf(history) > limit ? await recover(history) : history;
          const cleared = clearToolUses(kept, { trigger: Math.min(100_000, window / 2), keep: 3 });
          return { send: cleared.messages, history: kept };
        },
        recordUsage() {},
        recover,
      };
    case 'ctxkit previous':
    case 'ctxkit new':
    case 'ctxkit new, 20k tail': {
      const fresh = name !== 'ctxkit previous';
      const manager: ContextManager = createContextManager({
        summarizer: fresh ? billedSummarizer(provider, 'aligned', clock) : rebuilt,
        model,
        contextWindow: window,
        systemPrompt: SYSTEM_PROMPT,
        tools: TOOLS,
        now: clock,
        costAware: fresh,
        // The reference kept tail, selectable under the cost-aware policy.
        ...(name === 'ctxkit new, 20k tail' ? { config: { keepRecentTokens: 20_000 } } : {}),
      });
      return {
        async prepare(history) {
          const prepared = await manager.prepare(history);
          return { send: [...prepared.messages], history: prepared.history };
        },
        recordUsage: (usage) => manager.recordUsage(usage),
        async recover(history) {
          return (await manager.compact(history)).messages;
        },
      };
    }
  }
}

interface RunResult {
  dollars: number;
  split: SpendTally;
  cacheHitRate: number;
  tokensSent: number;
  summaryCalls: number;
  factsKept: number;
  overflows: number;
}

async function run(
  session: CostSession,
  name: PolicyName,
  window: number,
  provider: (typeof PROVIDERS)[number],
): Promise<RunResult> {
  const bill = new Provider(
    provider.pricing,
    name.startsWith('ctxkit new') && process.env.PLACEMENT !== 'standard' ? 'stable' : 'standard',
  );
  let now = Date.UTC(2026, 0, 5, 9);
  const clock = () => now;
  const policy = makePolicy(name, window, bill, clock, provider.model);
  let history: Message[] = [];
  let overflows = 0;
  for (const event of session.events) {
    if (event.type === 'user') {
      now += event.pauseMs;
      history = [...history, event.message];
      continue;
    }
    let prepared = await policy.prepare(history);
    if (bill.inputTokens(prepared.send) > window - REPLY_ROOM) {
      overflows++;
      history = await policy.recover(prepared.history);
      prepared = await policy.prepare(history);
    }
    history = prepared.history;
    const sent = prepared.send;
    const output = blockOf(event.reply).tokens + HIDDEN_OUTPUT;
    const usage = bill.send(sent, now, output);
    policy.recordUsage(usage);
    now += event.latencyMs;
    const reply: AssistantMessage = { ...event.reply, usage };
    history = [...history, reply, ...event.results];
    now += event.toolMs;
  }
  const final = (await policy.prepare(history)).send;
  const seen = visibleText([{ role: 'user', content: SYSTEM_PROMPT }, ...final]);
  const kept = session.facts.filter((fact) => fact.keys.every((key) => seen.includes(normalizeForCheck(key)))).length;
  return {
    dollars: bill.spent.dollars!.total,
    split: bill.spent,
    cacheHitRate: bill.spent.cacheHitRate,
    tokensSent: bill.tokensSent,
    summaryCalls: bill.summaryCalls,
    factsKept: kept / session.facts.length,
    overflows,
  };
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

interface Row {
  provider: string;
  window: number;
  policy: PolicyName;
  dollars: number;
  cacheReads: number;
  cacheWrites: number;
  uncached: number;
  output: number;
  cacheHitRate: number;
  tokensSent: number;
  summaryCalls: number;
  factsKept: number;
  overflows: number;
}

async function main() {
  const only = process.argv.slice(2);
  const sessions = SEEDS.map((seed) => costSession(seed, CALLS));
  const rows: Row[] = [];
  for (const provider of PROVIDERS) {
    for (const window of WINDOWS) {
      for (const policy of POLICIES) {
        if (only.length > 0 && !only.includes(policy)) continue;
        const results: RunResult[] = [];
        for (const session of sessions) results.push(await run(session, policy, window, provider));
        const dollars = (pick: (split: NonNullable<SpendTally['dollars']>) => number) =>
          mean(results.map((result) => pick(result.split.dollars!)));
        const row: Row = {
          provider: provider.name,
          window,
          policy,
          dollars: mean(results.map((result) => result.dollars)),
          cacheReads: dollars((split) => split.cacheRead),
          cacheWrites: dollars((split) => split.cacheWrite),
          uncached: dollars((split) => split.uncachedInput),
          output: dollars((split) => split.output),
          cacheHitRate: mean(results.map((result) => result.cacheHitRate)),
          tokensSent: mean(results.map((result) => result.tokensSent)),
          summaryCalls: mean(results.map((result) => result.summaryCalls)),
          factsKept: mean(results.map((result) => result.factsKept)),
          overflows: results.reduce((sum, result) => sum + result.overflows, 0),
        };
        rows.push(row);
        process.stderr.write(
          `${provider.name} ${window / 1000}k ${policy}: $${row.dollars.toFixed(2)} hit ${(row.cacheHitRate * 100).toFixed(0)}% sent ${(row.tokensSent / 1e6).toFixed(1)}M summaries ${row.summaryCalls.toFixed(1)} facts ${(row.factsKept * 100).toFixed(1)}% overflows ${row.overflows} (reads $${row.cacheReads.toFixed(2)} writes $${row.cacheWrites.toFixed(2)} uncached $${row.uncached.toFixed(2)} output $${row.output.toFixed(2)})\n`,
        );
      }
    }
  }
  if (only.length === 0) writeResults(rows);
}

const money = (value: number) => `$${value.toFixed(2)}`;

/** Whether the goal is met (30% cheaper with no fewer facts kept), and what misses it. */
function verdict(saved: number, kept: number, cheapestKept: number): string {
  const cheaper = saved >= 0.3;
  const retained = kept >= cheapestKept - 1e-9;
  if (cheaper && retained) return 'met';
  const facts = `${((cheapestKept - kept) * 100).toFixed(1)} points fewer facts kept`;
  if (cheaper) return `not met: ${facts}`;
  return retained ? 'not met: not 30% cheaper' : `not met: not 30% cheaper, and ${facts}`;
}
const share = (value: number) => `${Math.round(value * 100)}%`;

function writeResults(rows: readonly Row[]): void {
  const blocks: string[] = [];
  const verdicts: string[] = [];
  for (const provider of PROVIDERS) {
    for (const window of WINDOWS) {
      const group = rows.filter((row) => row.provider === provider.name && row.window === window);
      const alternatives = group.filter((row) => ALTERNATIVES.includes(row.policy));
      const cheapest = alternatives.reduce((best, row) => (row.dollars < best.dollars ? row : best));
      const fresh = group.find((row) => row.policy === 'ctxkit new')!;
      const saved = 1 - fresh.dollars / cheapest.dollars;
      const retained = alternatives.filter((row) => row.factsKept <= fresh.factsKept + 1e-9);
      const cheapestRetained = retained.length
        ? retained.reduce((best, row) => (row.dollars < best.dollars ? row : best))
        : undefined;
      verdicts.push(
        `- ${provider.name}, ${window / 1000}k: ctxkit's new defaults cost ${money(fresh.dollars)} with ${share(fresh.factsKept)} of the facts kept, ${Math.round(saved * 100)}% less than the cheapest alternative (${cheapest.policy}, ${money(cheapest.dollars)}, ${share(cheapest.factsKept)} kept)${cheapestRetained && cheapestRetained !== cheapest ? `; the cheapest that keeps no more facts is ${cheapestRetained.policy} (${money(cheapestRetained.dollars)})` : ''}: the 30% goal is ${verdict(saved, fresh.factsKept, cheapest.factsKept)}.`,
      );
      blocks.push(
        `#### ${provider.name}, ${window / 1000}k window\n\n${table(
          [
            'policy',
            '$ / session',
            'vs cheapest alternative',
            'uncached',
            'cache writes',
            'cache reads',
            'output',
            'cache hit rate',
            'tokens sent',
            'summary calls',
            'facts kept',
            'overflows',
          ],
          ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
          group.map((row) => [
            row.policy,
            money(row.dollars),
            `${row.dollars >= cheapest.dollars ? '+' : '−'}${Math.abs(Math.round((row.dollars / cheapest.dollars - 1) * 100))}%`,
            money(row.uncached),
            money(row.cacheWrites),
            money(row.cacheReads),
            money(row.output),
            share(row.cacheHitRate),
            `${(row.tokensSent / 1e6).toFixed(1)}M`,
            row.summaryCalls.toFixed(1),
            share(row.factsKept),
            String(row.overflows),
          ]),
        )}`,
      );
    }
  }
  const body = [
    START,
    '## What a session costs: `npm run bench:cost`',
    '',
    `Written by \`npm run bench:cost\` (\`bench/cost.ts\`). A scripted ${CALLS}-call coding session (\`bench/cost-session.ts\`: file reads`,
    'of pinned dependencies cut at 2,000 lines or 50 KiB, the real tool outputs of the tool corpus, the rounds of the',
    'retention bench, user pauses of which one in eight is longer than a cache lives) is run under each policy, the',
    "provider's prompt cache emulated (`bench/prompt-cache.ts`: longest alive prefix, minimum prefix, TTL renewed on",
    "read; Anthropic caches only at breakpoints, at most 4, looking back 20 blocks) and priced with ctxkit's",
    `\`usageCost\` at the built-in prices of ${MODEL_PRICING_DATE}. Mean of ${SEEDS.length} seeds. Every policy summarizes with`,
    "ctxkit's heuristic summarizer, each summary billed as the model call an adapter makes: a rebuilt prompt, or for",
    "ctxkit's new defaults the conversation's cached prefix with the instruction after it. Facts kept: the share of",
    "the facts the session stated (the retention bench's and the tool corpus's) still in what the model would be sent",
    'after the last call. Alternatives: `none` compacts only when the provider refuses an overflow; `pi-like` compacts',
    'at window − 16,384 keeping 20k tokens; `opencode-like` clears tool outputs older than the newest 40k tokens each',
    'turn (when that frees 20k) and compacts as pi does; `clear-tool-uses` clears all but the 3 newest tool results on',
    'every request past min(100k, window / 2), and compacts as pi does; `ctxkit previous` is the manager with',
    '`costAware: false` and a rebuilt summary prompt; `ctxkit new` the default manager (its kept tail and checkpoint',
    'chosen by the window: 4,000 and 7,142 tokens at 64k, 5,508 and 27,542 at 200k); `ctxkit new, 20k tail` sets the',
    'reference `keepRecentTokens: 20_000`. Anthropic breakpoints: the system prompt and the last two messages (ctxkit',
    'new: and the last archived result or summary).',
    '',
    '![Dollars per session by policy](images/cost.svg)',
    '',
    ...verdicts,
    '',
    blocks.join('\n\n'),
    END,
  ].join('\n');
  const path = new URL('../docs/benchmarks.md', import.meta.url);
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  const next =
    start >= 0 && end > start
      ? text.slice(0, start) + body + text.slice(end + END.length)
      : `${text.trimEnd()}\n\n${body}\n`;
  writeFileSync(path, next);
  writeFileSync(new URL('../docs/images/cost.svg', import.meta.url), chart(rows));
}

const START = '<!-- cost:start -->';
const END = '<!-- cost:end -->';
const COLOURS = ['#9e9e9e', '#8d6e63', '#ffb74d', '#ba68c8', '#64b5f6', '#1565c0', '#2e7d32'];

/** Dollars per session, a group of bars per provider and window. */
function chart(rows: readonly Row[]): string {
  const groups = PROVIDERS.flatMap((provider) => WINDOWS.map((window) => ({ provider, window })));
  const width = 880;
  const height = 360;
  const left = 56;
  const top = 20;
  const bottom = 90;
  const plot = height - top - bottom;
  const peak = Math.max(...rows.map((row) => row.dollars));
  const groupWidth = (width - left - 16) / groups.length;
  const bar = (groupWidth - 24) / POLICIES.length;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11" role="img" aria-label="Dollars per session by context policy">`,
    '<title>Dollars per 300-call session by context policy, provider and window (npm run bench:cost)</title>',
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
  ];
  for (let tick = 0; tick <= 4; tick++) {
    const value = (peak * tick) / 4;
    const y = top + plot - (plot * tick) / 4;
    parts.push(`<line x1="${left}" x2="${width - 16}" y1="${y}" y2="${y}" stroke="#eee"/>`);
    parts.push(`<text x="${left - 6}" y="${y + 4}" text-anchor="end">$${value.toFixed(value < 10 ? 1 : 0)}</text>`);
  }
  groups.forEach(({ provider, window }, index) => {
    const x0 = left + index * groupWidth + 12;
    POLICIES.forEach((policy, rank) => {
      const row = rows.find(
        (candidate) =>
          candidate.provider === provider.name && candidate.window === window && candidate.policy === policy,
      );
      if (!row) return;
      const h = (plot * row.dollars) / peak;
      parts.push(
        `<rect x="${(x0 + rank * bar).toFixed(1)}" y="${(top + plot - h).toFixed(1)}" width="${(bar - 2).toFixed(1)}" height="${h.toFixed(1)}" fill="${COLOURS[rank]}"><title>${policy}: $${row.dollars.toFixed(2)}</title></rect>`,
      );
    });
    parts.push(
      `<text x="${x0 + (groupWidth - 24) / 2}" y="${top + plot + 16}" text-anchor="middle">${provider.name}, ${window / 1000}k</text>`,
    );
  });
  POLICIES.forEach((policy, rank) => {
    const x = left + (rank % 4) * 200;
    const y = height - 46 + Math.floor(rank / 4) * 18;
    parts.push(
      `<rect x="${x}" y="${y - 9}" width="10" height="10" fill="${COLOURS[rank]}"/><text x="${x + 14}" y="${y}">${policy}</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

await main();
