/**
 * `npm run bench:langchain`: one scripted tool-using session through LangChain.js v1's `createAgent`
 * three ways: with ctxkit's middleware (`ctxkit/langchain`), with LangChain's own
 * `summarizationMiddleware`, and with its `contextEditingMiddleware` (`ClearToolUsesEdit` defaults).
 * Same model, window, tool outputs and turns: the session of `npm run bench:cost` (real tool output,
 * the retention bench's declared facts), replayed by a scripted chat model. Every model request is
 * counted with the same chars/4 counter; facts are scored in the last request as the cost bench
 * scores them. Deterministic; writes its block into docs/benchmarks.md.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { contextEditingMiddleware, createAgent, summarizationMiddleware, tool } from 'langchain';
import { z } from 'zod';
import { createLangChainSummarizer, ctxkitMiddleware, fromLangChainMessages } from '../src/langchain/index.js';
import { normalizeForCheck } from '../src/summarizing/anchors/normalize.js';
import { type CostSession, costSession } from './cost-session.js';
import { countLangChainTokens, toLangChainMessage } from './langchain-anchor.js';
import { table } from './report.js';
import { visibleText } from './visible-text.js';

const WINDOW = 128_000;
const RESERVE = 16_384;
const KEEP = 20_000;
const CALLS = 150;
const SEED = 1;
const SYSTEM_PROMPT = 'You are a careful coding agent. Use the tools to inspect and fix the repository.';

/** What the summarizer model answers, whatever it is asked: a fixed checkpoint (no model is run here). */
const SUMMARY = [
  '## Goal',
  'Work through the requested changes in the repository.',
  '## Progress',
  '- Read files, ran commands and edited code as asked.',
  '## Next Steps',
  '- Continue with the next request.',
].join('\n');

interface Tally {
  requests: number;
  promptTokens: number;
  overWindow: number;
  largest: number;
  summaryCalls: number;
  summaryInputTokens: number;
  last: BaseMessage[];
}

/** The agent's model: replays the session's replies in order; a summarizer instance answers SUMMARY. */
class ScriptedChat extends BaseChatModel {
  constructor(
    private readonly next: () => AIMessage,
    private readonly tally: Tally,
    private readonly summarizer: boolean,
  ) {
    super({});
  }
  _llmType(): string {
    return 'scripted';
  }
  override bindTools(): this {
    return this;
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const tokens = countLangChainTokens(messages);
    if (this.summarizer) {
      this.tally.summaryCalls++;
      this.tally.summaryInputTokens += tokens;
      return { generations: [{ text: SUMMARY, message: new AIMessage(SUMMARY) }] };
    }
    this.tally.requests++;
    this.tally.promptTokens += tokens;
    if (tokens > WINDOW) this.tally.overWindow++;
    this.tally.largest = Math.max(this.tally.largest, tokens);
    this.tally.last = messages;
    const message = this.next();
    return { generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] };
  }
}

type Way = 'ctxkit' | 'ctxkit-thresholds' | 'summarization' | 'contextEditing';

async function run(session: CostSession, way: Way) {
  const tally: Tally = {
    requests: 0,
    promptTokens: 0,
    overWindow: 0,
    largest: 0,
    summaryCalls: 0,
    summaryInputTokens: 0,
    last: [],
  };
  const { events } = session;
  let cursor = 0;
  const results = new Map<string, string>();
  /** The next scripted reply, or a closing answer when the script moves on to the user. */
  const next = (): AIMessage => {
    const event = events[cursor];
    if (event?.type !== 'call') return new AIMessage('Done.');
    cursor++;
    for (const result of event.results)
      results.set(result.toolCallId, result.content.map((part) => (part.type === 'text' ? part.text : '')).join(''));
    return toLangChainMessage(event.reply) as AIMessage;
  };
  const names = new Set(
    events.flatMap((event) =>
      event.type === 'call' ? event.reply.content.flatMap((part) => (part.type === 'toolCall' ? [part.name] : [])) : [],
    ),
  );
  const tools = [...names].map((name) =>
    tool(async (_input, config) => results.get(config.toolCall?.id ?? '') ?? '(no output)', {
      name,
      description: `The ${name} tool`,
      schema: z.object({}).passthrough(),
    }),
  );
  const model = new ScriptedChat(next, tally, false);
  const summarizerModel = new ScriptedChat(next, tally, true);
  const middleware =
    way === 'ctxkit' || way === 'ctxkit-thresholds'
      ? ctxkitMiddleware({
          costAware: way === 'ctxkit',
          contextWindow: WINDOW,
          summarizer: createLangChainSummarizer({ model: summarizerModel }),
          config: { reserveTokens: RESERVE, keepRecentTokens: KEEP, toolSummaryStrategy: 'heuristic' },
          onEvent: (event) => {
            if (event.type === 'compaction-end')
              console.info(`${way} compaction (${event.reason}): ${event.tokensBefore} → ${event.tokensAfter} tokens`);
          },
        })
      : way === 'summarization'
        ? summarizationMiddleware({
            model: summarizerModel,
            trigger: { tokens: WINDOW - RESERVE },
            keep: { tokens: KEEP },
            tokenCounter: countLangChainTokens,
          })
        : contextEditingMiddleware();
  const agent = createAgent({ model, tools, systemPrompt: SYSTEM_PROMPT, middleware: [middleware] });
  let messages: BaseMessage[] = [];
  while (cursor < events.length) {
    const event = events[cursor]!;
    let text = 'Continue.';
    if (event.type === 'user') {
      cursor++;
      text = typeof event.message.content === 'string' ? event.message.content : JSON.stringify(event.message.content);
    }
    const state = await agent.invoke({ messages: [...messages, new HumanMessage(text)] }, { recursionLimit: 1_000 });
    messages = state.messages;
  }
  const { messages: seenMessages } = fromLangChainMessages(tally.last);
  const seen = visibleText([{ role: 'user', content: SYSTEM_PROMPT }, ...seenMessages]);
  const kept = session.facts.filter((fact) => fact.keys.every((key) => seen.includes(normalizeForCheck(key)))).length;
  return { way, ...tally, kept, facts: session.facts.length, lastTokens: countLangChainTokens(tally.last) };
}

