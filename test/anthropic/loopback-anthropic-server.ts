import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { approximateCounter } from 'ctxkit';
import { PromptCacheEmulator } from '../../bench/prompt-cache.js';
import type { PromptCacheRules } from '../../src/index.js';
import {
  CompactionKeys,
  compactAnthropic,
  type NativeCompactionLog,
  readAnthropicCompactions,
} from '../native/native-compaction-loopback.js';
import { findRequestViolation } from './anthropic-request-rules.js';

// A loopback stand-in for the Messages API: it checks each request the way the API does, answers an
// oversized one with Anthropic's own overflow error, and otherwise plays a small coding agent that
// calls tools. Requests without tools are summaries (ctxkit's summarizer sends none).

/**
 * Options of {@link startAnthropicServer}.
 */
export interface AnthropicServerOptions {
  /** The window: a prompt above it gets the overflow error. */
  contextWindow: number;
  /** Tool calls the agent makes per user message before it answers in text. @default 2 */
  toolCallsPerTurn?: number;
  /** The largest `max_tokens` accepted. @default 128_000 */
  maxOutputTokens?: number;
  /**
   * Emulate the prompt cache with these rules (prefixes cached at `cache_control` breakpoints) and
   * report its reads and writes in `usage`; `now` is the clock of its TTL. Without it, half of
   * each agent request is reported as read from the cache.
   */
  promptCache?: { rules: PromptCacheRules; now: () => number };
}

/** What the server saw. */
export interface AnthropicServerStats {
  requests: number;
  /** Requests refused for breaking a rule (never expected from ctxkit). */
  rejected: string[];
  /** Requests answered with the overflow error. */
  overflows: number;
  summaries: number;
  /** `max_tokens` of every summary request. */
  summaryMaxTokens: number[];
  /** The prompt tokens of every request the agent answered. */
  promptTokens: number[];
  /** With `promptCache`: the tokens each summary request read from the cache and sent in all. */
  summaryCache: Array<{ read: number; prompt: number }>;
  /** The usage each answered request reported, summaries marked. */
  usage: Array<{ summary: boolean; input: number; cacheRead: number; cacheWrite: number; output: number }>;
}

/** A running server. */
export interface AnthropicServer {
  /** `http://127.0.0.1:<port>`: the Anthropic SDK's `baseURL`; add `/v1` for `@ai-sdk/anthropic`. */
  url: string;
  stats: AnthropicServerStats;
  /** Native compaction (`compact_20260112`): what it did, and the key its blocks are signed with. */
  native: NativeCompactionLog & { rotateKey(): void };
  close(): Promise<void>;
}

type Block = { type: string; [key: string]: unknown };
type Body = {
  model: string;
  max_tokens: number;
  system?: string | Block[];
  messages: { role: string; content: string | Block[] }[];
  tools?: { name: string }[];
  stream?: boolean;
};

/**
 * The server's token count: 30% above ctxkit's estimate of the request's JSON, as Claude's tokenizer
 * counts more tokens than the o200k-like estimate on code and logs. ctxkit learns the true count from
 * the usage of each response, and runs on its estimate between (after archiving or compaction).
 */
export function countPromptTokens(body: Pick<Body, 'system' | 'messages' | 'tools'>): number {
  const parts = [
    JSON.stringify(body.system ?? ''),
    JSON.stringify(body.tools ?? []),
    ...body.messages.map((message) => JSON.stringify(message)),
  ];
  return Math.ceil(parts.reduce((sum, part) => sum + countCached(part), 0) * 1.3);
}

/** Counts are cached by text: most of each request is the previous request again. */
const counts = new Map<string, number>();
function countCached(text: string): number {
  let count = counts.get(text);
  if (count === undefined) {
    count = approximateCounter.count(text);
    if (counts.size > 10_000) counts.clear();
    counts.set(text, count);
  }
  return count;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_loopback' });
  response.end(JSON.stringify(body));
}

