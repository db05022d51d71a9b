// What providers say when a request does not fit the window, and what they say when it is only a
// rate limit: the tables `isContextOverflow` judges an error by.

/**
 * Phrases providers use when a request does not fit the context window. Each line names who says
 * it; the texts are the providers' own.
 *
 * @internal
 */
export const OVERFLOW_PATTERNS: readonly RegExp[] = [
  /maximum context length/i, // OpenAI chat, vLLM, OpenRouter, Mistral: "This model's maximum context length is 128000 tokens"
  /context[_ ]length[_ ]exceeded/i, // OpenAI error code (chat and Responses), Cerebras
  /exceeds? the context window/i, // OpenAI Responses: "Your input exceeds the context window of this model"
  /prompt is too long/i, // Anthropic: "prompt is too long: 213462 tokens > 200000 maximum"; xAI
  /exceed context limit/i, // Anthropic: "input length and `max_tokens` exceed context limit: 174167 + 64000 > 200000"
  /input token count.*exceeds the maximum/i, // Gemini: "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575)"
  /input is too long|too many input tokens/i, // Bedrock: "Input is too long for requested model.", "Too many input tokens. Max input tokens: 8192"
  /reduce the length of the messages/i, // OpenAI, Groq, Cerebras: "Please reduce the length of the messages or completion."
  /maximum prompt length is \d+/i, // xAI: "This model's maximum prompt length is 131072 but the request contains …"
  /\binput_too_large\b|current message \(\d+ tokens\) exceeds budget/i, // xAI: "[input_too_large] Current message (N tokens) exceeds budget (M tokens)"
  /exceeds the available context size|context size has been exceeded/i, // llama.cpp server (400 exceed_context_size_error, 500 server_error)
  /requested tokens (\(\d+\) )?exceed context window/i, // llama-cpp-python: "Requested tokens (2285) exceed context window of 2048", older "Requested tokens exceed context window of 512"
  /input token count is \d+ but (the )?model only supports up to \d+/i, // Vertex AI: "Unable to submit request because the input token count is 38429 but model only supports up to 32768. …"
  /decoder prompt \(length \d+\) is longer than the maximum model length/i, // vLLM: "The decoder prompt (length 17772) is longer than the maximum model length of 16384."
  /prompt length of \d+ is longer than the maximum model length/i, // vLLM V1: "Prompt length of 5016 is longer than the maximum model length of 4096."
  /total number of tokens \(prompt and prediction\) cannot exceed/i, // Cohere: "too many tokens: total number of tokens (prompt and prediction) cannot exceed 2048 - received 6354. …"
  /`?inputs`? tokens \+ `?max_new_tokens`? must be <=/i, // Hugging Face TGI: "`inputs` tokens + `max_new_tokens` must be <= 1512. Given: 1000 `inputs` tokens and 1024 `max_new_tokens`"
  /`?inputs`? must have less than \d+ tokens/i, // Hugging Face TGI: "Input validation error: `inputs` must have less than 1024 tokens. Given: 1872"
  /input length \(\d+ tokens\) exceeds the maximum allowed length/i, // SGLang: "Input length (160062 tokens) exceeds the maximum allowed length (59862 tokens)."
  /context the overflows|greater than the context length|context length of only \d+|n_keep \(\d+\) >= n_ctx/i, // LM Studio
  /prompt too long; exceeded (max )?context length/i, // Ollama: "prompt too long; exceeded max context length by 4021 tokens"
  /too long to fit into the model|longer than the model's context length/i, // vLLM (older), Together
  /exceeded model token limit/i, // Moonshot (Kimi): "Your request exceeded model token limit: 262144 (requested: 300000)"
  /context window (exceeded|is full|overflow)/i,
  /too many tokens in (the )?(prompt|request|input)/i,
  /request_too_large|request exceeds the maximum (allowed )?(number of bytes|size)/i, // Anthropic 413
  /request entity too large|payload too large/i, // HTTP 413 reason phrase
  /string too long\. Expected a string with maximum length/i, // OpenAI: "Invalid 'messages[1].content': string too long. Expected a string with maximum length 10485760, …"
  /prompt token count of \d+ exceeds the limit/i, // GitHub Copilot: "prompt token count of 150000 exceeds the limit of 128000"
  /message exceeds token limit/i, // VS Code language model API (Copilot): "Message exceeds token limit."
  /context window exceeds limit/i, // MiniMax: "invalid params, context window exceeds limit (2013)"
  /range of input length should be \[/i, // DashScope (Qwen): "Range of input length should be [1, 30720]"
  /\binput length \d+ exceeds\b/i, // LM Studio "Input length 6491 exceeds context length 1500"; OpenRouter relaying Poolside "… exceeds the maximum allowed input length of 262144 tokens."; NVIDIA NIM
  /\binput (length )?exceeds (the )?context length/i, // Ollama: "the input length exceeds the context length", "input exceeds context length"
  /input prompt \(\d+ tokens\) is too long/i, // vLLM scheduler: "Input prompt (9040 tokens) is too long and exceeds limit of 4000"
  /input length of input_ids is \d+, but `max_length` is set to/i, // Hugging Face transformers
  /too many tokens: size limit exceeded by/i, // Cohere v1: "too many tokens: size limit exceeded by 1502 tokens. …"
];

/**
 * Rate limits, quotas and throttling that mention tokens: retry later, do not compact.
 *
 * @internal
 */
export const NOT_OVERFLOW_PATTERNS: readonly RegExp[] = [
  /rate[ _-]?limit/i,
  /throttl/i,
  /per min(ute)?\b|per day|per hour|\bTPM\b|\bRPM\b|\bTPD\b/i,
  /too many requests/i,
  /quota/i,
  /please wait before trying again/i,
  /overloaded/i,
];

/**
 * Error codes that mean the request did not fit the window.
 *
 * @internal
 */
export const OVERFLOW_CODES = new Set([
  'context_length_exceeded',
  'request_too_large',
  'exceed_context_size_error',
  'string_above_max_length',
  'model_context_window_exceeded',
  'model_max_prompt_tokens_exceeded',
]);
/**
 * Error codes of throttling and quotas: not an overflow.
 *
 * @internal
 */
export const NOT_OVERFLOW_CODE = /throttl|rate_limit|resource_exhausted|quota|overloaded/;
/**
 * HTTP statuses of rate limits and overload: not an overflow.
 *
 * @internal
 */
export const NOT_OVERFLOW_STATUS = new Set([429, 503, 529]);