const number = (value: number) => value.toLocaleString('en-US');

const LABELS: Record<Way, string> = {
  ctxkit: '`ctxkitMiddleware` (ctxkit/langchain), defaults',
  'ctxkit-thresholds': '`ctxkitMiddleware`, `costAware: false`',
  summarization: '`summarizationMiddleware`',
  contextEditing: '`contextEditingMiddleware` (`ClearToolUsesEdit` defaults)',
};

async function main() {
  const session = costSession(SEED, CALLS);
  const rows = [];
  for (const way of ['ctxkit', 'ctxkit-thresholds', 'summarization', 'contextEditing'] as const)
    rows.push(await run(session, way));
  const lines = table(
    [
      'middleware',
      'model requests',
      'prompt tokens sent',
      'largest request',
      'summarizer calls (input tokens)',
      'over the window',
      'last request',
      'facts kept in the last request',
    ],
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    rows.map((row) => [
      LABELS[row.way],
      number(row.requests),
      number(row.promptTokens),
      number(row.largest),
      `${row.summaryCalls} (${number(row.summaryInputTokens)})`,
      number(row.overWindow),
      number(row.lastTokens),
      `${row.kept} / ${row.facts}`,
    ]),
  );
  const block = [
    '<!-- langchain:start -->',
    "## ctxkit against LangChain's own middleware",
    '',
    'Written by `npm run bench:langchain` (bench/langchain-middleware.ts); one run. One scripted session',
    `(the cost bench's, seed ${SEED}, ${CALLS} scripted model calls: real tool output and the retention bench's`,
    'declared facts) through `createAgent` from `langchain` 1.5, with the same scripted chat model, the same',
    `tools and turns, and a window of ${number(WINDOW)} tokens. ctxkit: \`reserveTokens\` ${number(RESERVE)},`,
    `\`keepRecentTokens\` ${number(KEEP)}, tool summaries by its heuristic (no model), once with its defaults`,
    '(cost-aware: it archives old tool results and compacts earlier than the threshold when its cost policy',
    'says it pays) and once with `costAware: false` (the threshold alone). `summarizationMiddleware`:',
    `\`trigger: { tokens: ${number(WINDOW - RESERVE)} }\`, \`keep: { tokens: ${number(KEEP)} }\`, the same counter, its other`,
    'options at their defaults (it sends at most 4,000 tokens of the old messages to the summarizer).',
    '`contextEditingMiddleware()` as it comes: all but the 3 newest tool results cleared once a request',
    'reaches 100,000 tokens. Every model request is counted with one chars/4 counter, the same for all rows',
    '(tool definitions not included). A fact is kept when all of its keys are in the last model request',
    '(system prompt included), scored as the cost bench scores them. No request is refused here:',
    '`over the window` counts requests a provider would have refused.',
    '',
    lines,
    '',
    'The summarizer is the same scripted model for every middleware that calls one, and it answers every',
    'summary request with the same fixed six-line checkpoint: no model ran, so the summaries themselves keep',
    'none of the facts. The facts column measures what each middleware keeps without a model: the verbatim',
    "tail for LangChain's summarization, the uncleared messages for context editing, ctxkit's truncated and",
    'archived tool results, and after a ctxkit compaction the "Pinned Facts" it extracts by rule (goals,',
    'constraints, errors, paths) and appends to the summary. Those rules target the kinds of facts the',
    "retention bench declares, so the first row's facts favour ctxkit by construction; with a real",
    "summarizer model LangChain's summary would keep some of them too. The token columns do not depend on",
    'the summary text. The cost-aware row reads the wall clock (a run takes seconds, so the prompt cache',
    'never goes cold in it); the other rows are deterministic.',
    '<!-- langchain:end -->',
  ].join('\n');
  for (const row of rows) console.info(row.way, { ...row, last: undefined });
  const file = new URL('../docs/benchmarks.md', import.meta.url);
  const current = readFileSync(file, 'utf8');
  const start = current.indexOf('<!-- langchain:start -->');
  const end = current.indexOf('<!-- langchain:end -->');
  writeFileSync(
    file,
    start >= 0 && end > start
      ? `${current.slice(0, start)}${block}${current.slice(end + '<!-- langchain:end -->'.length)}`
      : `${current.trimEnd()}\n\n${block}\n`,
  );
  console.info(lines);
}

await main();
