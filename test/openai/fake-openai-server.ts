// A loopback OpenAI: Chat Completions and Responses over HTTP for the real `openai` client. It
// validates every request by OpenAI's rules, counts the prompt with its own (stricter) tokenizer,
// answers OpenAI's real overflow error when the prompt exceeds the window, and plays a scripted
// tool-using model: a few tool calls per user turn, then an answer (signed, when it reads a user's
// `Sign every answer with "…".`: it honours only what is in its input). Requests without tools, and
// requests whose last message is ctxkit's summary instruction (a summarizer reusing the
// conversation), are summary requests and get a summary. With `promptCache` it emulates OpenAI's
// prompt cache (openai-prompt-cache.ts) and reports it as OpenAI does.

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { approximateCounter, type PromptCacheRules } from 'ctxkit';
import {
  CompactionKeys,
  type NativeCompactionLog,
  openaiCompactionItem,
  openaiCompactThreshold,
  openaiLines,
  readOpenAICompactions,
  summarizeForCompaction,
} from '../native/native-compaction-loopback.js';
import { automaticSteps, type OpenAICacheBlock, OpenAIPromptCache } from './openai-prompt-cache.js';
import { checkChatRequest, checkResponsesRequest, type OpenAIError } from './openai-rules.js';

type Wire = Record<string, unknown>;

export interface FakeOpenAIOptions {
  /** The prompt tokens the model accepts. */
  contextWindow: number;
  /** The most output tokens a request may ask for. */
  maxOutputTokens: number;
  /** The most tool calls the model makes at once after a user message (it varies from 1), before it answers. @default 3 */
  toolCallsPerTurn?: number;
  /**
   * Emulate the prompt cache with these rules (`OPENAI_AUTOMATIC_CACHE`, or `OPENAI_EXPLICIT_CACHE`
   * for GPT-5.6's breakpoints), apart for each `prompt_cache_key`, with `now` the clock of its TTL,
   * and report `cached_tokens` (and `cache_write_tokens` with breakpoints). Without it, a request
   * that starts with all of the previous request's messages reports that request's count as cached.
   */
  promptCache?: { rules: PromptCacheRules; now: () => number };
  /** How many times ctxkit's estimate of a string the server counts (a tokenizer that drifts above it). @default 1.5 */
  tokenRatio?: number;
}

/** The prompt cache's share of one answered request, as the server reported it. */
export interface FakeOpenAICacheUsage {
  endpoint: 'chat' | 'responses';
  summary: boolean;
  promptTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  promptCacheKey: string | undefined;
}

export interface FakeOpenAILog {
  /** Model requests (with tools), summary requests (without), by endpoint. */
  requests: { endpoint: 'chat' | 'responses'; summary: boolean; promptTokens: number }[];
  /** Requests refused for breaking a rule (never an overflow). */
  rejected: { endpoint: string; error: OpenAIError }[];
  /** Requests refused as too long. */
  overflows: number;
  /** The `max_completion_tokens` / `max_output_tokens` of each summary request. */
  summaryBudgets: number[];
  /** Every answered request's prompt and cache usage as reported (with `promptCache`). */
  cache: FakeOpenAICacheUsage[];
  /**
   * What the model read in the last Responses model request (not a summary request): its input as
   * JSON, after the compaction items in it were resolved (an item's summary in its place, what it
   * stands for dropped). Empty before the first.
   */
  lastModelInput: string;
}

export interface FakeOpenAI {
  baseURL: string;
  log: FakeOpenAILog;
  /** Native compaction (Responses): what it did, and the key its items are signed with. */
  native: NativeCompactionLog & { rotateKey(): void };
  close(): Promise<void>;
}

/**
 * The server's token count: half as much again as ctxkit's estimate of every string in the payload, plus
 * 4 per item, the way a provider's own tokenizer and framing drift above an estimate.
 */
const counted = new Map<string, number>();

/** Tool outputs come back in every request: each long string is counted once. */
function countString(text: string): number {
  if (text.length < 256) return approximateCounter.count(text);
  let tokens = counted.get(text);
  if (tokens === undefined) {
    tokens = approximateCounter.count(text);
    counted.set(text, tokens);
  }
  return tokens;
}

