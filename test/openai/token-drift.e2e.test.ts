// A provider whose tokenizer counts 1.6× ctxkit's estimate (JSON-heavy tool output, where chars/4
// under-counts), through the real `openai` client against the loopback OpenAI server, which refuses
// a prompt over its window with OpenAI's overflow error. Recorded usage anchors what was sent; what
// is new since is estimated. Uncalibrated, a step's new tool results are estimated at the counter's
// count and a request over the window is sent; calibrated, the manager learns the 1.6 from the
// usage it is given and sends none. The calibration comes back from the usage stored with the
// messages when a session is reloaded from a store.

import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { buildContextFromBranch, createContextManager, type Message, type ToolCall } from 'ctxkit';
import {
  createOpenAISummarizer,
  createToolResultMessage,
  type OpenAIChatTool,
  readOpenAIChatCompletion,
  toOpenAIChat,
} from 'ctxkit/openai';
import { createSqliteStore } from 'ctxkit/sqlite';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from './fake-openai-server.js';

const SYSTEM = 'You are a careful coding agent. Use the tools to inspect and fix the repository.';
const WINDOW = 60_000;
const DRIFT = 1.6;
const TOOLS: OpenAIChatTool[] = ['read_file', 'run_tests'].map((name) => ({
  type: 'function',
  function: { name, description: `${name} in the repository`, parameters: { type: 'object', properties: {} } },
}));

/** Real JSON: this package's lockfile, cut into tool outputs of ~11 KB (the manager's output limit is 12 KiB). */
const LOCK = readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8');
const LOCK_SPAN = 150_000;
function runTool(call: ToolCall, index: number): Message {
  const size = 11_000;
  // Offsets within a fixed span, not the file's length: a lockfile edit moves the slices by its own
  // length instead of reshuffling every one (a one-line peer change stopped the overflow below).
  const start = (index * 7_919 * size) % Math.min(LOCK_SPAN, LOCK.length - size);
  return createToolResultMessage({ toolCallId: call.id, toolName: call.name, output: LOCK.slice(start, start + size) });
}

describe('a provider counting 1.6× the estimate, through the openai client', () => {
  let server: FakeOpenAI | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  /** Runs 12 tool-using turns with `prepare` and `recordUsage`; stops at the first refused request. */
  async function session(calibrate: boolean) {
    server = await startFakeOpenAI({ contextWindow: WINDOW, maxOutputTokens: 16_384, tokenRatio: DRIFT });
    const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
    const manager = createContextManager({
      model: 'gpt-5',
      contextWindow: WINDOW,
      summarizer: createOpenAISummarizer({ client, model: 'gpt-5-mini' }),
      systemPrompt: SYSTEM,
      tools: TOOLS,
      calibrate,
      config: { reserveTokens: 2_048, toolCallCutoff: 6, toolSummaryBatch: 4 },
    });
    let history: Message[] = [];
    let results = 0;
    let refused: unknown;
    const largest = { estimated: 0, sent: 0 };
    turns: for (let turn = 0; turn < 12; turn++) {
      history.push({ role: 'user', content: `Turn ${turn}: find why the lockfile check fails.` });
      for (let step = 0; step < 4; step++) {
        const prepared = await manager.prepare(history);
        let completion: OpenAI.Chat.Completions.ChatCompletion;
        try {
          completion = await client.chat.completions.create({
            model: 'gpt-5',
            tools: TOOLS,
            messages: toOpenAIChat({ systemPrompt: SYSTEM, messages: prepared.messages }).messages,
          });
        } catch (error) {
          refused = error;
          break turns;
        }
        const message = readOpenAIChatCompletion(completion);
        manager.recordUsage(message.usage!);
        const sent = completion.usage!.prompt_tokens;
        if (sent > largest.sent) Object.assign(largest, { sent, estimated: prepared.usage.tokens });
        history = [...prepared.history, message];
        const calls = message.content.filter((part): part is ToolCall => part.type === 'toolCall');
        if (calls.length === 0) break;
        for (const call of calls) history.push(runTool(call, results++));
      }
    }
    return { manager, history, refused, largest, log: server.log };
  }

  it('uncalibrated, a request over the window is sent; calibrated, none, and the ratio learned is the provider’s', async () => {
    const uncalibrated = await session(false);
    expect(uncalibrated.log.rejected).toEqual([]);
    expect(uncalibrated.log.overflows).toBe(1);
    expect((uncalibrated.refused as { code?: string }).code).toBe('context_length_exceeded');
    expect(uncalibrated.manager.stats(uncalibrated.history).calibration).toEqual({ ratio: 1, samples: 0 });
    await server!.close();
    server = undefined;

    const calibrated = await session(true);
    expect(calibrated.refused).toBeUndefined();
    expect(calibrated.log.rejected).toEqual([]);
    expect(calibrated.log.overflows).toBe(0);
    expect(calibrated.log.requests.some((request) => request.summary)).toBe(true);
    const { calibration } = calibrated.manager.stats(calibrated.history);
    expect(calibration.samples).toBeGreaterThan(5);
    // 1.6× the text, plus the server's framing (4 tokens an item) the counter counts differently.
    expect(calibration.ratio).toBeGreaterThan(1.5);
    expect(calibration.ratio).toBeLessThan(1.7);
    // The manager's measure of its largest request was within 5% of the provider's count.
    expect(Math.abs(calibrated.largest.estimated - calibrated.largest.sent) / calibrated.largest.sent).toBeLessThan(
      0.05,
    );
    console.info(
      `drift ${DRIFT}: uncalibrated overflowed after ${uncalibrated.log.requests.length} requests; calibrated ran ${calibrated.log.requests.length} with ratio ${calibration.ratio.toFixed(3)} (${calibration.samples} samples)`,
    );
  });

  it('the calibration comes back from the usage stored with the messages when the session is reloaded', async () => {
    const { manager, history } = await session(true);
    const learned = manager.stats(history).calibration.ratio;
    const store = createSqliteStore({ database: new Database(':memory:') });
    const { id } = await store.createSession();
    for (const message of history) await store.appendEntry(id, { type: 'message', message });

    const reloaded = buildContextFromBranch(await store.getEntries(id)).messages;
    const resumed = createContextManager({
      model: 'gpt-5',
      contextWindow: WINDOW,
      summarizer: createOpenAISummarizer({
        client: new OpenAI({ apiKey: 'test', baseURL: server!.baseURL }),
        model: 'gpt-5-mini',
      }),
      systemPrompt: SYSTEM,
      tools: TOOLS,
    });
    expect(resumed.stats([]).calibration).toEqual({ ratio: 1, samples: 0 });
    const prepared = await resumed.prepare(reloaded);
    const { calibration } = resumed.stats(prepared.history);
    expect(calibration.samples).toBeGreaterThan(0);
    expect(calibration.ratio).toBeGreaterThan(1.5);
    expect(Math.abs(calibration.ratio - learned)).toBeLessThan(0.1);
  });
});
