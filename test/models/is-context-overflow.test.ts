import { describe, expect, it } from 'vitest';
import { isContextOverflow } from '../../src/index.js';

/** A thrown SDK error: a message, a status, and the provider's body under `error`. */
function sdkError(message: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), extra);
}

/**
 * The shapes a provider's text reaches a host in: the bare text, a JSON body, a thrown SDK error
 * (`.status`, `.error`), a `cause` chain, a REST body given as an array, a body kept as a JSON
 * string (`responseBody`), and a failed assistant message.
 */
function shapes(text: string, status: number): Array<[string, unknown]> {
  return [
    ['text', text],
    ['body', { error: { message: text, type: 'invalid_request_error' } }],
    ['SDK error', sdkError(`${status} ${text}`, { status, error: { message: text } })],
    ['cause chain', sdkError('Request failed', { cause: sdkError('Provider error', { cause: new Error(text) }) })],
    ['array body', [{ error: { code: status, message: text, status: 'INVALID_ARGUMENT' } }]],
    ['JSON string body', { statusCode: status, responseBody: JSON.stringify({ error: { message: text } }) }],
    ['failed assistant message', { role: 'assistant', content: [], stopReason: 'error', errorMessage: text }],
  ];
}

/** Providers' own overflow texts, each with the HTTP status it comes with. */
const overflowTexts: Array<[string, string, number]> = [
  [
    'OpenAI chat',
    "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.",
    400,
  ],
  [
    'OpenAI chat (with completion)',
    "This model's maximum context length is 8192 tokens. However, you requested 8554 tokens (7554 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.",
    400,
  ],
  [
    'OpenAI Responses',
    'Your input exceeds the context window of this model. Please adjust your input and try again.',
    400,
  ],
  ['Anthropic', 'prompt is too long: 213462 tokens > 200000 maximum', 400],
  [
    'Anthropic input + max_tokens',
    'input length and `max_tokens` exceed context limit: 174167 + 64000 > 200000, decrease input length or `max_tokens` and try again',
    400,
  ],
  ['Gemini', 'The input token count (1234567) exceeds the maximum number of tokens allowed (1048576).', 400],
  ['Bedrock', 'Input is too long for requested model.', 400],
  ['Bedrock (input tokens)', 'Too many input tokens. Max input tokens: 8192, request input token count: 9279', 400],
  [
    'Mistral',
    'Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length',
    400,
  ],
  ['Groq', 'Please reduce the length of the messages or completion.', 400],
  [
    'Cerebras',
    'Please reduce the length of the messages or completion. Current length is 42328 while limit is 40000',
    400,
  ],
  ['xAI', "This model's maximum prompt length is 131072 but the request contains 136973 tokens.", 400],
  [
    'xAI (budget)',
    'Failed to start sampling: [input_too_large] Current message (1149677 tokens) exceeds budget (975424 tokens)',
    400,
  ],
  [
    'xAI (context window)',
    "Failed to start sampling: [input_too_large] The prompt is too long for this model's context window (871750 tokens > 500000 tokens)",
    400,
  ],
  [
    'OpenRouter',
    "This endpoint's maximum context length is 32768 tokens. However, you requested about 42832 tokens (42832 of text input). Please reduce the length of either one.",
    400,
  ],
  [
    'vLLM',
    "This model's maximum context length is 8192 tokens. However, you requested 8203 tokens (7691 in the messages, 512 in the completion). Please reduce the length of the messages or completion.",
    400,
  ],
  ['vLLM (older)', 'The prompt (total length 25938) is too long to fit into the model (context length 4096).', 400],
  ['Together', "The input (516368 tokens) is longer than the model's context length (262144 tokens).", 400],
  ['llama.cpp', 'request (4390 tokens) exceeds the available context size (4096 tokens), try increasing it', 400],
  ['llama.cpp (older)', 'the request exceeds the available context size, try increasing it', 400],
  ['llama.cpp (server_error)', 'Context size has been exceeded.', 500],
  ['llama-cpp-python', 'Requested tokens (2285) exceed context window of 2048', 400],
  ['LM Studio', 'Cannot truncate prompt with n_keep (15028) >= n_ctx (7424)', 400],
  [
    'LM Studio (0.3)',
    'Trying to keep the first 111490 tokens when context the overflows. However, the model is loaded with context length of only 32768 tokens, which is not enough.',
    400,
  ],
  [
    'LM Studio (keep > context)',
    'The number of tokens to keep from the initial prompt is greater than the context length. Try to load the model with a larger context length, or provide a shorter input',
    400,
  ],
  ['Ollama', 'prompt too long; exceeded max context length by 4021 tokens', 400],
  ['Moonshot', 'Your request exceeded model token limit: 262144 (requested: 300000)', 400],
  ['HTTP 413 as text (no body)', '413 status code (no body)', 413],
  ['HTTP 413 reason phrase', '413 Request Entity Too Large', 413],
  [
    'Vertex AI',
    'Unable to submit request because the input token count is 38429 but model only supports up to 32768. Reduce the input token count and try again.',
    400,
  ],
  [
    'vLLM (decoder prompt)',
    'The decoder prompt (length 17772) is longer than the maximum model length of 16384. Make sure that `max_model_len` is no smaller than the number of text tokens.',
    400,
  ],
  ['vLLM V1 (prompt length)', 'Prompt length of 5016 is longer than the maximum model length of 4096.', 400],
  [
    'Cohere',
    'too many tokens: total number of tokens (prompt and prediction) cannot exceed 2048 - received 6354. Try using a shorter prompt or a smaller max_tokens value.',
    400,
  ],
  ['llama-cpp-python (older)', 'Requested tokens exceed context window of 512', 400],
  [
    'Hugging Face TGI (inputs + max_new_tokens)',
    'Input validation error: `inputs` tokens + `max_new_tokens` must be <= 1512. Given: 1000 `inputs` tokens and 1024 `max_new_tokens`',
    422,
  ],
  ['Hugging Face TGI (inputs)', 'Input validation error: `inputs` must have less than 1024 tokens. Given: 1872', 422],
  ['SGLang', 'Input length (160062 tokens) exceeds the maximum allowed length (59862 tokens).', 400],
  [
    'DeepSeek',
    "This model's maximum context length is 65536 tokens. However, you requested 72814 tokens (68718 in the messages, 4096 in the completion). Please reduce the length of the messages or completion.",
    400,
  ],
];

