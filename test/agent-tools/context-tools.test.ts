import { readFileSync } from 'node:fs';
import { fc, test as property } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  type ContextToolResult,
  contextStatusToolDefinition,
  createContextTools,
  recall,
  recallToolDefinition,
} from '../../src/agent-tools/index.js';
import {
  ConfigError,
  createContextManager,
  createInMemorySessionStore,
  heuristicSummarizer,
  type Message,
  prepareModelMessages,
} from '../../src/index.js';
import { toolCallMessage, toolResultMessage, userMessage } from '../../src/testing/index.js';
import { loadTokenizerCounter } from '../../src/tokenizer/index.js';

/** Real tool output: files of this package, as a `read` tool would return them. */
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
/** Its first 6,000 characters: a result recall returns whole (a page is 8,000), however the file grows. */
const PACKAGE_JSON = readFileSync(new URL('../../package.json', import.meta.url), 'utf8').slice(0, 6_000);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function createManager() {
  return createContextManager({
    summarizer: heuristicSummarizer,
    contextWindow: 200_000,
    config: { toolCallCutoff: 2, toolSummaryBatch: 0, toolSummaryStrategy: 'heuristic' },
  });
}

function step(id: string, output: string, name = 'read'): Message[] {
  return [toolCallMessage([{ id, name, arguments: { path: id } }]), toolResultMessage(id, output, { toolName: name })];
}

function text(result: ContextToolResult | undefined): string {
  if (result === undefined) throw new Error('not handled');
  return result.content;
}

/** A history whose first results are archived by the manager: `c0` holds the README. */
async function archivedHistory() {
  const manager = createManager();
  const own: Message[] = [userMessage('read the docs'), ...step('c0', README)];
  for (let index = 1; index < 6; index++) own.push(...step(`c${index}`, `line ${index} of a short output`));
  const prepared = await manager.prepare(own);
  return { manager, prepared, history: prepared.history };
}

describe('context_status', () => {
  it('answers one line from the manager: tokens of the window, the compaction point, the archived results', async () => {
    const { manager, history } = await archivedHistory();
    const tools = createContextTools(manager);
    const answer = text(await tools.handle({ name: 'context_status', arguments: {} }, history));
    const { usage } = manager.stats(history);
    const archived = history.filter((message) => message.meta?.kind === 'tool_result_archived').length;
    expect(archived).toBeGreaterThan(0);
    const format = (value: number) => value.toLocaleString('en-US');
    expect(answer).toBe(
      `Context: ${format(usage.tokens)} of 200,000 tokens (${Math.round((usage.tokens / 200_000) * 100)}%); ` +
        `compaction at ${format(usage.limit!)}; ${archived} tool results archived (recall by the id each names).`,
    );
    expect(answer).not.toContain('\n');
  });

  it('says when nothing is archived, and refuses parameters it does not take', async () => {
    const manager = createManager();
    const tools = createContextTools(manager);
    const history = [userMessage('hi')];
    expect(text(await tools.handle({ name: 'context_status', arguments: '' }, history))).toMatch(
      /^Context: \d+ of 200,000 tokens \(0%\); compaction at [\d,]+; no tool results archived\.$/,
    );
    const refused = await tools.handle({ name: 'context_status', arguments: { verbose: true } }, history);
    expect(refused).toMatchObject({ isError: true });
    expect(refused?.content).toContain('verbose');
  });

  it('costs under 40 tokens an answer (o200k_base), and its definition is small', async () => {
    const counter = await loadTokenizerCounter({ encoding: 'o200k_base' });
    const { manager, history } = await archivedHistory();
    const answer = text(await createContextTools(manager).handle({ name: 'context_status', arguments: {} }, history));
    const answerTokens = counter.count(answer);
    const definitionTokens = counter.count(JSON.stringify(contextStatusToolDefinition));
    const recallTokens = counter.count(JSON.stringify(recallToolDefinition));
    console.log(
      `context_status: answer ${answerTokens} tokens, definition ${definitionTokens}; recall definition ${recallTokens}`,
    );
    expect(answerTokens).toBeLessThan(40);
    expect(definitionTokens).toBeLessThan(60);
  });
});

