import { ContextError } from '../../errors.js';
import { isObject, type WireObject } from '../../internal/wire-object.js';
import type { Message } from '../../types.js';
import type { OpenAIPromptCacheBreakpoint } from '../chat-types.js';

// Explicit prompt-cache breakpoints (`prompt_cache_breakpoint`, GPT-5.6 and later) for toOpenAIChat
// and toOpenAIResponses: the same places as toAnthropic's `cache_control` marks, on the parts the API
// takes a mark on (input text, images, files, audio: system, developer, user and tool messages,
// function call outputs; never the model's own output).

/**
 * The `cacheBreakpoints` option of the OpenAI converters: `true` for breakpoints with the request's
 * TTL, `{ ttl }` for a lifetime of their own.
 */
export type CacheBreakpointsOption = boolean | { ttl?: '30m' | '12h' } | undefined;

/** The marks one request may carry: OpenAI writes at most four breakpoints a request. */
const MAX_BREAKPOINTS = 4;

/** The mark to place, or `undefined` when none are asked for. @internal */
export function breakpointOf(where: string, option: CacheBreakpointsOption): OpenAIPromptCacheBreakpoint | undefined {
  if (option === undefined || option === false) return undefined;
  const ttl = option === true ? undefined : isObject(option) ? option.ttl : option;
  if (option !== true && (!isObject(option) || (ttl !== undefined && ttl !== '30m' && ttl !== '12h'))) {
    throw new ContextError({
      message: `${where}: cacheBreakpoints must be true, false or { ttl?: '30m' | '12h' } (got ${JSON.stringify(option)}).`,
      code: 'INPUT_INVALID',
    });
  }
  return ttl === undefined ? { mode: 'explicit' } : { mode: 'explicit', ttl };
}

/** ctxkit's own messages that no later archive changes: archived results, summaries, digests. @internal */
export function isStableMessage(message: Message): boolean {
  const kind = message.meta?.kind;
  return kind === 'tool_result_archived' || kind === 'compaction_summary' || kind === 'tool_summary';
}

/** How one API's items carry a mark. @internal */
export interface MarkableItems {
  /** The item's parts that can carry a mark, or a string content to turn into one part, or nothing. */
  content(item: WireObject): { field: string; parts: WireObject[] | string } | undefined;
  /** The text part a string content becomes. */
  textType: 'text' | 'input_text';
}

/**
 * Marks, while fewer than 4 marks are in the request (the host's own counted): the newest item (or
 * the last markable one before it), the system item, the last item of the newest stable message, and
 * the item before the newest. Items are replaced by marked copies; nothing passed in is changed.
 *
 * @param items - The request's items, replaced in place by marked copies.
 * @param places - The system item's index (when ctxkit wrote one) and the stable message's last item.
 * @internal
 */
export function placeCacheBreakpoints(
  items: unknown[],
  places: { system: number | undefined; stable: number | undefined },
  mark: OpenAIPromptCacheBreakpoint,
  api: MarkableItems,
): void {
  const marked = (part: unknown) => isObject(part) && part['prompt_cache_breakpoint'] != null;
  let count = 0;
  for (const item of items) {
    const found = isObject(item) ? api.content(item) : undefined;
    if (found !== undefined && Array.isArray(found.parts)) count += found.parts.filter(marked).length;
  }
  /** Marks the last part of the item at `at`, or of the nearest markable item before it (`walk`). */
  const place = (at: number | undefined, walk: boolean) => {
    if (at === undefined) return;
    for (let index = at; index >= 0 && count < MAX_BREAKPOINTS; index--) {
      const item = items[index];
      const found = isObject(item) ? api.content(item) : undefined;
      if (found !== undefined) {
        const { field, parts } = found;
        const list = typeof parts === 'string' ? [{ type: api.textType, text: parts }] : [...parts];
        const last = list[list.length - 1]!;
        if (marked(last)) return;
        list[list.length - 1] = { ...last, prompt_cache_breakpoint: mark };
        items[index] = { ...(item as WireObject), [field]: list };
        count++;
        return;
      }
      if (!walk) return;
    }
  };
  place(items.length - 1, true);
  place(places.system, false);
  place(places.stable, true);
  place(items.length - 2, true);
}

/** Chat Completions: system, developer, user and tool messages carry marks on their content parts. @internal */
export const CHAT_ITEMS: MarkableItems = {
  textType: 'text',
  content(item) {
    const role = item['role'];
    if (role !== 'system' && role !== 'developer' && role !== 'user' && role !== 'tool') return undefined;
    return markableContent(item, 'content');
  },
};

/** Responses: input messages (not the assistant's) and function call outputs. @internal */
export const RESPONSES_ITEMS: MarkableItems = {
  textType: 'input_text',
  content(item) {
    if (item['type'] === 'function_call_output') return markableContent(item, 'output');
    const role = item['role'];
    const message = item['type'] === undefined || item['type'] === 'message';
    if (!message || (role !== 'system' && role !== 'developer' && role !== 'user')) return undefined;
    return markableContent(item, 'content');
  },
};

/** A non-empty string, or a list whose last part is an input part (text, image, file, audio). */
function markableContent(item: WireObject, field: string): { field: string; parts: WireObject[] | string } | undefined {
  const value = item[field];
  if (typeof value === 'string') return value.length > 0 ? { field, parts: value } : undefined;
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const last = value[value.length - 1];
  return isObject(last) && INPUT_PARTS.has(String(last['type'])) ? { field, parts: value as WireObject[] } : undefined;
}

const INPUT_PARTS = new Set(['text', 'image_url', 'input_audio', 'file', 'input_text', 'input_image', 'input_file']);
