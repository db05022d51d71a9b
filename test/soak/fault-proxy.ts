// A loopback proxy in front of the loopback provider servers that injects the faults a long session
// meets: a forced overflow (the provider's own overflow error, whatever the request's size), a 500
// and a 429 (both with `retry-after-ms`, which the SDKs honour before they retry). Faults are taken
// from a queue, one per model request (a request with tools); summary requests pass through. For
// the Anthropic dialect it also checks what the loopback server does not: every thinking block
// carries a signature, as the Messages API requires.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault = 'overflow' | '500' | '429';
export type Dialect = 'anthropic' | 'openai';

export interface FaultProxyStats {
  modelRequests: number;
  summaryRequests: number;
  forced: Record<Fault, number>;
  /** Requests the proxy refused for breaking a rule the server does not check. */
  rejected: string[];
}

export interface FaultProxy {
  /** The proxy's origin: use it where the server's origin would go. */
  url: string;
  /** Faults for the next model requests, in order. */
  queue: Fault[];
  stats: FaultProxyStats;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The provider's error body for a fault, as its API writes it. */
function faultReply(fault: Fault, dialect: Dialect, path: string, window: number): { status: number; body: Json } {
  const tokens = window + 1_500;
  if (dialect === 'anthropic') {
    const error =
      fault === 'overflow'
        ? { type: 'invalid_request_error', message: `prompt is too long: ${tokens} tokens > ${window} maximum` }
        : fault === '429'
          ? { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' }
          : { type: 'api_error', message: 'Internal server error' };
    return { status: fault === 'overflow' ? 400 : Number(fault), body: { type: 'error', error } };
  }
  if (fault === 'overflow') {
    const message = path.endsWith('/responses')
      ? 'Your input exceeds the context window of this model. Please adjust your input and try again.'
      : `This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`;
    return {
      status: 400,
      body: { error: { message, type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } },
    };
  }
  if (fault === '429') {
    return {
      status: 429,
      body: {
        error: {
          message: `Rate limit reached for gpt-4o in organization org-soak on tokens per min (TPM): Limit 30000, Used 29000, Requested ${tokens}.`,
          type: 'tokens',
          param: null,
          code: 'rate_limit_exceeded',
        },
      },
    };
  }
  return {
    status: 500,
    body: { error: { message: 'The server had an error while processing your request.', type: 'server_error' } },
  };
}

/** A thinking block without its signature, which the Messages API refuses; else undefined. */
function unsignedThinking(body: Json): string | undefined {
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  for (const [index, message] of messages.entries()) {
    if (!Array.isArray(message.content)) continue;
    for (const [position, block] of (message.content as Json[]).entries()) {
      const at = `messages.${index}.content.${position}`;
      if (block.type === 'thinking' && (typeof block.signature !== 'string' || block.signature === '')) {
        return `${at}.thinking.signature: Field required`;
      }
      if (block.type === 'redacted_thinking' && (typeof block.data !== 'string' || block.data === '')) {
        return `${at}.redacted_thinking.data: Field required`;
      }
    }
  }
  return undefined;
}

/** An error reply; a 429 or 500 says to retry after a millisecond (an overflow is not retried). */
function send(response: ServerResponse, status: number, body: Json): void {
  const retry = status === 429 || status >= 500 ? { 'retry-after-ms': '1', 'x-should-retry': 'true' } : {};
  response.writeHead(status, { 'content-type': 'application/json', ...retry });
  response.end(JSON.stringify(body));
}

/**
 * Starts a proxy to `target` (an origin such as `http://127.0.0.1:1234`).
 *
 * @param options - The server to forward to, the API it speaks, and the window its overflow errors name.
 */
export async function startFaultProxy(options: {
  target: string;
  dialect: Dialect;
  window: number;
}): Promise<FaultProxy> {
  const stats: FaultProxyStats = {
    modelRequests: 0,
    summaryRequests: 0,
    forced: { overflow: 0, '500': 0, '429': 0 },
    rejected: [],
  };
  const queue: Fault[] = [];
  const server = createServer(async (request, response) => {
    try {
      const raw = await readBody(request);
      const path = request.url ?? '/';
      const body = raw.length > 0 ? (JSON.parse(raw.toString('utf8')) as Json) : {};
      const model = Array.isArray(body.tools) && body.tools.length > 0;
      if (model) stats.modelRequests++;
      else stats.summaryRequests++;
      if (options.dialect === 'anthropic') {
        const problem = unsignedThinking(body);
        if (problem !== undefined) {
          stats.rejected.push(problem);
          send(response, 400, { type: 'error', error: { type: 'invalid_request_error', message: problem } });
          return;
        }
      }
      const fault = model ? queue.shift() : undefined;
      if (fault !== undefined) {
        stats.forced[fault]++;
        const reply = faultReply(fault, options.dialect, path, options.window);
        send(response, reply.status, reply.body);
        return;
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string' && name !== 'host' && name !== 'content-length' && name !== 'connection') {
          headers[name] = value;
        }
      }
      const forwarded = await fetch(`${options.target}${path}`, {
        method: request.method ?? 'POST',
        headers,
        ...(raw.length > 0 ? { body: raw } : {}),
      });
      const text = Buffer.from(await forwarded.arrayBuffer());
      response.writeHead(forwarded.status, {
        'content-type': forwarded.headers.get('content-type') ?? 'application/json',
        'request-id': forwarded.headers.get('request-id') ?? 'req_soak',
      });
      response.end(text);
    } catch (error) {
      send(response, 502, { error: { message: `proxy: ${String(error)}`, type: 'proxy_error' } });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    queue,
    stats,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