describe('recall by id', () => {
  it('returns an archived result page by page, with a truncated marker naming the offset to go on from', async () => {
    const { manager, prepared, history } = await archivedHistory();
    // What the model sees for c0 is the placeholder; the history keeps the whole output.
    const sent = prepared.messages.find((message) => message.role === 'toolResult' && message.toolCallId === 'c0');
    expect(JSON.stringify(sent)).not.toContain(README.slice(0, 200));
    const tools = createContextTools(manager, {});
    let offset = 0;
    let whole = '';
    let own = [...history];
    for (let page = 0; page < 100; page++) {
      const answer = text(await tools.handle({ name: 'recall', arguments: { id: 'c0', offset } }, own));
      const [header, ...rest] = answer.split('\n');
      expect(header).toBe(`[recall c0 from ${offset}]`);
      const body = rest.join('\n');
      const marker =
        /\n\[truncated: ([\d,]+) of ([\d,]+) characters shown from [\d,]+; recall with offset (\d+) for more\]$/.exec(
          body,
        );
      if (marker === null) {
        whole += body;
        break;
      }
      whole += body.slice(0, marker.index);
      expect(marker[2]).toBe(README.length.toLocaleString('en-US'));
      offset = Number(marker[3]);
      own = [...own, ...step(`recall${page}`, answer, 'recall')];
    }
    expect(whole).toBe(README);
    expect(README.length).toBeGreaterThan(8000); // so the loop paged at least twice
  });

  it('answers a repeated recall with a short note while the earlier page is still in context, and refuses to recall a recall', async () => {
    const { manager, history } = await archivedHistory();
    const tools = createContextTools(manager);
    const first = text(await tools.handle({ name: 'recall', arguments: '{"id":"c0"}' }, history));
    const after = [...history, ...step('r1', first, 'recall')];
    const again = text(await tools.handle({ name: 'recall', arguments: { id: 'c0' } }, after));
    expect(again).toMatch(/^\[recall c0: that page is already in your context/);
    expect(again.length).toBeLessThan(200);
    const nested = text(await tools.handle({ name: 'recall', arguments: { id: 'r1' } }, after));
    expect(nested).toMatch(/itself a recall/);
  });

  it('finds the k-th result of a reused call id under the id the manager sends it as', async () => {
    const history = [...step('call_0', 'first output'), ...step('call_0', 'second output')];
    // The id the second result is sent under, as the model sees it.
    const sent = prepareModelMessages(history).filter((message) => message.role === 'toolResult');
    expect(sent.map((message) => message.toolCallId)).toEqual(['call_0', 'call_0_2']);
    expect(await recall({ id: 'call_0_2' }, { history })).toBe('[recall call_0_2 from 0]\nsecond output');
    // The name ctxkit sent it under before 'call_0_2' still resolves (an older summary may hold it).
    expect(await recall({ id: 'call_0#2' }, { history })).toBe('[recall call_0#2 from 0]\nsecond output');
    expect(await recall({ id: 'call_0' }, { history })).toBe('[recall call_0 from 0]\nfirst output');
  });

  it('names the field of a bad call and a missing id, and leaves other tools to the host', async () => {
    const { manager, history } = await archivedHistory();
    const tools = createContextTools(manager);
    expect(await tools.handle({ name: 'recall', arguments: { id: 'c0', query: 'x' } }, history)).toMatchObject({
      isError: true,
      content: expect.stringContaining('exactly one of id'),
    });
    expect(await tools.handle({ name: 'recall', arguments: { id: 'c0', offset: -1 } }, history)).toMatchObject({
      isError: true,
      content: expect.stringContaining('offset'),
    });
    expect(await tools.handle({ name: 'recall', arguments: '{not json' }, history)).toMatchObject({ isError: true });
    expect(text(await tools.handle({ name: 'recall', arguments: { id: 'nope' } }, history))).toMatch(/no tool result/);
    expect(await tools.handle({ name: 'read', arguments: {} }, history)).toBeUndefined();
    expect(tools.handles('recall') && tools.handles('context_status') && !tools.handles('read')).toBe(true);
  });

  it('never pages more than the manager keeps of one tool output', async () => {
    const manager = createContextManager({
      summarizer: heuristicSummarizer,
      contextWindow: 200_000,
      config: { toolOutput: { maxChars: 1_000 } },
    });
    const answer = text(
      await createContextTools(manager).handle({ name: 'recall', arguments: { id: 'c0' } }, step('c0', README)),
    );
    expect(answer).toContain(
      `[truncated: 1,000 of ${README.length.toLocaleString('en-US')} characters shown from 0; recall with offset 1000 for more]`,
    );
  });

  property.prop([fc.string({ unit: 'grapheme', maxLength: 400 }), fc.integer({ min: 100, max: 150 })])(
    'pages put back together are the whole text, and no page splits a surrogate pair',
    async (output, size) => {
      const history = step('c', output);
      let offset = 0;
      let whole = '';
      for (let page = 0; page < 20; page++) {
        const answer = await recall({ id: 'c', offset }, { history, maxCharacters: size });
        const body = answer.slice(answer.indexOf('\n') + 1);
        const marker = /\n\[truncated: [^\]]*recall with offset (\d+) for more\]$/.exec(body);
        if (marker === null) {
          whole += body;
          break;
        }
        const part = body.slice(0, marker.index);
        expect(part).not.toMatch(LONE_SURROGATE);
        whole += part;
        offset = Number(marker[1]);
      }
      expect(whole).toBe(output);
    },
  );
});

