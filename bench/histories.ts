/**
 * Histories the benchmarks run on: a realistic coding-agent mix and a uniform one, with unique or
 * reused tool-call ids. Deterministic (a seeded generator), so every run measures the same input.
 */
import type { AssistantMessage, Message, ToolResultMessage, UserMessage } from '../src/index.js';

/** `unique`: `call_<n>` across the session; `reused`: `call_0` (and `call_1`, … for parallel calls) in every turn, as local models send. */
export type IdMode = 'unique' | 'reused';

/** A small deterministic generator (mulberry32). */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  'the test fails because the parser reads a stale token so we fix the loop and run the suite again then check the types in src and update the docs while the build passes'.split(
    ' ',
  );
const FILES = [
  'src/index.ts',
  'src/parser.ts',
  'src/lexer/token.ts',
  'test/parser.test.ts',
  'package.json',
  'README.md',
];

function words(random: () => number, chars: number): string {
  let text = '';
  while (text.length < chars) text += `${WORDS[Math.floor(random() * WORDS.length)]} `;
  return text.slice(0, Math.max(1, chars));
}

/** Tool output of a given size: log-like lines of paths, codes and counts. */
function output(random: () => number, chars: number): string {
  let text = '';
  let line = 0;
  while (text.length < chars) {
    const file = FILES[Math.floor(random() * FILES.length)]!;
    text += `${file}:${line + 1}:${(line * 7) % 80} ${random() < 0.2 ? 'error TS2345' : 'ok'} ${words(random, 24)}\n`;
    line++;
  }
  return text.slice(0, Math.max(2, chars));
}

/** Size of one tool result in the realistic mix: mostly short, some medium, a few large. */
function resultSize(random: () => number, scale: number): number {
  const roll = random();
  if (roll < 0.72) return Math.round((4 + random() * 40) * scale);
  if (roll < 0.94) return Math.round((40 + random() * 220) * scale);
  if (roll < 0.9992) return Math.round((260 + random() * 1600) * scale);
  return Math.round(8_000 + random() * 22_000); // a large file read or test log, not scaled
}

function toolCall(random: () => number, id: string) {
  const kind = random();
  if (kind < 0.45)
    return { type: 'toolCall' as const, id, name: 'bash', arguments: { command: `npm test -- ${words(random, 8)}` } };
  if (kind < 0.75)
    return {
      type: 'toolCall' as const,
      id,
      name: 'read',
      arguments: { path: FILES[Math.floor(random() * FILES.length)]! },
    };
  if (kind < 0.9)
    return {
      type: 'toolCall' as const,
      id,
      name: 'edit',
      arguments: { path: FILES[Math.floor(random() * FILES.length)]!, old: words(random, 12), new: words(random, 14) },
    };
  return { type: 'toolCall' as const, id, name: 'grep', arguments: { pattern: words(random, 6), path: 'src' } };
}

/** A generator of turns on the realistic mix. `scale` sizes the text so 14,000 messages hold about 500k characters. */
export class RealisticMix {
  private readonly random: () => number;
  private nextId = 0;
  constructor(
    private readonly ids: IdMode,
    seed = 7,
    private readonly scale = REALISTIC_SCALE,
  ) {
    this.random = createRandom(seed);
  }

  userMessage(): UserMessage {
    return { role: 'user', content: words(this.random, Math.round((20 + this.random() * 100) * this.scale)) };
  }

  assistantText(): AssistantMessage {
    return {
      role: 'assistant',
      content: [{ type: 'text', text: words(this.random, Math.round((20 + this.random() * 120) * this.scale)) }],
      stopReason: 'stop',
    };
  }

  /** One tool step: an assistant message with one or two calls (sometimes a line of text first), and their results. */
  toolStep(): Message[] {
    const parallel = this.random() < 0.12 ? 2 : 1;
    const calls = Array.from({ length: parallel }, (_, index) =>
      toolCall(this.random, this.ids === 'reused' ? `call_${index}` : `call_${this.nextId++}`),
    );
    const assistant: AssistantMessage = {
      role: 'assistant',
      content: this.random() < 0.3 ? [{ type: 'text', text: words(this.random, 30) }, ...calls] : calls,
      stopReason: 'toolUse',
    };
    const results: ToolResultMessage[] = calls.map((call) => ({
      role: 'toolResult',
      toolCallId: call.id,
      toolName: call.name,
      content: [{ type: 'text', text: output(this.random, resultSize(this.random, this.scale)) }],
      ...(this.random() < 0.08 ? { isError: true } : {}),
    }));
    return [assistant, ...results];
  }

  /** A turn: a user message, one to eight tool steps, a closing assistant text. */
  turn(): Message[] {
    const messages: Message[] = [this.userMessage()];
    const steps = 1 + Math.floor(this.random() * 8);
    for (let step = 0; step < steps; step++) messages.push(...this.toolStep());
    messages.push(this.assistantText());
    return messages;
  }
}

/** Text sizes are multiplied by this so that 14,000 messages hold about 500k model-facing characters. */
export const REALISTIC_SCALE = 0.12;

/** A realistic history of `count` messages (cut at a turn boundary, so every call has its result). */
export function realisticHistory(count: number, ids: IdMode, seed = 7): { history: Message[]; mix: RealisticMix } {
  const mix = new RealisticMix(ids, seed);
  const history: Message[] = [];
  while (history.length < count) history.push(...mix.turn());
  history.length = count;
  while (endsWithOpenCall(history)) history.pop();
  return { history, mix };
}

function endsWithOpenCall(history: Message[]): boolean {
  const last = history[history.length - 1];
  return last?.role === 'assistant' && last.content.some((part) => part.type === 'toolCall');
}

/** The uniform history of the earlier benchmark: user, call, result, answer, each about 35 characters. */
export function uniformHistory(count: number, ids: IdMode): Message[] {
  const messages: Message[] = [];
  const filler = (index: number) =>
    `step ${index}: checked src/module_${index % 97}.ts, ran the tests (${index % 7} failed). `.slice(0, 34);
  for (let index = 0; messages.length < count; index++) {
    const id = ids === 'reused' ? 'call_0' : `call_${index}`;
    messages.push({ role: 'user', content: filler(index) });
    messages.push({
      role: 'assistant',
      content: [{ type: 'toolCall', id, name: 'bash', arguments: { command: `npm test -- ${index}` } }],
    });
    messages.push({
      role: 'toolResult',
      toolCallId: id,
      toolName: 'bash',
      content: [{ type: 'text', text: filler(index + 1) }],
    });
    messages.push({ role: 'assistant', content: [{ type: 'text', text: filler(index + 2) }] });
  }
  messages.length = count;
  while (endsWithOpenCall(messages)) messages.pop();
  return messages;
}

/** Characters a model reads: message text, tool-call names and JSON arguments, tool output. */
export function modelFacingCharacters(messages: readonly Message[]): number {
  let total = 0;
  for (const message of messages) {
    if (typeof message.content === 'string') {
      total += message.content.length;
      continue;
    }
    for (const part of message.content) {
      if (part.type === 'text') total += part.text.length;
      else if (part.type === 'toolCall') total += part.name.length + JSON.stringify(part.arguments).length;
    }
  }
  return total;
}

/** A shallow copy of every message: new objects, so no per-message cache applies to them. */
export function freshCopies(messages: readonly Message[]): Message[] {
  return messages.map((message) => ({ ...message }) as Message);
}
