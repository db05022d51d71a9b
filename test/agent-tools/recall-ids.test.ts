// The id the model passes to recall: named in the placeholder of an archived result and in the
// notice of a spilled one, the same after a reload, resolved by `recall`; spilled outputs read back
// through the spill store only.
import { mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createContextTools, recallIdOf } from '../../src/agent-tools/index.js';
import {
  ContextError,
  createContextManager,
  createInMemorySessionStore,
  heuristicSummarizer,
  type Message,
} from '../../src/index.js';
import { createFileSpillStore } from '../../src/node/index.js';
import { ARCHIVED_RESULT_PATTERN } from '../../src/schemas/index.js';
import { toolCallMessage, toolResultMessage, userMessage } from '../../src/testing/index.js';

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});
function temporaryDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), 'ctxkit-recall-'));
  directories.push(directory);
  return directory;
}

/** Real tool output: `ls -l`-like lines of this package's sources. */
const LISTING = readdirSync(new URL('../../src', import.meta.url), { recursive: true })
  .map((name, index) => `${String(index).padStart(5)} ${String(name)}`)
  .join('\n');

function step(id: string, output: string, name = 'read'): Message[] {
  return [toolCallMessage([{ id, name, arguments: { path: id } }]), toolResultMessage(id, output, { toolName: name })];
}

function createManager(options: Partial<Parameters<typeof createContextManager>[0]> = {}) {
  return createContextManager({
    summarizer: heuristicSummarizer,
    contextWindow: 200_000,
    config: { toolCallCutoff: 2, toolSummaryBatch: 0, toolSummaryStrategy: 'heuristic' },
    ...options,
  });
}

function textOf(message: Message | undefined): string {
  if (message === undefined || typeof message.content === 'string') return String(message?.content);
  return message.content.map((part) => ('text' in part ? part.text : '')).join('\n');
}

describe('recall ids', () => {
  it('are r and eight base-36 characters, a pure function of the tool call id', () => {
    expect(recallIdOf('call_17')).toMatch(/^r[0-9a-z]{8}$/);
    expect(recallIdOf('call_17')).toBe(recallIdOf('call_17'));
    const ids = new Set(Array.from({ length: 20_000 }, (_, index) => recallIdOf(`call_${index}`)));
    expect(ids.size).toBe(20_000);
  });

  it('are named by the placeholder, the same after a reload, and resolved by recall', async () => {
    const own: Message[] = [userMessage('read the sources'), ...step('c0', LISTING)];
    for (let index = 1; index < 6; index++) own.push(...step(`c${index}`, `line ${index}`));
    const first = await createManager().prepare(own);
    const sent = first.messages.find((message) => message.role === 'toolResult' && message.toolCallId === 'c0');
    const match = ARCHIVED_RESULT_PATTERN.exec(textOf(sent));
    expect(match?.[1]).toBe(recallIdOf('c0'));
    expect(textOf(sent)).toContain(`${Math.round(LISTING.length / 1000)}k chars`);
    // A new process: the history as a host stored it, as JSON, and a new manager.
    const reloaded = await createManager().prepare(JSON.parse(JSON.stringify(first.history)) as Message[]);
    const again = reloaded.messages.find((message) => message.role === 'toolResult' && message.toolCallId === 'c0');
    expect(textOf(again)).toBe(textOf(sent));
    const tools = createContextTools(createManager());
    const answer = await tools.handle({ name: 'recall', arguments: { id: match![1] } }, reloaded.history);
    expect(answer?.isError).toBe(false);
    expect(answer?.content.split('\n')[0]).toBe(`[recall ${match![1]} from 0]`);
    expect(answer?.content).toContain(LISTING.slice(0, 2000));
    // The tool call id keeps working.
    const byCall = await tools.handle({ name: 'recall', arguments: { id: 'c0' } }, reloaded.history);
    expect(byCall?.content.split('\n').slice(1).join('\n').slice(0, 2000)).toBe(LISTING.slice(0, 2000));
  });

  it('list the results of a reused tool call id instead of guessing one', async () => {
    const own: Message[] = [userMessage('go'), ...step('same', 'first output'), ...step('same', 'second output')];
    for (let index = 1; index < 5; index++) own.push(...step(`c${index}`, `line ${index}`));
    const { history } = await createManager().prepare(own);
    const tools = createContextTools(createManager());
    const answer = await tools.handle({ name: 'recall', arguments: { id: recallIdOf('same') } }, history);
    expect(answer?.content).toBe(
      `[recall ${recallIdOf('same')}: 2 results share that id (a reused tool call id); recall one by its tool call id: same, same_2]`,
    );
    const second = await tools.handle({ name: 'recall', arguments: { id: 'same_2' } }, history);
    expect(second?.content).toBe('[recall same_2 from 0]\nsecond output');
    // The name ctxkit sent it under before (`same#2`), which an older summary or recall may hold, still works.
    const legacy = await tools.handle({ name: 'recall', arguments: { id: 'same#2' } }, history);
    expect(legacy?.content).toBe('[recall same#2 from 0]\nsecond output');
  });
});

