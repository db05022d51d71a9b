// The `ctxkit/tokenizer` entry: exact token counters for OpenAI encodings, on gpt-tokenizer. Each
// encoding's rank table is loaded the first time a counter of that encoding needs it.

export { type CreateTokenizerCounterOptions, createTokenizerCounter } from './create-tokenizer-counter.js';
export type { TokenizerEncoding } from './load-encoding.js';
export { loadTokenizerCounter } from './load-tokenizer-counter.js';
