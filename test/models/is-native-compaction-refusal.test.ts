// The refusals are the errors the real clients throw against the loopback servers, which answer with
// each provider's own error body; overflow and rate-limit errors must not pass for refusals.

import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isContextOverflow, isNativeCompactionRefusal } from '../../src/index.js';
import { type AnthropicServer, startAnthropicServer } from '../anthropic/loopback-anthropic-server.js';
import { type FakeOpenAI, startFakeOpenAI } from '../openai/fake-openai-server.js';

async function thrown(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('isNativeCompactionRefusal', () => {
  let openaiServer: FakeOpenAI;
  let anthropicServer: AnthropicServer;
  beforeAll(async () => {
    openaiServer = await startFakeOpenAI({ contextWindow: 2_000, maxOutputTokens: 1_000 });
    anthropicServer = await startAnthropicServer({ contextWindow: 2_000 });
  });
  afterAll(async () => {
    await Promise.all([openaiServer.close(), anthropicServer.close()]);
  });

  it("recognises OpenAI's invalid_encrypted_content from the openai client", async () => {
    const client = new OpenAI({ apiKey: 'test', baseURL: openaiServer.baseURL, maxRetries: 0 });
    const error = await thrown(() =>
      client.responses.create({
        model: 'gpt-5',
        input: [
          { type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAAAstale.key' },
          { role: 'user', content: 'go on' },
        ],
      }),
    );
    expect(String(error)).toContain('could not be verified');
    expect(isNativeCompactionRefusal(error)).toBe(true);
    expect(isContextOverflow(error)).toBe(false);
  });

  it("recognises Anthropic's compaction_signature_invalid from the Anthropic client", async () => {
    const client = new Anthropic({ apiKey: 'test', baseURL: anthropicServer.url, maxRetries: 0 });
    const error = await thrown(() =>
      client.beta.messages.create({
        model: 'claude-sonnet-4-6',
        max_tokens: 100,
        betas: ['compact-2026-01-12'],
        messages: [
          { role: 'assistant', content: [{ type: 'compaction', content: 'x', encrypted_content: 'Eqforged.mac' }] },
          { role: 'user', content: 'go on' },
        ],
      }),
    );
    expect(isNativeCompactionRefusal(error)).toBe(true);
    expect(isContextOverflow(error)).toBe(false);
  });

  it("refuses another provider's payload with the receiving provider's own error", async () => {
    // A block the Anthropic server made, sent to OpenAI as an item: OpenAI's invalid_encrypted_content.
    const anthropicClient = new Anthropic({ apiKey: 'test', baseURL: anthropicServer.url, maxRetries: 0 });
    const made = await anthropicClient.beta.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      betas: ['compact-2026-01-12'],
      context_management: { edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: 1 } }] },
      tools: [{ name: 'read_log', input_schema: { type: 'object', properties: {} } }],
      messages: [{ role: 'user', content: 'Read the logs.' }],
    });
    const block = made.content[0] as { type: string; encrypted_content: string };
    expect(block.type).toBe('compaction');
    const openaiClient = new OpenAI({ apiKey: 'test', baseURL: openaiServer.baseURL, maxRetries: 0 });
    const error = await thrown(() =>
      openaiClient.responses.create({
        model: 'gpt-5',
        input: [
          { type: 'compaction', encrypted_content: block.encrypted_content },
          { role: 'user', content: 'go on' },
        ],
      }),
    );
    expect(error).toMatchObject({ status: 400, code: 'invalid_encrypted_content' });
    expect(isNativeCompactionRefusal(error)).toBe(true);
  });

  it('is false for the same servers’ overflow errors', async () => {
    const client = new OpenAI({ apiKey: 'test', baseURL: openaiServer.baseURL, maxRetries: 0 });
    const error = await thrown(() =>
      client.responses.create({ model: 'gpt-5', input: [{ role: 'user', content: 'word '.repeat(5_000) }] }),
    );
    expect(isContextOverflow(error)).toBe(true);
    expect(isNativeCompactionRefusal(error)).toBe(false);
  });

  it('recognises a provider or proxy that does not know the item, and not a rate limit', () => {
    expect(isNativeCompactionRefusal(new Error('400 Invalid input: item type "compaction" is not supported'))).toBe(
      true,
    );
    expect(
      isNativeCompactionRefusal({ error: { message: "Invalid value: 'compaction'. Supported values are: 'message'" } }),
    ).toBe(true);
    expect(isNativeCompactionRefusal(new Error('429 Rate limit reached for tokens per min'))).toBe(false);
    expect(isNativeCompactionRefusal(undefined)).toBe(false);
  });
});