describe('recall with a session store', () => {
  it('reads results a compaction dropped from the history, only of its own session', async () => {
    const store = createInMemorySessionStore();
    const session = await store.createSession();
    const other = await store.createSession();
    await store.appendEntry(other.id, {
      type: 'message',
      message: toolResultMessage('secret', 'zebra quartz from another session'),
    });
    for (const message of step('c0', PACKAGE_JSON)) await store.appendEntry(session.id, { type: 'message', message });
    const manager = createManager();
    const tools = createContextTools(manager, { store, sessionId: session.id });
    const history = [userMessage('the history after a compaction: c0 is gone')];
    const answer = text(await tools.handle({ name: 'recall', arguments: { id: 'c0' } }, history));
    expect(answer).toBe(`[recall c0 from 0]\n${PACKAGE_JSON}`);
    expect(text(await tools.handle({ name: 'recall', arguments: { id: 'secret' } }, history))).toMatch(
      /no tool result/,
    );
    const found = text(await tools.handle({ name: 'recall', arguments: { query: 'zebra quartz' } }, history));
    expect(found).toMatch(/no archived tool result matches/);
  });

  it('reads the later results of a reused id by the names they were sent under, from the store alone', async () => {
    const store = createInMemorySessionStore();
    const session = await store.createSession();
    const stored = [...step('call_0', 'first output'), ...step('call_0', 'second output'), ...step('call_0', 'third')];
    for (const message of stored) await store.appendEntry(session.id, { type: 'message', message });
    const sent = prepareModelMessages(stored).filter((message) => message.role === 'toolResult');
    expect(sent.map((message) => message.toolCallId)).toEqual(['call_0', 'call_0_2', 'call_0_3']);
    const tools = createContextTools(createManager(), { store, sessionId: session.id });
    const history = [userMessage('the history after a compaction: every call_0 is gone')];
    const recallText = async (id: string) => text(await tools.handle({ name: 'recall', arguments: { id } }, history));
    expect(await recallText('call_0_2')).toBe('[recall call_0_2 from 0]\nsecond output');
    expect(await recallText('call_0_3')).toBe('[recall call_0_3 from 0]\nthird');
    expect(await recallText('call_0#3')).toBe('[recall call_0#3 from 0]\nthird');
    expect(await recallText('call_0_4')).toMatch(/no tool result/);
  });

  it('reports a failing store as an error result, and refuses a store without its session', async () => {
    const store = createInMemorySessionStore();
    const broken = { ...store, getBranch: async () => Promise.reject(new Error('disk gone')) };
    const tools = createContextTools(createManager(), { store: broken, sessionId: 's' });
    expect(await tools.handle({ name: 'recall', arguments: { id: 'c0' } }, [])).toMatchObject({ isError: true });
    expect(() => createContextTools(createManager(), { store })).toThrow(ConfigError);
    expect(() => createContextTools(createManager(), { maxRecallCharacters: 5 })).toThrow(/maxRecallCharacters/);
  });
});

describe('recall search', () => {
  it('ranks archived results by the query words and leaves out what the model still sees', async () => {
    const { manager, history } = await archivedHistory();
    const tools = createContextTools(manager);
    const found = text(
      await tools.handle({ name: 'recall', arguments: { query: 'context manager', limit: 3 } }, history),
    );
    const lines = found.split('\n');
    expect(lines[0]).toMatch(/^\[recall search "context manager": 1 match, best first; recall one by its id\]$/);
    expect(lines[1]).toMatch(/^- c0 \(read, [\d,]+ chars\): /);
    // c5 is still visible (not archived): a search does not offer it.
    expect(text(await tools.handle({ name: 'recall', arguments: { query: 'line 5' } }, history))).not.toContain('c5');
    expect(text(await tools.handle({ name: 'recall', arguments: { query: 'line 1' } }, history))).toContain('- c1 ');
  });
});