/** Rate limits, quotas, throttling and output-limit errors that mention tokens: not overflows. */
const notOverflowTexts: Array<[string, string, number]> = [
  [
    'OpenAI rate limit',
    'Rate limit reached for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Used 29000, Requested 5000.',
    429,
  ],
  [
    'OpenAI request too large for TPM',
    'Request too large for gpt-4o on tokens per min (TPM): Limit 30000, Requested 342389. The input or output tokens must be reduced in order to run successfully.',
    429,
  ],
  [
    'Anthropic rate limit',
    'This request would exceed the rate limit for your organization of 40,000 input tokens per minute.',
    429,
  ],
  ['Bedrock throttling', 'Too many tokens, please wait before trying again.', 429],
  ['Gemini quota', 'Resource has been exhausted (e.g. check quota).', 429],
  [
    'Gemini free-tier quota',
    'You exceeded your current quota, please check your plan and billing details. Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_input_token_count, limit: 250000',
    429,
  ],
  [
    'Groq tokens per minute',
    'Request too large for model `llama-3.3-70b-versatile` in organization `org_x` service tier `on_demand` on tokens per minute (TPM): Limit 12000, Requested 14137, please reduce your message size and try again.',
    413,
  ],
  [
    'Azure token rate limit',
    'Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-08-01-preview have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 60 seconds.',
    429,
  ],
  ['Cerebras tokens per minute', 'Tokens per minute limit exceeded - too many tokens processed.', 429],
  [
    'OpenAI max_tokens too large',
    'max_tokens is too large: 200000. This model supports at most 16384 completion tokens, whereas you provided 200000.',
    400,
  ],
  [
    'Anthropic max_tokens too large',
    'max_tokens: 100000 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4-5-20250929',
    400,
  ],
  ['Anthropic overloaded', 'Overloaded', 529],
  ['HTTP 429 as text (no body)', '429 status code (no body)', 429],
  ['HTTP 400 as text (no body)', '400 status code (no body)', 400],
  ['an unrelated bad request', 'Invalid value for tool_choice', 400],
];

const overflowCases = overflowTexts.flatMap(([provider, text, status]) =>
  shapes(text, status).map(([shape, value]) => [`${provider} — ${shape}`, value] as const),
);
const notOverflowCases = notOverflowTexts.flatMap(([provider, text, status]) =>
  shapes(text, status).map(([shape, value]) => [`${provider} — ${shape}`, value] as const),
);

