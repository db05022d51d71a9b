import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import * as ai7 from 'ai';
import { createAnthropic as createAnthropic3 } from 'ai-sdk-anthropic-v3';
import { createOpenAI as createOpenAI3 } from 'ai-sdk-openai-v3';
import * as ai6 from 'ai-v6';

// The two majors of the AI SDK the end-to-end tests drive: `ai` 7 with its providers 4 (the
// devDependencies), and `ai` 6 with its providers 3 (installed under npm aliases). Both run the
// same sessions; the type checks of each are in sdk-types.test.ts and sdk-types-v6.test.ts. The
// tests are written against `ai` 7's types; `ai` 6 is driven through the same calls (its own types
// are checked apart).

type AI = Pick<typeof ai7, 'generateText' | 'streamText' | 'wrapLanguageModel' | 'tool' | 'jsonSchema' | 'stepCountIs'>;

/** One major: its `ai` functions, its provider factories, and how a result gives every step's messages. */
export interface Major {
  name: string;
  ai: AI;
  createAnthropic: typeof createAnthropic;
  createOpenAI: typeof createOpenAI;
  /** Every step's response messages: `responseMessages` in `ai` 7, `response.messages` in `ai` 6. */
  responseMessages(result: object): ai7.ModelMessage[];
  /** The same for a `streamText` result. */
  streamedMessages(result: object): Promise<ai7.ModelMessage[]>;
}

export const majors: Major[] = [
  {
    name: 'ai 7',
    ai: ai7,
    createAnthropic,
    createOpenAI,
    responseMessages: (result) => (result as ai7.GenerateTextResult<ai7.ToolSet, never, never>).responseMessages,
    streamedMessages: async (result) => (result as ai7.StreamTextResult<ai7.ToolSet, never, never>).responseMessages,
  },
  {
    name: 'ai 6',
    ai: ai6 as unknown as AI,
    createAnthropic: createAnthropic3 as unknown as typeof createAnthropic,
    createOpenAI: createOpenAI3 as unknown as typeof createOpenAI,
    responseMessages: (result) => (result as unknown as ai6.GenerateTextResult<ai6.ToolSet, never>).response.messages,
    streamedMessages: async (result) =>
      (await (result as unknown as ai6.StreamTextResult<ai6.ToolSet, never>).response).messages,
  },
];
