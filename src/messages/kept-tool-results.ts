// The tool results ctxkit writes in place of others, one per result in a long session (the
// manager keeps them all): an archived copy, the placeholder sent for it and the synthetic result
// of an unanswered call. Built to be small: their `meta` is frozen and shared when the result has
// no `meta` of its own (the synthetic result's content too), and no copy is made by an object
// spread followed by a new key (V8 gives such a copy a dictionary, about 320 bytes instead of 70).
// A placeholder's text names the result's recall id and size, so it is the result's own.
import type { TextContent, ToolResultMessage } from '../types.js';
import { formatSize, recallIdOf } from './recall-id.js';
import { MISSING_RESULT_TEXT } from './wire-strings.js';

/**
 * The text sent in place of an archived result: `[archived r0k3x9a2b: 48k chars; recall r0k3x9a2b]`
 * (see `ARCHIVED_RESULT_PATTERN`). The same result always gives the same text, so the prompt
 * stays byte-identical from call to call.
 *
 * @internal
 */
function archivedPlaceholderText(result: ToolResultMessage): string {
  let characters = 0;
  for (const part of result.content) characters += part.type === 'text' ? part.text.length : 0;
  const id = recallIdOf(result.toolCallId);
  return `[archived ${id}: ${formatSize(characters)} chars; recall ${id}]`;
}
/** The content of every synthetic result of an unanswered call: one frozen array, shared. @internal */
export const MISSING_CONTENT: readonly TextContent[] = /* @__PURE__ */ (() =>
  Object.freeze([Object.freeze({ type: 'text' as const, text: MISSING_RESULT_TEXT })]))();
const PLACEHOLDER_META = /* @__PURE__ */ Object.freeze({ agentVisible: true, kind: 'tool_result_archived' });
const MISSING_META = /* @__PURE__ */ Object.freeze({ kind: 'tool_result', userVisible: false });
const ARCHIVED_META = /* @__PURE__ */ Object.freeze({ agentVisible: false, kind: 'tool_result_archived' });

/** The keys of a tool result that {@link archiveToolResult} copies into a literal of their own shape, in order. */
const PLAIN_KEYS = ['role', 'toolCallId', 'toolName', 'content', 'isError', 'meta'] as const;

/**
 * Whether `result`'s own keys are a subsequence of {@link PLAIN_KEYS} starting with the four
 * required ones: then an object literal copies it key for key, in the same order.
 */
function hasPlainKeys(result: ToolResultMessage): boolean {
  let next = 0;
  for (const key in result) {
    while (next < PLAIN_KEYS.length && PLAIN_KEYS[next] !== key) {
      if (next < 4) return false;
      next++;
    }
    if (next === PLAIN_KEYS.length) return false;
    next++;
  }
  return next >= 4;
}

/**
 * Archives a tool result: hidden from the model, kind `tool_result_archived`, every other field
 * (`userVisible` among them) kept, in the same key order as `{ ...result, meta }`. A result of the usual
 * keys is copied into an object literal of exactly its shape (64 bytes with five keys;
 * `Object.assign({}, …)` of more than four keys also allocates a property array).
 *
 * @internal
 */
export function archiveToolResult(result: ToolResultMessage): ToolResultMessage {
  const meta =
    result.meta === undefined
      ? ARCHIVED_META
      : Object.assign({}, result.meta, { agentVisible: false, kind: 'tool_result_archived' });
  return withMeta(result, meta);
}

/**
 * `Object.assign({}, result, { meta })`: the result with its `meta` replaced, keys in the same
 * order. A result of the usual keys is copied into an object literal of exactly its shape.
 *
 * @internal
 */
export function withMeta(result: ToolResultMessage, meta: ToolResultMessage['meta']): ToolResultMessage {
  if (!hasPlainKeys(result)) return Object.assign({}, result, { meta });
  const { role, toolCallId, toolName, content } = result;
  return 'isError' in result
    ? { role, toolCallId, toolName, content, isError: result.isError, meta }
    : { role, toolCallId, toolName, content, meta };
}

/**
 * What the model sees in place of an archived tool result, under the call id `id` (the result's
 * own, or the fresh id a reused one is sent under); its text names the recall id of the result's
 * own tool call id, which does not change when the call is sent renamed.
 *
 * @internal
 */
export function createArchivedPlaceholder(result: ToolResultMessage, id = result.toolCallId): ToolResultMessage {
  const content: TextContent[] = [{ type: 'text', text: archivedPlaceholderText(result) }];
  const meta = placeholderMeta(result);
  // Two literals rather than a conditional spread: each gets exactly its shape (no property array).
  return result.isError === undefined
    ? { role: 'toolResult', toolCallId: id, toolName: result.toolName, content, meta }
    : { role: 'toolResult', toolCallId: id, toolName: result.toolName, content, isError: result.isError, meta };
}

function placeholderMeta(result: ToolResultMessage): ToolResultMessage['meta'] {
  const meta = result.meta;
  // An archived copy of a result without `meta` has the shared one: no keys to walk.
  if (meta === undefined || meta === ARCHIVED_META) return PLACEHOLDER_META;
  for (const key in meta) if (key !== 'agentVisible' && key !== 'kind') return { ...meta, ...PLACEHOLDER_META };
  return PLACEHOLDER_META;
}

/** The synthetic error result sent for the call `id` of the tool `name` until its result arrives. @internal */
export function createMissingResult(id: string, name: string): ToolResultMessage {
  return {
    role: 'toolResult',
    toolCallId: id,
    toolName: name,
    content: MISSING_CONTENT as TextContent[],
    isError: true,
    meta: MISSING_META,
  };
}
