import type { Message } from '../types.js';
import type { Summarizer, SummaryOutput, SummaryRequest } from './summarizer-types.js';

/**
 * A summarizer that first continues the conversation (`attempt`, which sends the conversation as
 * last sent with the summary instruction as the final user message, so the provider reads it from
 * its prompt cache) and otherwise asks `rebuilt`, the summarizer of a rebuilt prompt: when the
 * request carries no conversation, when the continued conversation is refused as too long for the
 * window (the conversation being compacted is, by definition, close to it — and a provider's count
 * can run above the estimate that let it through), and when the answer has no text.
 * `isOverflow` tells a too-long refusal from other errors (the adapters pass `isContextOverflow`;
 * this layer sits below the models layer that knows the providers' errors).
 */
export function reuseConversationOr(
  rebuilt: Summarizer,
  isOverflow: (error: unknown) => boolean,
  attempt: (request: SummaryRequest, conversation: readonly Message[]) => Promise<SummaryOutput>,
): Summarizer {
  return {
    async summarize(request: SummaryRequest): Promise<SummaryOutput> {
      const conversation = request.conversation;
      if (conversation === undefined || conversation.length === 0) return rebuilt.summarize(request);
      request.signal?.throwIfAborted();
      let answer: SummaryOutput;
      try {
        answer = await attempt(request, conversation);
      } catch (error) {
        if (request.signal?.aborted || !isOverflow(error)) throw error;
        return rebuilt.summarize(request);
      }
      const text = typeof answer === 'string' ? answer : answer.text;
      return text.trim().length > 0 ? answer : rebuilt.summarize(request);
    },
  };
}
