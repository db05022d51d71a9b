import { describe, expect, it } from 'vitest';
import { isContextOverflow } from '../../src/index.js';

/** A thrown SDK error: a message, a status, and the provider's body under `error`. */
function sdkError(message: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), extra);
}

const overflows: Array<[string, unknown]> = [
  [
    'OpenAI chat (SDK error)',
    sdkError(
      "400 This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.",
      {
        status: 400,
        code: 'context_length_exceeded',
      },
    ),
  ],
  [
    'OpenAI Responses (body)',
    {
      error: {
        message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
        type: 'invalid_request_error',
        code: 'context_length_exceeded',
      },
    },
  ],
  ['OpenAI code only', { error: { code: 'context_length_exceeded', message: 'Bad request' } }],
  [
    'Anthropic',
    sdkError(
      '400 {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 213462 tokens > 200000 maximum"}}',
      { status: 400 },
    ),
  ],
  [
    'Anthropic request too large (413)',
    { status: 413, error: { type: 'request_too_large', message: 'Request exceeds the maximum size' } },
  ],
  [
    'Gemini',
    {
      error: {
        code: 400,
        status: 'INVALID_ARGUMENT',
        message: 'The input token count (1196265) exceeds the maximum number of tokens allowed (1048575).',
      },
    },
  ],
  [
    'Bedrock',
    Object.assign(new Error('Input is too long for requested model.'), {
      name: 'ValidationException',
      $metadata: { httpStatusCode: 400 },
    }),
  ],
  [
    'Bedrock (Claude)',
    sdkError(
      'ValidationException: input length and `max_tokens` exceed context limit: 198000 + 21333 > 200000, decrease input length or `max_tokens` and try again',
    ),
  ],
  [
    'Mistral',
    {
      status: 400,
      body: '{"object":"error","message":"Prompt contains 40312 tokens and 0 draft tokens, too large for model with 32768 maximum context length","type":"invalid_request_message_error"}',
    },
  ],
  [
    'Groq',
    {
      error: {
        message: 'Please reduce the length of the messages or completion.',
        type: 'invalid_request_error',
        param: 'messages',
      },
    },
  ],
  [
    'xAI',
    sdkError("This model's maximum prompt length is 131072 but the request contains 150321 tokens.", { status: 400 }),
  ],
  [
    'OpenRouter',
    {
      error: {
        code: 400,
        message:
          "This endpoint's maximum context length is 200000 tokens. However, you requested about 251234 tokens (250000 of text input, 1234 in the output). Please reduce the length of either one.",
      },
    },
  ],
  [
    'llama.cpp',
    {
      error: {
        code: 400,
        message:
          'the request exceeds the available context size, try increasing the context size or enable context shift',
        type: 'exceed_context_size_error',
      },
    },
  ],
  [
    'LM Studio',
    sdkError(
      'Trying to keep the first 6022 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough.',
    ),
  ],
  ['Ollama', 'prompt too long; exceeded max context length by 1024 tokens'],
  ['HTTP 413 with no text', { status: 413, message: 'Payload Too Large' }],
  [
    'nested cause',
    sdkError('Request failed', { cause: { error: { message: 'prompt is too long: 300000 tokens > 200000 maximum' } } }),
  ],
  [
    'failed assistant message',
    {
      role: 'assistant',
      content: [],
      stopReason: 'error',
      errorMessage: 'prompt is too long: 201000 tokens > 200000 maximum',
    },
  ],
];

const notOverflows: Array<[string, unknown]> = [
  [
    'OpenAI rate limit',
    sdkError('429 Rate limit reached for gpt-4o on tokens per min (TPM): Limit 30000, Used 29000, Requested 4000.', {
      status: 429,
      code: 'rate_limit_exceeded',
    }),
  ],
  [
    'Groq tokens-per-minute 413',
    {
      status: 413,
      error: {
        message:
          'Request too large for model `llama-3.3-70b-versatile` in organization org_1 on tokens per minute (TPM): Limit 6000, Requested 12000, please reduce your message size and try again.',
        type: 'tokens',
        code: 'rate_limit_exceeded',
      },
    },
  ],
  [
    'Bedrock throttling',
    Object.assign(new Error('Too many tokens, please wait before trying again.'), { name: 'ThrottlingException' }),
  ],
  ['Anthropic overloaded', { status: 529, error: { type: 'overloaded_error', message: 'Overloaded' } }],
  [
    'Gemini quota',
    { error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'Resource has been exhausted (e.g. check quota).' } },
  ],
  ['plain network error', new TypeError('fetch failed')],
  ['an unrelated bad request', { status: 400, error: { message: 'Invalid value for tool_choice' } }],
  ['nothing', undefined],
  ['a number', 42],
];

describe('isContextOverflow', () => {
  it.each(overflows)('recognises %s', (_, value) => {
    expect(isContextOverflow(value)).toBe(true);
  });

  it.each(notOverflows)('does not mistake %s for an overflow', (_, value) => {
    expect(isContextOverflow(value)).toBe(false);
  });

  it('detects silent overflow from usage when the window is known', () => {
    const message = {
      role: 'assistant',
      content: [],
      stopReason: 'stop',
      usage: { input: 120_000, output: 10, cacheRead: 10_000 },
    };
    expect(isContextOverflow(message, { contextWindow: 128_000 })).toBe(true);
    expect(isContextOverflow(message)).toBe(false);
    expect(isContextOverflow({ input: 100_000, output: 0 }, { contextWindow: 128_000 })).toBe(false);
  });

  it('survives cyclic error objects', () => {
    const error: Record<string, unknown> = { message: 'boom' };
    error.cause = error;
    expect(isContextOverflow(error)).toBe(false);
  });
});
