// One way for the end-to-end tests to run the loopback servers: started once for a `describe` block
// (or per test, closed after it), each refusing what the real provider refuses, plus a loopback
// Chat Completions server whose model is a script the test writes. The servers themselves live
// beside their provider's tests (test/openai, test/anthropic, test/ai-sdk/failing-proxy.ts).

import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll } from 'vitest';
import {
  type AnthropicServer,
  type AnthropicServerOptions,
  startAnthropicServer,
} from '../anthropic/loopback-anthropic-server.js';
import { type FakeOpenAI, type FakeOpenAIOptions, startFakeOpenAI } from '../openai/fake-openai-server.js';

/** A server started by a `use…` helper: `server` is there from `beforeAll` on. */
export interface Started<Server> {
  readonly server: Server;
}

function useStarted<Server extends { close(): Promise<void> }>(start: () => Promise<Server>): Started<Server> {
  let server: Server | undefined;
  beforeAll(async () => {
    server = await start();
  });
  afterAll(async () => {
    await server?.close();
  });
  return {
    get server() {
      if (!server) throw new Error('The loopback server starts in beforeAll: read `server` inside a test.');
      return server;
    },
  };
}

/**
 * The loopback OpenAI server (Chat Completions and Responses, OpenAI's rules and overflow error)
 * for the current `describe` block.
 *
 * @param options - Its window, the output budget, the tool calls per turn.
 * @returns A holder whose `server` is the running server.
 */
export function useLoopbackOpenAI(options: FakeOpenAIOptions): Started<FakeOpenAI> {
  return useStarted(() => startFakeOpenAI(options));
}

/**
 * The loopback Anthropic server (Messages, Anthropic's rules and overflow error) for the current
 * `describe` block.
 *
 * @param options - Its window and rules.
 * @returns A holder whose `server` is the running server.
 */
export function useLoopbackAnthropic(options: AnthropicServerOptions): Started<AnthropicServer> {
  return useStarted(() => startAnthropicServer(options));
}

/**
 * Servers a test starts itself, closed after that test (whether it passed or not).
 *
 * @returns `closeAfterTest(server)`, which returns the server.
 */
export function useServersPerTest(): <Server extends { close(): Promise<void> }>(server: Server) => Server {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const server of open.splice(0).reverse()) await server.close();
  });
  return (server) => {
    open.push(server);
    return server;
  };
}

type Wire = Record<string, unknown>;

/** What a scripted model answers: the assistant message of a Chat Completions reply. */
export interface ScriptedMessage {
  role: 'assistant';
  content: string | null;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
}

/** A loopback Chat Completions server whose model is a script. */
export interface ScriptedChatServer {
  /** `http://127.0.0.1:<port>`, for the `openai` client's `baseURL`. */
  baseURL: string;
  /** The bodies of the requests, in order. */
  requests: Wire[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<Wire> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Wire;
}

/**
 * Starts a loopback Chat Completions server that answers each request with what `reply` makes of
 * its body (the model reads only the request it is sent), with a fixed usage.
 *
 * @param reply - The scripted model.
 * @returns The running server.
 */
export async function startScriptedChatServer(reply: (body: Wire) => ScriptedMessage): Promise<ScriptedChatServer> {
  const requests: Wire[] = [];
  const server = createServer(async (request, response) => {
    try {
      const body = await readBody(request);
      requests.push(body);
      const message = reply(body);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          created: 0,
          model: String(body['model']),
          choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop', logprobs: null }],
          usage: { prompt_tokens: 1000, completion_tokens: 20, total_tokens: 1020 },
        }),
      );
    } catch (error) {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: String(error), type: 'server_error' } }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/**
 * A scripted Chat Completions server for the current `describe` block.
 *
 * @param reply - The scripted model.
 * @returns A holder whose `server` is the running server.
 */
export function useScriptedChatServer(reply: (body: Wire) => ScriptedMessage): Started<ScriptedChatServer> {
  return useStarted(() => startScriptedChatServer(reply));
}
