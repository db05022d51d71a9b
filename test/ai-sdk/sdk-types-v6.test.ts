import { anthropic } from 'ai-sdk-anthropic-v3';
import type { LanguageModelV3Prompt } from 'ai-sdk-provider-v3';
import {
  type GenerateTextResult,
  generateText,
  type LanguageModelUsage,
  type ModelMessage,
  type StepResult,
  type StreamTextResult,
  type ToolSet,
  wrapLanguageModel,
} from 'ai-v6';
import { createContextManager, heuristicSummarizer } from 'ctxkit';
import {
  type AISDKMessage,
  type AISDKMessageInput,
  createGenerateTextSummarizer,
  ctxkitMiddleware,
  fromGenerateTextResult,
  fromStepResult,
  fromStreamTextResult,
  type GenerateTextUsage,
} from 'ctxkit/ai-sdk';
import { describe, expect, expectTypeOf, it } from 'vitest';

// The same checks as sdk-types.test.ts against the previous major: `ai` 6 and `@ai-sdk/provider` 3,
// installed beside the current ones under npm aliases (`ai-v6`, `ai-sdk-provider-v3`, …).

describe('structural compatibility with the AI SDK 6', () => {
  it('what toModelMessages writes is a ModelMessage, and the SDK prompts are what the readers read', () => {
    expectTypeOf<AISDKMessage>().toExtend<ModelMessage>();
    expectTypeOf<ModelMessage>().toExtend<AISDKMessageInput>();
    expectTypeOf<LanguageModelV3Prompt[number]>().toExtend<AISDKMessageInput>();
    expectTypeOf<LanguageModelUsage>().toExtend<GenerateTextUsage>();
    expectTypeOf(fromGenerateTextResult).toBeCallableWith({} as GenerateTextResult<ToolSet, never>);
    expectTypeOf(fromStepResult).toBeCallableWith({} as StepResult<ToolSet>);
    expectTypeOf(fromStreamTextResult).toBeCallableWith({} as StreamTextResult<ToolSet, never>);
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
    expect(model.specificationVersion).toBe('v3');
    expect(typeof summarizer.summarize).toBe('function');
  });
});
