import type { Message } from '../types.js';
import { assertMessages } from '../validation/assert-messages.js';
import { estimateMessageTokens } from './estimate-message-tokens.js';
import { isAgentVisible } from './is-agent-visible.js';
import { referenceCounter, type TokenCounter } from './token-counter.js';

/**
 * The sum of {@link estimateMessageTokens} over the visible messages.
 *
 * @param messages - The conversation.
 * @param counter - The counter to use. @default referenceCounter
 * @returns Tokens of every agent-visible message; hidden messages count zero.
 *
 * @example
 * ```ts
 * sumMessageTokens([{ role: 'user', content: 'hello world' }]); // 3
 * ```
 */
export function sumMessageTokens(messages: readonly Message[], counter: TokenCounter = referenceCounter): number {
  assertMessages(messages, 'sumMessageTokens');
  let total = 0;
  for (const message of messages) if (isAgentVisible(message)) total += estimateMessageTokens(message, counter);
  return total;
}
