/**
 * The scripted coding session of `npm run bench:cost`: 300 model calls in turns of a user message,
 * tool steps and a closing answer, with the times between them (model latency, tool run time, the
 * user's pauses, some longer than a prompt cache lives).
 *
 * Tool output is real text: slices of files of the pinned dependencies (`read`, cut as a read tool
 * cuts at 2,000 lines or 50 KiB), lines they match (`grep`), the outputs of real tools in the tool
 * corpus (tsc, node --test, vitest, pytest, cargo, … with the facts each states), and the rounds of
 * the retention bench's scripted sessions (goals, constraints, decisions, errors), whose facts are
 * the ones scored. Deterministic for a seed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AssistantMessage, Message, ToolResultMessage, UserMessage } from '../src/index.js';
import { fidelitySessions } from '../test/fixtures/fidelity-sessions.js';
import { createRandom } from './histories.js';
import { CORPUS_FILE, type ToolCorpus } from './tool-corpus.js';

/** A fact the session states: kept when every key is still in what the model sees. */
export interface SessionFact {
  keys: string[];
  /** The index of the event that states it. */
  at: number;
}

/** What happens next in the session. */
export type SessionEvent =
  | { type: 'user'; message: UserMessage; pauseMs: number }
  | { type: 'call'; reply: AssistantMessage; results: ToolResultMessage[]; latencyMs: number; toolMs: number };

export interface CostSession {
  events: SessionEvent[];
  facts: SessionFact[];
  calls: number;
}

const REPO = join(import.meta.dirname, '..');

/** Files of pinned dependencies the agent reads (their text does not change between runs). */
const READABLE = [
  'node_modules/typescript/lib/lib.es5.d.ts',
  'node_modules/typescript/lib/lib.es2015.core.d.ts',
  'node_modules/zod/v4/core/schemas.d.ts',
  'node_modules/vitest/dist/index.d.ts',
  'node_modules/pg/lib/client.js',
  'node_modules/openai/resources/responses/responses.d.ts',
  'node_modules/@anthropic-ai/sdk/resources/messages/messages.d.ts',
  'node_modules/gpt-tokenizer/README.md',
  'node_modules/ai/dist/index.d.ts',
  'node_modules/tsup/dist/index.js',
];

const MAX_LINES = 2_000;
const MAX_BYTES = 50 * 1024;

const ASKS = [
  'Now make the retry logic respect the timeout from the config, and keep the public API unchanged.',
  'The CI run failed on Node 20 only. Find out why and fix it.',
  'Add a test for the empty-input case, then run the whole suite.',
  'Refactor the loader so it reads the file once; the benchmark shows it reads it twice.',
  'Check the types of the request builder against the SDK declarations and fix what differs.',
  'Look at how the stream parser handles partial chunks and make it resilient to split UTF-8.',
  'Update the docs for the new option and make sure the examples still compile.',
  'Continue.',
];

let files: Array<{ path: string; lines: string[] }> | undefined;
let corpus: ToolCorpus | undefined;

function readable() {
  files ??= READABLE.map((path) => ({ path, lines: readFileSync(join(REPO, path), 'utf8').split('\n') }));
  return files;
}

function toolCorpus(): ToolCorpus {
  corpus ??= JSON.parse(readFileSync(CORPUS_FILE, 'utf8')) as ToolCorpus;
  return corpus;
}

/** Lines `from…` of a file as a read tool prints them: numbered, cut at 2,000 lines or 50 KiB. */
function readSlice(lines: readonly string[], from: number, count: number): string {
  const out: string[] = [];
  let bytes = 0;
  for (let index = from; index < Math.min(lines.length, from + count, from + MAX_LINES); index++) {
    const line = `${String(index + 1).padStart(6)}\t${lines[index]}`;
    bytes += Buffer.byteLength(line) + 1;
    if (bytes > MAX_BYTES) {
      out.push(`[Output cut at 50 KiB: lines ${index + 1}… not shown. Read on with offset=${index + 1}.]`);
      break;
    }
    out.push(line);
  }
  return out.join('\n');
}

