import { expectObject, invalid, type WireObject } from '../internal/wire-object.js';
import { buildResponseResult } from './internal/build-response-result.js';
import { readMessages } from './internal/read-messages.js';
import type { AISDKResponseResult, StepResultLike } from './result-types.js';

/** The messages a step adds, built from its content as the SDK writes its response messages. */
/**
 * Checks the fields of a step result the converters read, naming the first wrong one. @internal
 */
function checkStepResult(step: unknown, where: string, path: string): asserts step is StepResultLike {
  const object = expectObject(step, where, path);
  const content = object['content'];
  if (!Array.isArray(content)) invalid(where, `${path}.content`, 'must be an array of parts');
  for (const [index, part] of content.entries()) expectObject(part, where, `${path}.content[${index}]`);
  expectObject(object['usage'], where, `${path}.usage`);
  if (object['model'] !== undefined) expectObject(object['model'], where, `${path}.model`);
  else expectObject(object['response'], where, `${path}.response`);
}

function stepMessages(content: readonly { readonly type: string }[]): WireObject[] {
  const assistant: WireObject[] = [];
  const results: WireObject[] = [];
  for (const raw of content) {
    const part = raw as WireObject;
    const options = part['providerMetadata'] === undefined ? {} : { providerOptions: part['providerMetadata'] };
    switch (part['type']) {
      case 'text':
        if (typeof part['text'] === 'string' && part['text'].length > 0)
          assistant.push({ type: 'text', text: part['text'], ...options });
        break;
      case 'reasoning':
        assistant.push({ type: 'reasoning', text: part['text'], ...options });
        break;
      case 'tool-call':
        assistant.push({
          type: 'tool-call',
          toolCallId: part['toolCallId'],
          toolName: part['toolName'],
          input: part['input'],
          ...(part['providerExecuted'] === undefined ? {} : { providerExecuted: part['providerExecuted'] }),
          ...options,
        });
        break;
      case 'tool-result':
      case 'tool-error': {
        const failed = part['type'] === 'tool-error';
        const value = failed ? part['error'] : part['output'];
        const output = failed
          ? { type: 'error-text', value: value instanceof Error ? value.message : String(value) }
          : typeof value === 'string'
            ? { type: 'text', value }
            : { type: 'json', value: value ?? null };
        const result = {
          type: 'tool-result',
          toolCallId: part['toolCallId'],
          toolName: part['toolName'],
          output,
          ...options,
        };
        (part['providerExecuted'] ? assistant : results).push(result);
        break;
      }
      case 'tool-approval-request':
        assistant.push({
          type: 'tool-approval-request',
          approvalId: part['approvalId'],
          toolCallId: (part['toolCall'] as WireObject | undefined)?.['toolCallId'],
        });
        break;
      default:
        break;
    }
  }
  const messages: WireObject[] = [{ role: 'assistant', content: assistant }];
  if (results.length > 0) messages.push({ role: 'tool', content: results });
  return messages;
}

/**
 * Converts one step of `generateText` or `streamText` (`result.steps[i]`, or `onStepFinish`'s
 * argument) to the assistant message it produced and the results of the tools the SDK ran, as the
 * SDK writes its response messages by default (a tool's own `toModelOutput` is not applied).
 *
 * @param step - The step result.
 * @returns The assistant message (usage, stop reason, provider and model set), its tool results, and the metadata.
 *
 * @example
 * ```ts
 * await generateText({ model, messages, tools, onStepFinish: (step) => manager.recordUsage(fromStepResult(step).usage) });
 * ```
 */
export function fromStepResult(step: StepResultLike): AISDKResponseResult {
  checkStepResult(step, 'fromStepResult', 'step');
  const { messages } = readMessages(stepMessages(step.content) as never, 'fromStepResult');
  return buildResponseResult(messages, {
    usage: step.usage,
    finishReason: step.finishReason,
    provider: step.model?.provider ?? 'ai-sdk',
    model: step.model?.modelId ?? step.response.modelId,
  });
}