export function countPromptTokens(items: unknown[], ratio = 1.5): number {
  let tokens = 0;
  const walk = (value: unknown): void => {
    if (typeof value === 'string') tokens += countString(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(walk);
  };
  walk(items);
  return Math.ceil(tokens * ratio) + 4 * items.length;
}

async function readBody(request: IncomingMessage): Promise<Wire> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Wire;
}

const SUMMARY = [
  '## Goal',
  'Fix the failing parser tests in the repository.',
  '## Progress',
  '- Ran the tests; read src/parser.ts; fixed two cases in parseTypeArguments.',
  '## Next Steps',
  '- Run the tests again.',
].join('\n');

/** The text of a message or item: its string content, or its parts' text. */
function textOf(item: Wire): string {
  const content = item.content;
  return typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((part) => String((part as Wire).text ?? '')).join('')
      : '';
}

/** Whether the last message is ctxkit's instruction to summarize the conversation above it. */
function endsWithSummaryInstruction(items: Wire[]): boolean {
  const last = items[items.length - 1];
  if (last?.role !== 'user') return false;
  return textOf(last).startsWith('Stop working on the task');
}

/**
 * The user's standing instruction `Sign every answer with "…".`, if the model reads it: in a user
 * message of the input, or in the summary a compaction item it was sent holds (the developer message
 * `readOpenAICompactions` puts in its place). The model honours only what it reads.
 */
function signature(items: Wire[]): string | undefined {
  let found: string | undefined;
  for (const item of items) {
    if (item.role !== 'user' && item.role !== 'developer') continue;
    const match = /Sign every answer with "([^"]+)"/.exec(textOf(item));
    if (match) found = match[1];
  }
  return found;
}

/** A block's tokens, counted as countPromptTokens counts (a header adds its framing). */
function blockTokens(value: unknown, header: boolean, ratio: number): number {
  let tokens = 0;
  const walk = (part: unknown): void => {
    if (typeof part === 'string') tokens += countString(part);
    else if (Array.isArray(part)) part.forEach(walk);
    else if (typeof part === 'object' && part !== null) Object.values(part).forEach(walk);
  };
  walk(value);
  return Math.ceil(tokens * ratio) + (header ? 4 : 0);
}

/**
 * The request as the prompt cache sees it: the tools, the instructions, then each message's header
 * (its fields but the content) and each content part. A string content reads as one text part, and
 * a breakpoint mark is no part of the content (a prefix cached with one is read without it).
 */
function cacheBlocks(tools: unknown, instructions: unknown, items: Wire[], ratio: number): OpenAICacheBlock[] {
  const blocks: OpenAICacheBlock[] = [];
  const add = (value: unknown, header: boolean, breakpoint = false) =>
    blocks.push({ key: JSON.stringify(value), tokens: blockTokens(value, header, ratio), breakpoint });
  if (tools !== undefined) add({ tools }, false);
  if (typeof instructions === 'string') add({ instructions }, false);
  for (const item of items) {
    const field = item.type === 'function_call_output' ? 'output' : 'content' in item ? 'content' : undefined;
    if (field === undefined) {
      add(item, true);
      continue;
    }
    const { [field]: content, type, ...header } = item;
    add({ ...header, ...(type === 'message' ? {} : { type }) }, true);
    const parts =
      typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];
    for (const part of parts as Wire[]) {
      const { prompt_cache_breakpoint: mark, ...rest } = part;
      const kind = rest.type === 'input_text' || rest.type === 'output_text' ? 'text' : rest.type;
      add({ ...rest, type: kind }, false, mark != null);
    }
  }
  return blocks;
}

