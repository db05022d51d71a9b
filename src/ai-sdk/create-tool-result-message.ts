import { ContextError } from '../errors.js';
import type { AISDKMessage } from './message-types.js';
import type { JSONValue, ModelToolResultPart } from './part-types.js';

/**
 * One tool's outcome for {@link createToolResultMessage}.
 *
 * @example
 * ```ts
 * const outcome: ToolOutcome = { toolCallId: call.toolCallId, toolName: call.toolName, output: 'a.ts\nb.ts' };
 * ```
 */
export interface ToolOutcome {
  /** The id of the call it answers (`toolCallId` of the SDK's tool call). */
  toolCallId: string;
  /** The tool's name. */
  toolName: string;
  /** What the tool returned: text, any JSON value, or (with `isError`) an `Error`. */
  output: unknown;
  /** The tool failed: the output is sent as an error. @default false */
  isError?: boolean;
}

const WHERE = 'createToolResultMessage';

function outputOf(outcome: ToolOutcome, index: number): ModelToolResultPart['output'] {
  const { output, isError = false } = outcome;
  if (typeof output === 'string') return { type: isError ? 'error-text' : 'text', value: output };
  if (output instanceof Error) return { type: 'error-text', value: output.message };
  let value: JSONValue;
  try {
    value = output === undefined ? null : (JSON.parse(JSON.stringify(output)) as JSONValue);
  } catch (error) {
    throw new ContextError({
      message: `${WHERE}: results[${index}].output is neither text nor JSON (${(error as Error).message}); return a string or a plain value from the tool.`,
      code: 'INPUT_INVALID',
      cause: error,
    });
  }
  return { type: isError ? 'error-json' : 'json', value };
}

/**
 * The `tool` message that answers tool calls, for a host that runs the tools of a `generateText`
 * step itself (tools without `execute`) and appends their results to its `ModelMessage[]`: text
 * becomes a `text` output, any other value a `json` output (`undefined` as `null`), and with
 * `isError` (or an `Error`) the error forms, which the model reads as a failed call.
 *
 * @param results - One outcome, or the outcomes of every call of the step (one message holds them all).
 * @returns A `{ role: 'tool' }` message, ready to push onto the messages.
 * @throws `ContextError` `INPUT_INVALID` naming the result when an id or name is missing or an
 * output is not JSON (a cycle, a `BigInt`).
 *
 * @example
 * ```ts
 * const step = await generateText({ model, tools, messages });
 * messages.push(...step.responseMessages);
 * messages.push(createToolResultMessage(await Promise.all(step.toolCalls.map(async (call) => ({
 *   toolCallId: call.toolCallId, toolName: call.toolName, output: await run(call),
 * })))));
 * ```
 */
export function createToolResultMessage(results: ToolOutcome | readonly ToolOutcome[]): AISDKMessage {
  const list = Array.isArray(results) ? results : [results as ToolOutcome];
  if (list.length === 0) {
    throw new ContextError({ message: `${WHERE}: give at least one tool result.`, code: 'INPUT_INVALID' });
  }
  const content = list.map((outcome, index): ModelToolResultPart => {
    for (const field of ['toolCallId', 'toolName'] as const) {
      if (typeof outcome?.[field] !== 'string' || outcome[field].length === 0) {
        throw new ContextError({
          message: `${WHERE}: results[${index}].${field} must be a non-empty string (from the SDK's tool call).`,
          code: 'INPUT_INVALID',
        });
      }
    }
    return {
      type: 'tool-result',
      toolCallId: outcome.toolCallId,
      toolName: outcome.toolName,
      output: outputOf(outcome, index),
    };
  });
  return { role: 'tool', content };
}
