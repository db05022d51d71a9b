// The tool results the manager writes and keeps one of per result: an archived copy, the
// placeholder sent for it and the synthetic result of an unanswered call. The same messages as
// `tool-result-messages.ts` builds, built to be small: their content arrays and their `meta` are
// frozen and shared when the result has no `meta` of its own, and no copy is made by an object
// spread followed by a new key (V8 gives such a copy a dictionary, about 320 bytes instead of 70).
import type { TextContent, ToolResultMessage } from '../../types.js';
import { ARCHIVED_RESULT_PLACEHOLDER, MISSING_RESULT_TEXT } from '../wire-strings.js';

/** The content of every archived result's placeholder: one frozen array, shared. @internal */
export const PLACEHOLDER_CONTENT: readonly TextContent[] = Object.freeze([
  Object.freeze({ type: 'text' as const, text: ARCHIVED_RESULT_PLACEHOLDER }),
]);
/** The content of every synthetic result of an unanswered call: one frozen array, shared. @internal */
export const MISSING_CONTENT: readonly TextContent[] = Object.freeze([
  Object.freeze({ type: 'text' as const, text: MISSING_RESULT_TEXT }),
]);
const PLACEHOLDER_META = Object.freeze({ agentVisible: true, kind: 'tool_result_archived' });
const MISSING_META = Object.freeze({ kind: 'tool_result', userVisible: false });
const ARCHIVED_META = Object.freeze({ agentVisible: false, kind: 'tool_result_archived' });

/**
 * An archived copy of a tool result, equal to `archiveToolResult`'s: hidden from the model, kind
 * `tool_result_archived`, every other field kept.
 *
 * @internal
 */
export function archivedCopy(result: ToolResultMessage): ToolResultMessage {
  const meta =
    result.meta === undefined
      ? ARCHIVED_META
      : Object.assign({}, result.meta, { agentVisible: false, kind: 'tool_result_archived' });
  return Object.assign({}, result, { meta });
}

/**
 * The placeholder sent for an archived result under the call id `id`, equal to
 * `createArchivedPlaceholder`'s apart from the id.
 *
 * @internal
 */
export function sharedPlaceholder(result: ToolResultMessage, id: string): ToolResultMessage {
  return {
    role: 'toolResult',
    toolCallId: id,
    toolName: result.toolName,
    content: PLACEHOLDER_CONTENT as TextContent[],
    ...(result.isError === undefined ? {} : { isError: result.isError }),
    meta: placeholderMeta(result),
  };
}

function placeholderMeta(result: ToolResultMessage): ToolResultMessage['meta'] {
  const meta = result.meta;
  if (meta === undefined) return PLACEHOLDER_META;
  for (const key in meta) if (key !== 'agentVisible' && key !== 'kind') return { ...meta, ...PLACEHOLDER_META };
  return PLACEHOLDER_META;
}

/** The synthetic error result sent for a call until its result arrives, equal to `createMissingResult`'s. @internal */
export function missingResult(id: string, name: string): ToolResultMessage {
  return {
    role: 'toolResult',
    toolCallId: id,
    toolName: name,
    content: MISSING_CONTENT as TextContent[],
    isError: true,
    meta: MISSING_META,
  };
}
