import { ContextError } from 'ctxkit';
import { fromModelMessages } from 'ctxkit/ai-sdk';
import { fromAnthropic } from 'ctxkit/anthropic';
import { fromOpenAIChat, fromOpenAIResponses } from 'ctxkit/openai';
import { describe, expect, it } from 'vitest';

// The three adapters read their wire objects through one helper: a message that is not an object, or
// a field that is not a string, is refused the same way (a thrown ContextError naming the function,
// the field and what was received).
function refusal(read: () => unknown): ContextError {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(ContextError);
    expect((error as ContextError).code).toBe('INPUT_INVALID');
    return error as ContextError;
  }
  throw new Error('expected the input to be refused');
}

describe('wire objects of the adapters', () => {
  it('refuses a message that is not an object, naming the function, the field and what it got', () => {
    expect(refusal(() => fromOpenAIChat([42 as never])).message).toMatch(
      /^fromOpenAIChat: messages\[0\] must be an object, received number 42\./,
    );
    expect(refusal(() => fromOpenAIResponses([null as never])).message).toMatch(
      /^fromOpenAIResponses: items\[0\] must be an object, received null\./,
    );
    expect(refusal(() => fromAnthropic({ messages: ['hi' as never] })).message).toMatch(
      /^fromAnthropic: messages\[0\] must be an object, received 'hi'\./,
    );
    expect(refusal(() => fromModelMessages([[] as never])).message).toMatch(
      /^fromModelMessages: messages\[0\] must be an object, received an array\./,
    );
  });

  it('refuses a missing string field, saying nothing was received', () => {
    const message = refusal(() =>
      fromAnthropic({ messages: [{ role: 'user', content: [{ type: 'tool_result' } as never] }] }),
    ).message;
    expect(message).toBe(
      'fromAnthropic: messages[0].content[0].tool_use_id must be a non-empty string, received nothing.',
    );
  });
});