describe('recall of spilled outputs', () => {
  const limits = { maxChars: 2000, maxLines: 40, maxBytes: 8000, largeOutputThreshold: 3000 };

  it('reads a cut output back whole through the spill store the notice names, by the id in the notice', async () => {
    const spillStore = createFileSpillStore({ directory: temporaryDirectory() });
    const manager = createManager({ spillStore, config: { toolOutput: limits } });
    const { messages, history } = await manager.prepare([userMessage('list'), ...step('big', LISTING)]);
    const cut = textOf(messages.at(-1));
    expect(cut.length).toBeLessThanOrEqual(2000);
    expect(cut).toContain(`recall ${recallIdOf('big')}`);
    const tools = createContextTools(manager, { spillStore });
    const answer = await tools.handle({ name: 'recall', arguments: { id: recallIdOf('big') } }, history);
    // A page is at most the manager's maxChars; the marker counts the whole spilled output.
    const total = LISTING.length.toLocaleString('en-US');
    expect(answer?.content).toBe(
      `[recall ${recallIdOf('big')} from 0]\n${LISTING.slice(0, 2000)}\n[truncated: 2,000 of ${total} characters shown from 0; recall with offset 2000 for more]`,
    );
    // Without the spill store, recall returns what was kept: the cut text.
    const plain = await createContextTools(manager).handle({ name: 'recall', arguments: { id: 'big' } }, history);
    expect(plain?.content).toBe(`[recall big from 0]\n${cut}`);
  });

  it('returns the cut text when the spilled file was changed, and never reads a path the store did not write', async () => {
    const directory = temporaryDirectory();
    const spillStore = createFileSpillStore({ directory });
    const manager = createManager({ spillStore, config: { toolOutput: limits } });
    const { messages, history } = await manager.prepare([userMessage('list'), ...step('big', LISTING)]);
    const [file] = readdirSync(directory);
    writeFileSync(join(directory, file!), 'changed');
    const tools = createContextTools(manager, { spillStore });
    const answer = await tools.handle({ name: 'recall', arguments: { id: 'big' } }, history);
    expect(answer?.content).toBe(`[recall big from 0]\n${textOf(messages.at(-1))}`);
    await expect(spillStore.read!(join(directory, '..', 'passwd'))).rejects.toThrow(ContextError);
    await expect(spillStore.read!('/etc/passwd')).rejects.toThrow(/a file this spill store wrote/);
    const link = join(directory, '2026-01-01T00-00-00-000Z-read-0123456789ab-01234567.txt');
    symlinkSync('/etc/hostname', link);
    await expect(spillStore.read!(link)).rejects.toThrow(/not a regular file/);
  });

  it('reads the session only: another session in the same store is never recalled', async () => {
    const store = createInMemorySessionStore();
    const other = await store.createSession();
    await store.appendEntry(other.id, { type: 'message', message: step('secret', 'the other session')[1]! });
    const mine = await store.createSession();
    const manager = createManager();
    const tools = createContextTools(manager, { store, sessionId: mine.id });
    const answer = await tools.handle({ name: 'recall', arguments: { id: recallIdOf('secret') } }, []);
    expect(answer?.content).toMatch(/no tool result of this session has that id/);
  });
});

describe('the opt-in reminder near the compaction point', () => {
  it('comes once, at the end of what is sent (the cached prefix unchanged), and never again after a reload', async () => {
    const config = { toolCallCutoff: 50, toolSummaryStrategy: 'off' as const, reserveTokens: 1000 };
    const manager = createContextManager({ summarizer: heuristicSummarizer, contextWindow: 12_000, config });
    expect(createContextTools(manager).remind([userMessage('hi')])).toBeUndefined();
    const tools = createContextTools(manager, { reminder: 0.5 });
    let history: Message[] = [userMessage('list the sources')];
    let reminder: Message | undefined;
    let step = 0;
    while (reminder === undefined && step < 40) {
      history = [...history, ...step_(`c${step}`, LISTING.repeat(8).slice(step * 900, step * 900 + 900))];
      history = (await manager.prepare(history)).history;
      reminder = tools.remind(history);
      step++;
    }
    expect(reminder).toBeDefined();
    const { usage } = manager.stats(history);
    expect(usage.tokens).toBeGreaterThanOrEqual(usage.limit! * 0.5);
    expect(step).toBeGreaterThan(1); // not at once: only when the threshold is reached
    expect(String(reminder!.content)).toMatch(/^\[Reminder: compaction is near\. Context: [\d,]+ of 12,000 tokens/);
    const before = (await manager.prepare(history)).messages;
    const after = (await manager.prepare([...history, reminder!])).messages;
    expect(JSON.stringify(after.slice(0, before.length))).toBe(JSON.stringify(before));
    expect(after.at(-1)).toEqual(reminder);
    expect(tools.remind([...history, reminder!])).toBeUndefined();
    // Another process: the stored history holds the reminder, so none is given again.
    const reloaded = JSON.parse(JSON.stringify([...history, reminder!])) as Message[];
    expect(createContextTools(manager, { reminder: true }).remind(reloaded)).toBeUndefined();
    expect(() => createContextTools(manager, { reminder: 2 })).toThrow(/reminder/);
  });
});

function step_(id: string, output: string): Message[] {
  return step(id, output);
}
