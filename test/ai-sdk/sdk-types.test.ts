import { anthropic } from '@ai-sdk/anthropic';
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import {
  type GenerateTextResult,
  generateText,
  type LanguageModelUsage,
  type ModelMessage,
  type Output,
  type StepResult,
  type StreamTextResult,
  type ToolSet,
  wrapLanguageModel,
} from 'ai';
import { createContextManager, heuristicSummarizer } from 'ctxkit';
import {
  type AISDKMessage,
  type AISDKMessageInput,
  createGenerateTextSummarizer,
  ctxkitMiddleware,
  fromGenerateTextResult,
  fromLanguageModelUsage,
  fromStepResult,
  fromStreamTextResult,
  type GenerateTextUsage,
} from 'ctxkit/ai-sdk';
import { describe, expect, expectTypeOf, it } from 'vitest';

// The adapter declares the AI SDK's formats itself; these checks (run by `tsc` in `npm run check`)
// hold it to the SDK's own types: `ai` 7 and `@ai-sdk/provider` 4 here, `ai` 6 and
// `@ai-sdk/provider` 3 in sdk-types-v6.test.ts.

describe('structural compatibility with the AI SDK', () => {
  it('what toModelMessages writes is a ModelMessage, and the SDK prompts are what the readers read', () => {
    expectTypeOf<AISDKMessage>().toExtend<ModelMessage>();
    expectTypeOf<ModelMessage>().toExtend<AISDKMessageInput>();
    expectTypeOf<LanguageModelV4Prompt[number]>().toExtend<AISDKMessageInput>();
    expectTypeOf<LanguageModelUsage>().toExtend<GenerateTextUsage>();
    expectTypeOf(fromGenerateTextResult).toBeCallableWith(
      {} as GenerateTextResult<ToolSet, Record<string, unknown>, Output.Output<string, string>>,
    );
    expectTypeOf(fromStepResult).toBeCallableWith({} as StepResult<ToolSet>);
    expectTypeOf(fromStreamTextResult).toBeCallableWith(
      {} as StreamTextResult<ToolSet, Record<string, unknown>, Output.Output<string, string>>,
    );
  });

  it('plugs into wrapLanguageModel and generateText without casts', () => {
    const manager = createContextManager({ model: 'claude-sonnet-4-6', summarizer: heuristicSummarizer });
    const model = wrapLanguageModel({ model: anthropic('claude-sonnet-4-6'), middleware: ctxkitMiddleware(manager) });
    const summarizer = createGenerateTextSummarizer({ generateText, model: anthropic('claude-haiku-4-5') });
    // Reusing the conversation: its tool set, as generateText takes it, without casts.
    const reusing = createGenerateTextSummarizer({
      generateText,
      model: anthropic('claude-sonnet-4-6'),
      reuseConversation: {
        system: 'You are a coding agent.',
        tools: {} as ToolSet,
        providerOptions: { openai: { promptCacheKey: 'session-42' } },
      },
    });
    expect(typeof reusing.summarize).toBe('function');
    expect(model.modelId).toBe('claude-sonnet-4-6');
    expect(typeof summarizer.summarize).toBe('function');
    const usage: LanguageModelUsage = {
      inputTokens: 30_012,
      outputTokens: 80,
      totalTokens: 30_092,
      inputTokenDetails: { noCacheTokens: 12, cacheReadTokens: 30_000, cacheWriteTokens: 0 },
      outputTokenDetails: { textTokens: 80, reasoningTokens: undefined },
    };
    expect(fromLanguageModelUsage(usage)).toEqual({
      input: 12,
      output: 80,
      cacheRead: 30_000,
      cacheWrite: 0,
      total: 30_092,
    });
  });
});