export async function startFakeOpenAI(options: FakeOpenAIOptions): Promise<FakeOpenAI> {
  const log: FakeOpenAILog = {
    requests: [],
    rejected: [],
    overflows: 0,
    summaryBudgets: [],
    cache: [],
    lastModelInput: '',
  };
  const promptCache = options.promptCache ? new OpenAIPromptCache(options.promptCache.rules) : undefined;
  const perTurn = options.toolCallsPerTurn ?? 3;
  const ratio = options.tokenRatio ?? 1.5;
  let calls = 0;
  let previous: { items: string[]; tokens: number } | undefined;
  const keys = new CompactionKeys('openai');
  const native = { compactions: 0, refused: 0, rotateKey: () => keys.rotate() };

  /** Cached tokens: the previous request's count when this one starts with all of its items. */
  function cachedTokens(items: unknown[], tokens: number): number {
    const serialized = items.map((item) => JSON.stringify(item));
    const hit = previous?.items.every((item, index) => serialized[index] === item) === true;
    const cached = hit && previous ? Math.floor(Math.min(previous.tokens, tokens) / 128) * 128 : 0;
    previous = { items: serialized, tokens };
    return cached;
  }

  /**
   * The request's cache usage: by the emulated cache with `promptCache` (never more than the prompt
   * the server counted), else by the previous request. Logged as reported.
   */
  function cacheUsage(
    endpoint: 'chat' | 'responses',
    body: Wire,
    items: Wire[],
    tokens: number,
    summary: boolean,
  ): { cached: number; written: number } {
    let cached: number;
    let written = 0;
    if (promptCache) {
      const mode = (body.prompt_cache_options as Wire | undefined)?.mode;
      const key = typeof body.prompt_cache_key === 'string' ? body.prompt_cache_key : undefined;
      const usage = promptCache.send({
        blocks: cacheBlocks(body.tools, body.instructions, items, ratio),
        key,
        mode: mode === 'explicit' ? 'explicit' : 'implicit',
        at: options.promptCache!.now(),
      });
      // The blocks are counted apart, so their sum can pass the prompt's count by a few tokens.
      cached = Math.min(usage.cached, tokens);
      if (cached < usage.cached && promptCache.rules.mode === 'automatic')
        cached = automaticSteps(cached, promptCache.rules.minPrefixTokens);
      written = Math.min(usage.written, tokens - cached);
    } else cached = cachedTokens(items, tokens);
    log.cache.push({
      endpoint,
      summary,
      promptTokens: tokens,
      cachedTokens: cached,
      cacheWriteTokens: written,
      promptCacheKey: typeof body.prompt_cache_key === 'string' ? body.prompt_cache_key : undefined,
    });
    return { cached, written };
  }

  /** `*_tokens_details` of the prompt: writes are reported by a cache with breakpoints only. */
  function promptDetails(usage: { cached: number; written: number }): Wire {
    const writes = promptCache?.rules.mode === 'breakpoints' ? { cache_write_tokens: usage.written } : {};
    return { cached_tokens: usage.cached, ...writes };
  }

  /** What the model does next: parallel tool calls right after a user message, then an answer. */
  function nextStep(
    items: Wire[],
    isUser: (item: Wire) => boolean,
  ): { calls: { id: string; name: string; arguments: string }[] } | { text: string } {
    if (!isUser(items[items.length - 1]!)) {
      const signed = signature(items);
      return { text: `Fixed one more case; the tests for it pass now.${signed === undefined ? '' : ` ${signed}`}` };
    }
    return {
      calls: Array.from({ length: 1 + ((calls + items.length) % perTurn) }, () => {
        calls++;
        // Arguments spelled with spaces, as models often do: the round trip must keep the spelling.
        return {
          id: `call_${calls}`,
          name: calls % 2 === 0 ? 'run_tests' : 'read_file',
          arguments: `{"path": "src/file${calls}.ts", "verbose": true}`,
        };
      }),
    };
  }

  function overflow(endpoint: 'chat' | 'responses', tokens: number): { status: number; body: Wire } {
    log.overflows++;
    const message =
      endpoint === 'chat'
        ? `This model's maximum context length is ${options.contextWindow} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`
        : 'Your input exceeds the context window of this model. Please adjust your input and try again.';
    return {
      status: 400,
      body: {
        error: {
          message,
          type: 'invalid_request_error',
          param: endpoint === 'chat' ? 'messages' : 'input',
          code: 'context_length_exceeded',
        },
      },
    };
  }

  function reject(endpoint: string, error: OpenAIError): { status: number; body: Wire } {
    log.rejected.push({ endpoint, error });
    return { status: 400, body: { error } };
  }

  function chat(body: Wire): { status: number; body: Wire } {
    const problem = checkChatRequest(body);
    if (problem) return reject('chat', problem);
    const messages = body.messages as Wire[];
    const summary = body.tools === undefined || endsWithSummaryInstruction(messages);
    const budget = Number(body.max_completion_tokens ?? body.max_tokens ?? options.maxOutputTokens);
    if (budget > options.maxOutputTokens) {
      return reject('chat', {
        message: `max_tokens is too large: ${budget}. This model supports at most ${options.maxOutputTokens} completion tokens, whereas you provided ${budget}.`,
        type: 'invalid_request_error',
        param: 'max_tokens',
        code: 'invalid_value',
      });
    }
    const tokens = countPromptTokens(body.tools === undefined ? messages : [...messages, body.tools], ratio);
    log.requests.push({ endpoint: 'chat', summary, promptTokens: tokens });
    if (tokens > options.contextWindow) return overflow('chat', tokens);
    const cache = cacheUsage('chat', body, messages, tokens, summary);
    if (summary) log.summaryBudgets.push(budget);
    const step = summary ? { text: SUMMARY } : nextStep(messages, (message) => message.role === 'user');
    const message: Wire = {
      role: 'assistant',
      content: 'text' in step ? step.text : null,
      refusal: null,
      annotations: [],
    };
    if ('calls' in step) {
      message.tool_calls = step.calls.map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: call.arguments },
      }));
    }
    const completionTokens = 40;
    return {
      status: 200,
      body: {
        id: `chatcmpl-${log.requests.length}`,
        object: 'chat.completion',
        created: 1_700_000_000,
        model: String(body.model),
        choices: [{ index: 0, message, logprobs: null, finish_reason: 'calls' in step ? 'tool_calls' : 'stop' }],
        usage: {
          prompt_tokens: tokens,
          completion_tokens: completionTokens,
          total_tokens: tokens + completionTokens,
          prompt_tokens_details: { ...promptDetails(cache), audio_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
        },
      },
    };
  }

  function responses(body: Wire): { status: number; body: Wire } {
    const problem = checkResponsesRequest(body);
    if (problem) return reject('responses', problem);
    // Native compaction: an item this server did not sign is refused; what precedes one is dropped.
    const given = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : (body.input as Wire[]);
    const read = readOpenAICompactions(given, keys, native);
    if ('error' in read) return { status: 400, body: read.error };
    const input = read.input;
    const tokens = countPromptTokens([...input, body.tools, body.instructions], ratio);
    const summary = body.tools === undefined || endsWithSummaryInstruction(input);
    log.requests.push({ endpoint: 'responses', summary, promptTokens: tokens });
    if (!summary) log.lastModelInput = JSON.stringify(input);
    if (tokens > options.contextWindow) return overflow('responses', tokens);
    const cache = cacheUsage('responses', body, input, tokens, summary);
    if (summary) log.summaryBudgets.push(Number(body.max_output_tokens));
    const step = summary ? { text: SUMMARY } : nextStep(input, (item) => item.role === 'user');
    const n = log.requests.length;
    const reasoning = {
      id: `rs_${n}`,
      type: 'reasoning',
      summary: [],
      encrypted_content: `gAAAA${'x'.repeat(40)}${n}`,
    };
    const output: Wire[] = [reasoning];
    const threshold = openaiCompactThreshold(body);
    if (threshold !== undefined && tokens > threshold) {
      native.compactions++;
      output.unshift(openaiCompactionItem(summarizeForCompaction(openaiLines(input), read.summary), keys, n));
    }
    if ('calls' in step) {
      step.calls.forEach((call, index) => {
        output.push({
          id: `fc_${n}_${index}`,
          type: 'function_call',
          status: 'completed',
          call_id: call.id,
          name: call.name,
          arguments: call.arguments,
        });
      });
    } else {
      output.push({
        id: `msg_${n}`,
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: step.text, annotations: [], logprobs: [] }],
      });
    }
    return {
      status: 200,
      body: {
        id: `resp_${n}`,
        object: 'response',
        created_at: 1_700_000_000,
        status: 'completed',
        model: String(body.model),
        output,
        usage: {
          input_tokens: tokens,
          input_tokens_details: promptDetails(cache),
          output_tokens: 60,
          output_tokens_details: { reasoning_tokens: 20 },
          total_tokens: tokens + 60,
        },
      },
    };
  }

  /**
   * `POST /responses/compact`: the compacted window, as the API returns it: every user message of
   * the input (as output message items, those kept before an earlier endpoint item included), then
   * one compaction item that stands for everything else (its summary holds the tool calls and an
   * earlier item's summary, no user request), and the usage of the pass. `model` is required, as
   * the API has it.
   */
  function compactEndpoint(body: Wire): { status: number; body: Wire } {
    if (typeof body.model !== 'string' || body.model === '') {
      const error = {
        message: "Missing required parameter: 'model'.",
        type: 'invalid_request_error',
        param: 'model',
        code: 'missing_required_parameter',
      };
      log.rejected.push({ endpoint: 'responses/compact', error: error as OpenAIError });
      return { status: 400, body: { error } };
    }
    const given =
      typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : ((body.input as Wire[]) ?? []);
    const read = readOpenAICompactions(given, keys, native);
    if ('error' in read) return { status: 400, body: read.error };
    const tokens = countPromptTokens(read.input, ratio);
    native.compactions++;
    const others = openaiLines(read.input).filter((line) => !line.startsWith('user: '));
    const summary = summarizeForCompaction(others, read.summary);
    const users = read.input
      .filter((item) => item.role === 'user')
      .map((item, index) => ({
        id: `msg_cmp_${native.compactions}_${index}`,
        type: 'message',
        role: 'user',
        status: 'completed',
        content:
          typeof item.content === 'string' ? [{ type: 'input_text', text: item.content }] : (item.content as Wire[]),
      }));
    const output = [...users, openaiCompactionItem(summary, keys, log.requests.length + native.compactions, true)];
    const outputTokens = Math.ceil(summary.length / 4);
    return {
      status: 200,
      body: {
        id: `resp_cmp_${native.compactions}`,
        object: 'response.compaction',
        created_at: 1_700_000_000,
        output,
        usage: {
          input_tokens: tokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: outputTokens,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: tokens + outputTokens,
        },
      },
    };
  }

  const server: Server = createServer(async (request, response) => {
    try {
      const body = await readBody(request);
      const url = request.url ?? '';
      const reply = url.endsWith('/chat/completions')
        ? chat(body)
        : url.endsWith('/responses/compact')
          ? compactEndpoint(body)
          : url.endsWith('/responses')
            ? responses(body)
            : {
                status: 404,
                body: {
                  error: { message: `Unknown path ${url}`, type: 'invalid_request_error', param: null, code: null },
                },
              };
      if (body.stream === true && reply.status === 200 && url.endsWith('/responses')) {
        // A streamed Responses call: the events the SDKs read, the finished response in the last one.
        const events = [
          {
            type: 'response.created',
            sequence_number: 0,
            response: { ...reply.body, status: 'in_progress', output: [] },
          },
          { type: 'response.completed', sequence_number: 1, response: reply.body },
        ];
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join(''));
        return;
      }
      response.writeHead(reply.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(reply.body));
    } catch (error) {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ error: { message: String(error), type: 'server_error', param: null, code: null } }),
      );
    }
  });
  // Node closes a keep-alive socket after 5 idle seconds; on a loaded machine a client can send its
  // next request on a socket being closed (ECONNRESET, and the clients here do not retry). The
  // server keeps idle sockets open for as long as a session here lasts instead.
  server.keepAliveTimeout = 10 * 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    log,
    native,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
