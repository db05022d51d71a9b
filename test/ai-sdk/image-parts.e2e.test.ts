import type { ModelMessage } from 'ai';
import type { Message } from 'ctxkit';
import { toModelMessages } from 'ctxkit/ai-sdk';
import { fromOpenAIChat } from 'ctxkit/openai';
import { imageMessage } from 'ctxkit/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useLoopbackAnthropic, useScriptedChatServer } from '../harness/loopback.js';
import { majors } from './sdk-majors.js';

// `ai` 7 deprecates the `image` part of a user message (AISDK_DEP_IMAGE_CONTENT_PART). An image
// ctxkit made (not read from the host's own `image` part) goes out as a `file` part with its
// image/* type, which `ai` 7 sends without the warning and `ai` 6 sends as an image too.

const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const model = useScriptedChatServer(() => ({ role: 'assistant', content: 'A single pixel.' }));
const anthropic = useLoopbackAnthropic({ contextWindow: 200_000 });

interface Logged {
  type: string;
  setting?: string;
  message?: string;
}

let logged: Logged[];
const globals = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
let before: unknown;
beforeEach(() => {
  logged = [];
  before = globals.AI_SDK_LOG_WARNINGS;
  globals.AI_SDK_LOG_WARNINGS = (options: { warnings: Logged[] }) => logged.push(...options.warnings);
});
afterEach(() => {
  globals.AI_SDK_LOG_WARNINGS = before;
});

/** The image_url parts of the user messages the loopback received in its last request. */
function sentImages(): unknown[] {
  const body = model.server.requests.at(-1)!;
  const messages = body['messages'] as { role: string; content: unknown }[];
  return messages.flatMap((message) =>
    Array.isArray(message.content)
      ? (message.content as { type: string; image_url?: unknown }[]).filter((part) => part.type === 'image_url')
      : [],
  );
}

const fromTesting = (): Message[] => [imageMessage(PIXEL, { text: 'What is this?' })];
const fromChat = (): Message[] =>
  fromOpenAIChat([
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is this?' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PIXEL}` } },
      ],
    },
  ]).messages;

describe.each(majors)('ctxkit images through generateText on $name', (major) => {
  it.each([
    ['an imageMessage builder', fromTesting],
    ['a data-URL image read by fromOpenAIChat', fromChat],
  ])('%s is written as a file part, sent as an image, with no deprecation warning', async (_, build) => {
    const { messages } = toModelMessages({ messages: build() });
    const user = messages[0] as Extract<ModelMessage, { role: 'user' }>;
    expect((user.content as { type: string }[]).map((part) => part.type)).toEqual(['text', 'file']);
    const provider = major.createOpenAI({ apiKey: 'test-key', baseURL: model.server.baseURL });
    const result = await major.ai.generateText({ model: provider.chat('gpt-4o'), messages, maxRetries: 0 });
    expect(result.text).toBe('A single pixel.');
    expect(logged.filter((warning) => warning.type === 'deprecated')).toEqual([]);
    expect(sentImages()).toEqual([{ type: 'image_url', image_url: { url: `data:image/png;base64,${PIXEL}` } }]);
  });
});

describe.each(majors)('ctxkit images through generateText to Anthropic on $name', (major) => {
  it('sends an imageMessage as an Anthropic image block, with no deprecation warning', async () => {
    const bodies: { messages: { content: unknown }[] }[] = [];
    const provider = major.createAnthropic({
      apiKey: 'test-key',
      baseURL: `${anthropic.server.url}/v1`,
      fetch: async (url, init) => {
        bodies.push(JSON.parse(String(init?.body)));
        return fetch(url, init);
      },
    });
    const { messages } = toModelMessages({ messages: fromTesting() });
    const result = await major.ai.generateText({ model: provider('claude-sonnet-4-6'), messages, maxRetries: 0 });
    expect(result.text.length).toBeGreaterThan(0);
    expect(anthropic.server.stats.rejected).toEqual([]);
    expect(logged.filter((warning) => warning.type === 'deprecated')).toEqual([]);
    expect(bodies.at(-1)!.messages[0]!.content).toContainEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: PIXEL },
    });
  });
});
