import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

// A loopback proxy in front of a loopback provider server that answers chosen requests itself with
// a transient error (a 500 or a 429, with `retry-after-ms: 0` so the SDK's retry runs at once) and
// forwards every other request unchanged.

/** What a request looks like to {@link FailingProxyOptions.failWith}. */
export interface ProxiedRequest {
  /** The parsed JSON body. */
  body: { tools?: unknown[]; [key: string]: unknown };
  /** How many requests came before this one. */
  index: number;
}

/** Options of {@link startFailingProxy}. */
export interface FailingProxyOptions {
  /** The server to forward to, `http://127.0.0.1:<port>`. */
  target: string;
  /** The status to answer a request with instead of forwarding it, or undefined to forward it. */
  failWith: (request: ProxiedRequest) => 500 | 429 | undefined;
}

/** A running proxy. */
export interface FailingProxy {
  url: string;
  /** The statuses it answered itself, in order. */
  failures: number[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Starts the proxy on a free loopback port.
 *
 * @param options - Where to forward, and which requests to fail.
 * @returns The proxy, the failures it answered, and `close`.
 */
export async function startFailingProxy(options: FailingProxyOptions): Promise<FailingProxy> {
  const failures: number[] = [];
  let index = 0;
  const server = createServer(async (request, response) => {
    const text = await readBody(request);
    const status = options.failWith({ body: JSON.parse(text), index: index++ });
    if (status !== undefined) {
      failures.push(status);
      const type = status === 429 ? 'rate_limit_error' : 'api_error';
      response.writeHead(status, { 'content-type': 'application/json', 'retry-after-ms': '0' });
      response.end(JSON.stringify({ type: 'error', error: { type, message: `Transient ${status} from the proxy` } }));
      return;
    }
    const upstream = await fetch(`${options.target}${request.url}`, {
      method: request.method ?? 'POST',
      headers: { 'content-type': request.headers['content-type'] ?? 'application/json' },
      body: text,
    });
    response.writeHead(upstream.status, {
      'content-type': upstream.headers.get('content-type') ?? 'application/json',
    });
    if (upstream.body) for await (const chunk of upstream.body) response.write(chunk);
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    failures,
    close: () =>
      new Promise<void>((resolve, reject) =>
        server.close((closeError) => (closeError ? reject(closeError) : resolve())),
      ),
  };
}
