import { ConfigError } from '../errors.js';
import { type CreateSummarizerOptions, createSummarizer } from '../summarizing/create-summarizer.js';
import type { Summarizer } from '../summarizing/summarizer-types.js';
import { isObject } from './internal/langchain-data.js';

/**
 * A LangChain chat model (`BaseChatModel`: `ChatOpenAI`, `ChatAnthropic`…), as far as the summarizer
 * calls it: `invoke` with message-likes and a signal, replying with a message.
 *
 * @example
 * ```ts
 * const model: LangChainChatModel = new ChatOpenAI({ model: 'gpt-4o-mini' });
 * ```
 */
export interface LangChainChatModel {
  /** One call. */
  invoke(
    input: { role: 'system' | 'user'; content: string }[],
    options?: { signal?: AbortSignal },
  ): PromiseLike<{ readonly content: unknown; readonly response_metadata?: Record<string, unknown> }>;
}

/**
 * Options of {@link createLangChainSummarizer}.
 *
 * @example
 * ```ts
 * const options: CreateLangChainSummarizerOptions = { model: new ChatOpenAI({ model: 'gpt-4o-mini', maxTokens: 8192 }) };
 * ```
 */
export interface CreateLangChainSummarizerOptions extends Omit<CreateSummarizerOptions, 'complete'> {
  /**
   * The chat model that writes summaries (not the agent, whose calls run through the middleware). Its
   * own output limit (`maxTokens`) bounds each summary: LangChain has no per-call limit to pass.
   */
  model: LangChainChatModel;
}

/** The text of a reply's content: a string, or its text blocks joined. */
function replyText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block) =>
      typeof block === 'string' ? block : isObject(block) && block.type === 'text' ? String(block.text ?? '') : '',
    )
    .join('');
}

/**
 * A ctxkit summarizer over a LangChain chat model: ctxkit's summary prompts go to `model.invoke` as a
 * system and a user message, and the reply's text (with its `finish_reason` / `stop_reason`, so a
 * summary cut short is reported as such) comes back.
 *
 * @param options - The model, and the summary prompts to replace.
 * @returns The summarizer.
 * @throws `ConfigError` when `model` has no `invoke` method.
 *
 * @example
 * ```ts
 * import { ChatOpenAI } from '@langchain/openai';
 * const summarizer = createLangChainSummarizer({ model: new ChatOpenAI({ model: 'gpt-4o-mini' }) });
 * ```
 */
export function createLangChainSummarizer(options: CreateLangChainSummarizerOptions): Summarizer {
  const { model, ...summarizerOptions } = options ?? ({} as never);
  if (typeof model?.invoke !== 'function') {
    throw new ConfigError({
      message: 'createLangChainSummarizer needs `model`, a LangChain chat model (new ChatOpenAI({ model })).',
      field: 'model',
    });
  }
  return createSummarizer({
    ...summarizerOptions,
    async complete({ system, prompt, signal }) {
      const reply = await model.invoke(
        [
          { role: 'system', content: system },
          { role: 'user', content: prompt },
        ],
        signal ? { signal } : {},
      );
      const metadata = reply.response_metadata ?? {};
      const reason = metadata.finish_reason ?? metadata.stop_reason;
      return { text: replyText(reply.content), ...(typeof reason === 'string' ? { stopReason: reason } : {}) };
    },
  });
}
