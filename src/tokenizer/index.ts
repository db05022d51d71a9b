// The `ctxkit/tokenizer` entry: exact token counters for OpenAI encodings, on gpt-tokenizer (an
// optional peer dependency: `npm install gpt-tokenizer`). Each encoding's rank table is loaded the
// first time a counter of that encoding needs it; without the package, that first load throws a
// `DEPENDENCY_MISSING` error saying what to install.

export { type CreateTokenizerCounterOptions, createTokenizerCounter } from './create-tokenizer-counter.js';
export type { TokenizerEncoding } from './load-encoding.js';
export { loadTokenizerCounter } from './load-tokenizer-counter.js';
