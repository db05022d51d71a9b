// The tool-result message of `ctxkit/openai` and `ctxkit/anthropic`: their loops keep the history as
// ctxkit messages, so both entries export this one function (`ctxkit/ai-sdk` has its own, which
// writes the AI SDK's `tool` message its hosts keep).

import { ContextError } from '../errors.js';
import type { ToolResultMessage } from '../types.js';

/**
 * One tool's outcome for `createToolResultMessage`: the same fields in `ctxkit/openai`,
 * `ctxkit/anthropic` and `ctxkit/ai-sdk`.
 *
 * @example
 * ```ts
 * const outcome: ToolOutcome = { toolCallId: call.id, toolName: call.name, output: 'a.ts\nb.ts' };
 * ```
 */
export interface ToolOutcome {
  /** The id of the call it answers (`id` of the `toolCall` part of the assistant message). */
  toolCallId: string;
  /** The tool's name (`name` of the `toolCall` part). */
  toolName: string;
  /** What the tool returned: text, any JSON value (sent as its JSON text), or an `Error` (sent as a failure). */
  output: unknown;
  /** The tool failed: the result is marked as an error, which the model reads as a failed call. @default false */
  isError?: boolean;
}

const WHERE = 'createToolResultMessage';

/**
 * The `toolResult` message that answers one tool call, to push onto a history of ctxkit messages
 * after the assistant message that made the call: text is sent as it is, any other value as its
 * JSON text (`undefined` as `null`), and an `Error` (or `isError: true`) marks the result as a
 * failure — Chat Completions and Responses send it as the output text, the Messages API as a
 * `tool_result` with `is_error`.
 *
 * @param outcome - The call's id and tool name, and what the tool returned.
 * @returns A `{ role: 'toolResult' }` message, ready to push onto the history.
 * @throws `ContextError` `INPUT_INVALID` naming the field when the id or name is missing, or when
 * the output is neither text nor JSON (a cycle, a `BigInt`).
 *
 * @example
 * ```ts
 * for (const call of reply.content) {
 *   if (call.type === 'toolCall') {
 *     history.push(createToolResultMessage({ toolCallId: call.id, toolName: call.name, output: await run(call) }));
 *   }
 * }
 * ```
 */
export function createToolResultMessage(outcome: ToolOutcome): ToolResultMessage {
  if (typeof outcome !== 'object' || outcome === null) {
    throw new ContextError({
      message: `${WHERE}: pass { toolCallId, toolName, output } for the call it answers.`,
      code: 'INPUT_INVALID',
    });
  }
  for (const field of ['toolCallId', 'toolName'] as const) {
    if (typeof outcome[field] !== 'string' || outcome[field].length === 0) {
      throw new ContextError({
        message: `${WHERE}: outcome.${field} must be a non-empty string (the ${field === 'toolCallId' ? 'id' : 'name'} of the tool call it answers).`,
        code: 'INPUT_INVALID',
      });
    }
  }
  const { output } = outcome;
  const failed = outcome.isError === true || output instanceof Error;
  const text = typeof output === 'string' ? output : output instanceof Error ? output.message : json(output);
  return {
    role: 'toolResult',
    toolCallId: outcome.toolCallId,
    toolName: outcome.toolName,
    content: [{ type: 'text', text }],
    ...(failed ? { isError: true } : {}),
  };
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value === undefined ? null : value) ?? 'null';
  } catch (error) {
    throw new ContextError({
      message: `${WHERE}: outcome.output is neither text nor JSON (${(error as Error).message}); return a string or a plain value from the tool.`,
      code: 'INPUT_INVALID',
      cause: error,
    });
  }
}