/** Whole shapes as providers and SDKs produce them. */
const overflowShapes: Array<[string, unknown]> = [
  [
    'OpenAI chat body with its code',
    {
      error: {
        message:
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 204308 tokens.",
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      },
    },
  ],
  ['OpenAI code only', { error: { code: 'context_length_exceeded', message: 'Bad request' } }],
  [
    'OpenAI Responses failed event',
    {
      type: 'response.failed',
      response: {
        status: 'failed',
        error: { code: 'context_length_exceeded', message: 'Your input exceeds the context window of this model.' },
      },
    },
  ],
  [
    'Anthropic SDK error (413)',
    sdkError('413 {"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum size"}}', {
      status: 413,
      error: { type: 'error', error: { type: 'request_too_large', message: 'Request exceeds the maximum size' } },
    }),
  ],
  [
    'Gemini REST array with errors[]',
    [
      {
        error: {
          code: 400,
          message: 'The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).',
          errors: [
            {
              message: 'The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).',
              reason: 'badRequest',
            },
          ],
          status: 'INVALID_ARGUMENT',
        },
      },
    ],
  ],
  [
    'Gemini SDK error wrapping a JSON body',
    sdkError(
      'got status: INVALID_ARGUMENT. {"error":{"code":400,"message":"The input token count (132478) exceeds the maximum number of tokens allowed (131072).","status":"INVALID_ARGUMENT"}}',
      { status: 400 },
    ),
  ],
  [
    'Bedrock ValidationException',
    Object.assign(new Error('Input is too long for requested model.'), {
      name: 'ValidationException',
      $metadata: { httpStatusCode: 400 },
    }),
  ],
  [
    'Mistral body with a numeric code',
    {
      object: 'error',
      message: 'Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length',
      type: 'invalid_request_message_error',
      code: 3051,
    },
  ],
  [
    'xAI gRPC-style error',
    sdkError(
      'Failed to start sampling: [input_too_large] Current message (1149677 tokens) exceeds budget (975424 tokens)',
      { code: 3 },
    ),
  ],
  [
    'llama.cpp body with its type',
    {
      error: {
        code: 400,
        message: 'request (4390 tokens) exceeds the available context size (4096 tokens), try increasing it',
        type: 'exceed_context_size_error',
        n_prompt_tokens: 4390,
        n_ctx: 4096,
      },
    },
  ],
  ['llama.cpp 500', { error: { code: 500, message: 'Context size has been exceeded.', type: 'server_error' } }],
  ['HTTP 413 with no text', { status: 413, message: 'Payload Too Large' }],
  ['AI SDK retry error', { name: 'AI_RetryError', errors: [new Error('fetch failed'), { statusCode: 413 }] }],
  [
    'AI SDK RetryError: a 429 first, an overflow last',
    (() => {
      const rateLimited = sdkError('Rate limit reached for gpt-4o on tokens per min (TPM)', { statusCode: 429 });
      const overflow = sdkError(
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.",
        {
          statusCode: 400,
          responseBody: JSON.stringify({ error: { code: 'context_length_exceeded' } }),
        },
      );
      return Object.assign(new Error(`Failed after 2 attempts. Last error: ${overflow.message}`), {
        name: 'AI_RetryError',
        reason: 'errorNotRetryable',
        errors: [rateLimited, overflow],
        lastError: overflow,
      });
    })(),
  ],
  [
    'deep cause chain',
    sdkError('a', {
      cause: sdkError('b', {
        cause: sdkError('c', { cause: { error: { message: 'prompt is too long: 300000 tokens > 200000 maximum' } } }),
      }),
    }),
  ],
];

const notOverflowShapes: Array<[string, unknown]> = [
  [
    'AI SDK RetryError of rate limits only',
    Object.assign(new Error('Failed after 3 attempts. Last error: Too Many Requests'), {
      name: 'AI_RetryError',
      reason: 'maxRetriesExceeded',
      errors: [1, 2, 3].map(() => sdkError('Too Many Requests', { statusCode: 429 })),
      lastError: sdkError('Too Many Requests', { statusCode: 429 }),
    }),
  ],
  [
    'OpenAI TPM 429 (SDK error)',
    sdkError('429 Rate limit reached for gpt-4o on tokens per min (TPM): Limit 30000, Used 29000, Requested 4000.', {
      status: 429,
      code: 'rate_limit_exceeded',
    }),
  ],
  [
    'OpenAI TPM body, no status',
    {
      error: {
        message: 'Request too large for gpt-4o on tokens per min (TPM): Limit 30000, Requested 342389.',
        type: 'tokens',
        code: 'rate_limit_exceeded',
      },
    },
  ],
  [
    'Anthropic rate_limit_error',
    {
      type: 'error',
      error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' },
    },
  ],
  [
    'Bedrock ThrottlingException',
    Object.assign(new Error('Too many tokens, please wait before trying again.'), {
      name: 'ThrottlingException',
      $metadata: { httpStatusCode: 429 },
    }),
  ],
  [
    'Gemini 429 array body',
    [
      {
        error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' },
      },
    ],
  ],
  [
    'Azure 429 with a string code',
    {
      error: {
        code: '429',
        message: 'Requests to the ChatCompletions_Create Operation have exceeded token rate limit.',
      },
    },
  ],
  ['Anthropic overloaded', { status: 529, error: { type: 'overloaded_error', message: 'Overloaded' } }],
  ['plain network error', new TypeError('fetch failed')],
  ['nothing', undefined],
  ['null', null],
  ['a number', 42],
  ['an empty array', []],
];