/** Builds the session of one seed: `calls` model calls. */
export function costSession(seed: number, calls = 300): CostSession {
  const random = createRandom(seed * 7919 + 17);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const between = (low: number, high: number) => low + random() * (high - low);
  const events: SessionEvent[] = [];
  const facts: SessionFact[] = [];
  let made = 0;
  let nextId = 0;
  const id = () => `toolu_${seed}_${nextId++}`;
  const latency = (reply: AssistantMessage) => 1_500 + JSON.stringify(reply.content).length * 4 + between(0, 4_000);

  function call(reply: AssistantMessage, results: ToolResultMessage[], toolMs: number) {
    events.push({ type: 'call', reply, results, latencyMs: latency(reply), toolMs });
    made++;
  }

  function userTurn(text: string) {
    // Mostly a short pause; one turn in eight the user is away longer than a 5-minute cache lives.
    const pauseMs = random() < 0.125 ? between(6, 40) * 60_000 : between(15_000, 150_000);
    events.push({ type: 'user', message: { role: 'user', content: text }, pauseMs });
  }

  function toolStep() {
    const roll = random();
    const callId = id();
    let name: string;
    let args: Record<string, unknown>;
    let output: string;
    let isError = false;
    let toolMs = between(200, 2_000);
    if (roll < 0.4) {
      const file = pick(readable());
      const big = random() < 0.12;
      const count = big ? MAX_LINES : Math.round(between(30, 320));
      const from = Math.floor(random() * Math.max(1, file.lines.length - count));
      name = 'read';
      args = { path: file.path, offset: from + 1, limit: count };
      output = readSlice(file.lines, from, count);
      facts.push({ keys: [file.path], at: events.length });
    } else if (roll < 0.65) {
      const entry = pick(toolCorpus().entries);
      name = 'bash';
      args = { command: entry.command };
      output = `${entry.output.trimEnd()}\n\nexit code ${entry.exitCode}`;
      isError = entry.exitCode !== 0;
      toolMs = between(2_000, 40_000);
      for (const fact of entry.facts) facts.push({ keys: fact.keys, at: events.length });
    } else if (roll < 0.82) {
      const file = pick(readable());
      const line = Math.floor(random() * file.lines.length);
      name = 'edit';
      args = {
        path: file.path,
        old_string: file.lines[line]!.trim().slice(0, 80),
        new_string: `${file.lines[line]!.trim().slice(0, 60)} // updated`,
      };
      output = `Edited ${file.path} (1 replacement at line ${line + 1}).`;
    } else {
      const file = pick(readable());
      const word = pick(['export', 'interface', 'function', 'return', 'type', 'const', 'async', 'Error']);
      const matches = file.lines.map((text, index) => ({ text, index })).filter(({ text }) => text.includes(word));
      const start = Math.floor(random() * Math.max(1, matches.length - 60));
      name = 'grep';
      args = { pattern: word, path: file.path };
      output = matches
        .slice(start, start + Math.round(between(5, 60)))
        .map(({ text, index }) => `${file.path}:${index + 1}:${text}`)
        .join('\n');
    }
    const text = random() < 0.3 ? [{ type: 'text' as const, text: 'Let me look at that.' }] : [];
    const reply: AssistantMessage = {
      role: 'assistant',
      content: [...text, { type: 'toolCall', id: callId, name, arguments: args }],
      stopReason: 'toolUse',
    };
    const result: ToolResultMessage = {
      role: 'toolResult',
      toolCallId: callId,
      toolName: name,
      content: [{ type: 'text', text: output }],
      ...(isError ? { isError: true } : {}),
    };
    call(reply, [result], toolMs);
  }

  /** A round of the retention bench's sessions, its ids renamed, its facts declared. */
  function scriptedRound(messages: readonly Message[], roundFacts: ReadonlyArray<{ keys: string[] }>) {
    const renamed = new Map<string, string>();
    const rename = (value: string) => {
      if (!renamed.has(value)) renamed.set(value, id());
      return renamed.get(value)!;
    };
    for (let index = 0; index < messages.length; index++) {
      const message = messages[index]!;
      if (message.role === 'user') {
        userTurn(typeof message.content === 'string' ? message.content : JSON.stringify(message.content));
      } else if (message.role === 'assistant') {
        const reply: AssistantMessage = {
          ...message,
          content: message.content.map((part) => (part.type === 'toolCall' ? { ...part, id: rename(part.id) } : part)),
        };
        const results: ToolResultMessage[] = [];
        while (messages[index + 1]?.role === 'toolResult') {
          const result = messages[++index] as ToolResultMessage;
          results.push({ ...result, toolCallId: rename(result.toolCallId) });
        }
        call(reply, results, between(500, 20_000));
      }
    }
    for (const fact of roundFacts) facts.push({ keys: fact.keys, at: events.length - 1 });
  }

  const rounds = fidelitySessions().flatMap((session) => session.rounds);
  let turn = 0;
  while (made < calls) {
    if (turn % 3 === 1 && rounds.length > 0) {
      const round = rounds.shift()!;
      if (round.messages[0]?.role !== 'user') userTurn(pick(ASKS));
      scriptedRound(round.messages, round.facts);
    } else {
      userTurn(pick(ASKS));
      const steps = 2 + Math.floor(random() * 9);
      for (let step = 0; step < steps && made < calls - 1; step++) toolStep();
      if (made < calls) {
        call(
          {
            role: 'assistant',
            content: [
              {
                type: 'text',
                text: 'Done: the change is in and the suite passes. Next I would tidy the error messages.',
              },
            ],
            stopReason: 'stop',
          },
          [],
          0,
        );
      }
    }
    turn++;
  }
  // A scripted round may end past `calls`: cut at the last call asked for.
  let seen = 0;
  const cut = events.findIndex((event) => event.type === 'call' && ++seen === calls);
  return { events: events.slice(0, cut + 1), facts: facts.filter((fact) => fact.at <= cut), calls };
}