function error(response: ServerResponse, status: number, message: string): void {
  send(response, status, { type: 'error', error: { type: 'invalid_request_error', message } });
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** What the agent says next: a tool call after a user message, an answer once the calls are done. */
/**
 * A summary request: one without tools (ctxkit's rebuilt summary prompt), or the conversation with
 * ctxkit's summary instruction as the final user message (a summarizer reusing the prompt cache).
 */
function isSummary(body: Body): boolean {
  if (body.tools === undefined || body.tools.length === 0) return true;
  const last = body.messages[body.messages.length - 1];
  const content = last?.content;
  const text = typeof content === 'string' ? content : content?.map((block) => block['text'] ?? '').join('');
  return last?.role === 'user' && typeof text === 'string' && text.startsWith('Stop working on the task');
}

function reply(body: Body, calls: number, toolCallsPerTurn: number): { content: Block[]; stop: string } {
  if (isSummary(body)) {
    const summary = [
      '## Goal',
      '- Keep the parser tests passing while reading the generated logs.',
      '## Progress',
      `- Read ${body.messages.length} messages of logs; nothing failing so far.`,
      '## Next Steps',
      '- Continue with the next file.',
    ].join('\n');
    return { content: [{ type: 'text', text: summary }], stop: 'end_turn' };
  }
  const last = body.messages[body.messages.length - 1]!;
  const blocks = typeof last.content === 'string' ? [] : last.content;
  const answered = blocks.filter((block) => block.type === 'tool_result').length;
  const askedFresh = typeof last.content === 'string' || blocks.some((block) => block.type === 'text');
  // Count tool rounds since the last user text by walking back through the turns.
  let rounds = 0;
  for (let index = body.messages.length - 1; index >= 0; index--) {
    const turn = body.messages[index]!;
    if (turn.role !== 'user') continue;
    const content = typeof turn.content === 'string' ? [{ type: 'text' }] : turn.content;
    if (content.some((block) => block.type === 'text')) break;
    rounds++;
  }
  if (askedFresh || (answered > 0 && rounds < toolCallsPerTurn)) {
    const parallel = calls % 3 === 0 ? 2 : 1;
    const content: Block[] = [{ type: 'text', text: 'Reading the next log.' }];
    for (let index = 0; index < parallel; index++) {
      content.push({
        type: 'tool_use',
        id: `toolu_${calls}_${index}`,
        name: 'read_log',
        input: { file: `log-${calls}-${index}.txt` },
      });
    }
    return { content, stop: 'tool_use' };
  }
  return { content: [{ type: 'text', text: `Checked the logs: ${answered} results, all passing.` }], stop: 'end_turn' };
}

function streamReply(response: ServerResponse, message: Record<string, unknown>, content: Block[], stop: string): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': 'req_loopback' });
  const event = (type: string, data: unknown) => response.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
  const usage = message['usage'] as Record<string, number>;
  event('message_start', {
    type: 'message_start',
    message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } },
  });
  content.forEach((block, index) => {
    if (block.type === 'text') {
      event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      event('content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'text_delta', text: block['text'] },
      });
    } else {
      event('content_block_start', { type: 'content_block_start', index, content_block: { ...block, input: {} } });
      event('content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block['input']) },
      });
    }
    event('content_block_stop', { type: 'content_block_stop', index });
  });
  event('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: stop, stop_sequence: null },
    usage: { output_tokens: usage['output_tokens'] },
  });
  event('message_stop', { type: 'message_stop' });
  response.end();
}

/**
 * Starts the server on a free loopback port.
 *
 * @param options - The window and the agent's behaviour.
 * @returns The server, its counters, and `close`.
 */