describe('isContextOverflow', () => {
  it.each(overflowCases)('recognises %s', (_, value) => {
    expect(isContextOverflow(value)).toBe(true);
  });

  it.each(notOverflowCases)('does not mistake %s for an overflow', (_, value) => {
    expect(isContextOverflow(value)).toBe(false);
  });

  it.each(overflowShapes)('recognises the shape: %s', (_, value) => {
    expect(isContextOverflow(value)).toBe(true);
  });

  it.each(notOverflowShapes)('rejects the shape: %s', (_, value) => {
    expect(isContextOverflow(value)).toBe(false);
  });

  it('detects silent overflow from usage when the window is known', () => {
    const message = {
      role: 'assistant',
      content: [],
      stopReason: 'stop',
      usage: { input: 120_000, output: 10, cacheRead: 5_000, cacheWrite: 5_000 },
    };
    expect(isContextOverflow(message, { contextWindow: 128_000 })).toBe(true);
    expect(isContextOverflow(message)).toBe(false);
    expect(isContextOverflow({ input: 210_000, output: 10 }, { contextWindow: 200_000 })).toBe(true);
    expect(isContextOverflow({ input: 100_000, output: 0 }, { contextWindow: 128_000 })).toBe(false);
    expect(isContextOverflow({ input: 128_000, output: 0 }, { contextWindow: 128_000 })).toBe(false);
  });

  it('survives cyclic objects and arrays', () => {
    const error: Record<string, unknown> = { message: 'boom' };
    error.cause = error;
    expect(isContextOverflow(error)).toBe(false);
    const list: unknown[] = [];
    list.push(list, { error: { message: 'prompt is too long: 201000 tokens > 200000 maximum' } });
    expect(isContextOverflow(list)).toBe(true);
  });

  it('stays bounded on huge and deeply nested input: what it reads does not grow with the input', () => {
    // Every array item and field it reads is counted, and the input is made as it is read: the walk
    // is bounded when the count stays the same however wide or deep the input grows (a clock would
    // measure the machine, not the walk).
    let reads = 0;
    const field = (key: string, read: () => unknown): object => ({
      get [key]() {
        reads += 1;
        return read();
      },
    });
    const index = (key: string | symbol, length: number) =>
      typeof key === 'string' && /^\d+$/.test(key) && Number(key) < length;
    const wide = (length: number): unknown[] =>
      new Proxy(new Array<unknown>(length), {
        has: (target, key) => index(key, target.length) || Reflect.has(target, key),
        get: (target, key, receiver) => {
          if (!index(key, target.length)) return Reflect.get(target, key, receiver);
          reads += 1;
          return field('error', () => ({ message: 'nothing to see' }));
        },
      });
    const deep = (depth: number): unknown =>
      depth === 0
        ? { message: 'prompt is too long: 201000 tokens > 200000 maximum' }
        : field('cause', () => deep(depth - 1));
    const readsFor = (value: unknown): { result: boolean; reads: number } => {
      reads = 0;
      const result = isContextOverflow(value);
      return { result, reads };
    };

    const narrow = readsFor(wide(100));
    expect(narrow).toMatchObject({ result: false, reads: expect.any(Number) });
    expect(narrow.reads).toBeGreaterThan(0);
    expect(readsFor(wide(100_000))).toEqual(narrow);
    const shallow = readsFor(deep(100));
    expect(shallow.reads).toBeGreaterThan(0);
    expect(() => isContextOverflow(deep(100_000))).not.toThrow();
    expect(readsFor(deep(100_000))).toEqual(shallow);
    // Within the bounds the overflow is found: the count measures a walk that reads what it should.
    expect(readsFor(deep(2)).result).toBe(true);
    expect(readsFor([...wide(3), deep(1)]).result).toBe(true);
  });

  it('does not throw on an object whose getters throw', () => {
    const hostile = {
      get message(): string {
        throw new Error('getter');
      },
      error: { message: 'prompt is too long: 201000 tokens > 200000 maximum' },
    };
    expect(() => isContextOverflow(hostile)).not.toThrow();
  });
});
