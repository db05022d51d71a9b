import { approximateCounter } from '../counting/approximate-counter.js';
import { estimateMessageTokens } from '../counting/estimate-message-tokens.js';
import { isAgentVisible } from '../counting/is-agent-visible.js';
import type { Message } from '../types.js';
import type { InspectedMessage } from './inspection-types.js';
import { messageLabel, messageText } from './message-text.js';

/**
 * The counter the offline manager measures with (its default).
 *
 * @internal
 */
export const counter = approximateCounter;

/**
 * A message as the inspection shows it.
 *
 * @internal
 */
export function describeMessage(message: Message, entryId: string | null): InspectedMessage {
  const visible = isAgentVisible(message);
  return {
    entryId,
    role: message.role,
    kind: message.meta?.kind ?? 'message',
    label: messageLabel(message),
    tokens: visible ? estimateMessageTokens(message, counter) : 0,
    visible,
    text: messageText(message),
  };
}
