import { assertObjectArgument, assertStringArgument, invalidArgument } from '../validation/assert-argument.js';
import { assertMessages } from '../validation/assert-messages.js';
import type { SummaryRequest } from './summarizer-types.js';

/**
 * Checks a summary request handed to a ready summarizer or prompt builder by a host, so a wrong
 * one fails at the top with the field named instead of as a `TypeError` inside.
 *
 * @param request - What the host passed.
 * @param where - The function the host called.
 * @throws `ContextError` (code `INPUT_INVALID`) naming the field.
 * @internal
 */
export function checkSummaryRequest(request: unknown, where: string): asserts request is SummaryRequest {
  assertObjectArgument(request, where, 'request', 'a summary request object');
  assertMessages(request['messages'], `${where}: request.messages`);
  assertStringArgument(request['text'], where, 'request.text');
  for (const field of ['previousSummary', 'instructions'] as const) {
    if (request[field] !== undefined) assertStringArgument(request[field], where, `request.${field}`);
  }
  if (request['conversation'] !== undefined) assertMessages(request['conversation'], `${where}: request.conversation`);
  if (typeof request['maxOutputTokens'] !== 'number') {
    throw invalidArgument(where, 'request.maxOutputTokens', 'a number', request['maxOutputTokens']);
  }
}