export async function startAnthropicServer(options: AnthropicServerOptions): Promise<AnthropicServer> {
  const stats: AnthropicServerStats = {
    requests: 0,
    rejected: [],
    overflows: 0,
    summaries: 0,
    summaryMaxTokens: [],
    promptTokens: [],
    summaryCache: [],
    usage: [],
  };
  let calls = 0;
  const cache = options.promptCache ? new PromptCacheEmulator(options.promptCache.rules) : undefined;
  const keys = new CompactionKeys('anthropic');
  const native = { compactions: 0, refused: 0, rotateKey: () => keys.rotate() };
  const server = createServer(async (request, response) => {
    if (request.method !== 'POST' || !request.url?.endsWith('/v1/messages')) {
      error(response, 404, `Not found: ${request.method} ${request.url}`);
      return;
    }
    stats.requests++;
    const sent = JSON.parse(await readBody(request)) as Body;
    // Native compaction: a block this server did not sign is refused; what precedes one is dropped.
    const read = readAnthropicCompactions(sent.messages ?? [], keys, native, request.headers);
    if ('error' in read) {
      send(response, 400, read.error);
      return;
    }
    const body: Body = { ...sent, messages: read.messages };
    const violation =
      findRequestViolation(body.messages) ??
      cacheMarkViolation(body) ??
      (Number.isInteger(body.max_tokens) &&
      body.max_tokens >= 1 &&
      body.max_tokens <= (options.maxOutputTokens ?? 128_000)
        ? undefined
        : `max_tokens: ${body.max_tokens} is outside 1…${options.maxOutputTokens ?? 128_000}`);
    if (violation !== undefined) {
      stats.rejected.push(violation);
      error(response, 400, violation);
      return;
    }
    const prompt = countPromptTokens(body);
    if (prompt > options.contextWindow) {
      stats.overflows++;
      error(response, 400, `prompt is too long: ${prompt} tokens > ${options.contextWindow} maximum`);
      return;
    }
    const summary = isSummary(body);
    if (summary) {
      stats.summaries++;
      stats.summaryMaxTokens.push(body.max_tokens);
    } else {
      stats.promptTokens.push(prompt);
    }
    const replied = reply(body, calls++, options.toolCallsPerTurn ?? 2);
    const compacted = compactAnthropic(sent, read, prompt, keys, native, (messages) =>
      countPromptTokens({ ...body, messages }),
    );
    const content =
      compacted === undefined ? replied.content : [compacted.block, ...(compacted.pause ? [] : replied.content)];
    const stop = compacted?.pause ? 'compaction' : replied.stop;
    const cached = cache && !compacted ? cacheUsage(cache, body, options.promptCache!.now()) : undefined;
    const cacheRead = cached?.cacheRead ?? (summary || compacted ? 0 : Math.floor(prompt / 2));
    if (cached && summary)
      stats.summaryCache.push({ read: cacheRead, prompt: cached.input + cacheRead + cached.cacheWrite });
    const message = {
      id: `msg_${stats.requests}`,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content,
      stop_reason: stop,
      stop_sequence: null,
      usage: {
        input_tokens: cached ? cached.input : (compacted?.prompt ?? prompt) - cacheRead,
        cache_read_input_tokens: cacheRead,
        cache_creation_input_tokens: cached?.cacheWrite ?? 0,
        output_tokens: Math.ceil(approximateCounter.count(JSON.stringify(content)) * 1.2),
      },
    };
    stats.usage.push({
      summary,
      input: message.usage.input_tokens,
      cacheRead: message.usage.cache_read_input_tokens,
      cacheWrite: message.usage.cache_creation_input_tokens,
      output: message.usage.output_tokens,
    });
    if (compacted)
      (message.usage as Record<string, unknown>)['iterations'] = [
        compacted.iteration,
        { type: 'message', ...message.usage },
      ];
    if (body.stream) streamReply(response, message, content, stop);
    else send(response, 200, message);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    native,
    close: () =>
      new Promise<void>((resolve, reject) =>
        server.close((closeError) => (closeError ? reject(closeError) : resolve())),
      ),
  };
}

/**
 * The request's usage by the emulated prompt cache: its blocks in the API's order (tools, system,
 * then each content block of each message), each counted as {@link countPromptTokens} counts, with
 * a breakpoint at every block that carries `cache_control`.
 */
function cacheUsage(
  cache: PromptCacheEmulator,
  body: Body,
  at: number,
): { input: number; cacheRead: number; cacheWrite: number } {
  const blocks: Array<{ key: string; tokens: number }> = [];
  const breakpoints: number[] = [];
  const add = (value: object) => {
    // The mark is not part of the content: a block cached with it is read without it.
    const { cache_control: mark, ...content } = value as { cache_control?: unknown };
    const text = JSON.stringify(content);
    if (mark) breakpoints.push(blocks.length);
    blocks.push({ key: text, tokens: Math.ceil(countCached(text) * 1.3) });
  };
  for (const tool of body.tools ?? []) add(tool);
  if (typeof body.system === 'string') add({ type: 'text', text: body.system });
  else for (const block of body.system ?? []) add(block);
  for (const message of body.messages) {
    if (typeof message.content === 'string') add({ role: message.role, type: 'text', text: message.content });
    else for (const block of message.content) add({ role: message.role, ...block });
  }
  const usage = cache.send({ blocks, breakpoints, at });
  return { input: usage.input, cacheRead: usage.cacheRead ?? 0, cacheWrite: usage.cacheWrite ?? 0 };
}

/** The API's rules for `cache_control`: at most 4 marks in a request, none on a thinking block. */
function cacheMarkViolation(body: Body): string | undefined {
  const blocks: Array<Record<string, unknown>> = [
    ...(body.tools ?? []),
    ...(typeof body.system === 'string' ? [] : (body.system ?? [])),
    ...body.messages.flatMap((message) => (typeof message.content === 'string' ? [] : message.content)),
  ];
  const marked = blocks.filter((block) => block['cache_control'] != null);
  if (marked.length > 4) return `A maximum of 4 blocks with cache_control may be provided. Found ${marked.length}.`;
  if (marked.some((block) => block['type'] === 'thinking' || block['type'] === 'redacted_thinking')) {
    return 'cache_control cannot be set on thinking blocks';
  }
  return undefined;
}
