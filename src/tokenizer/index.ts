// The `ctxkit/tokenizer` entry: exact token counters for OpenAI encodings, on gpt-tokenizer.

export {
  type CreateTokenizerCounterOptions,
  createTokenizerCounter,
  type TokenizerEncoding,
} from './create-tokenizer-counter.js';
