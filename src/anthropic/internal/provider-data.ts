import type { WireObject } from '../../internal/wire-object.js';
import type { ProviderData, TextContent } from '../../types.js';

// The adapter's providerData: the fields ctxkit does not model, kept under `providerData.anthropic`
// so `toAnthropic` rebuilds the request exactly.

/** The fields of `object` other than `modeled`, or `undefined` when there are none. @internal */
export function unmodeledFields(object: WireObject, modeled: readonly string[]): WireObject | undefined {
  const rest = Object.keys(object)
    .filter((key) => !modeled.includes(key))
    .map((key) => [key, object[key]] as const);
  // fromEntries defines each key as data, so even a `__proto__` key is kept as a field.
  return rest.length === 0 ? undefined : Object.fromEntries(rest);
}

/** `{ anthropic: value }` when there is a value, for spreading into a part or message. @internal */
export function withProviderData(value: WireObject | undefined): { providerData?: ProviderData } {
  return value === undefined ? {} : { providerData: { anthropic: value } };
}

/** The adapter's own data on a part or message, if any. @internal */
export function anthropicData(holder: { providerData?: ProviderData }): WireObject | undefined {
  const value = holder.providerData?.['anthropic'];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as WireObject) : undefined;
}

// Blocks ctxkit does not model travel as a text part: its text stands in for the block (what token
// counts and summaries see) and the block rides in `providerData.anthropic.block`.

/**
 * The text that stands in for a block ctxkit does not model: what token counts and summaries see.
 * Text-bearing blocks (plain-text documents, search results) keep their text.
 *
 * @internal
 */
function describeBlock(block: WireObject): string {
  const type = String(block['type']);
  const title = typeof block['title'] === 'string' && block['title'] ? `: ${block['title']}` : '';
  const source = block['source'];
  if (type === 'document' && typeof source === 'object' && source !== null) {
    const data = (source as WireObject)['data'];
    return typeof data === 'string' && (source as WireObject)['type'] === 'text'
      ? `[document${title}]\n${data}`
      : `[document${title}]`;
  }
  if (type === 'search_result') {
    const texts = Array.isArray(block['content'])
      ? (block['content'] as WireObject[]).map((part) => (typeof part?.['text'] === 'string' ? part['text'] : ''))
      : [];
    return [`[search result${title}]`, ...texts].join('\n');
  }
  if (type === 'server_tool_use' || type === 'mcp_tool_use') {
    return `[${type}: ${String(block['name'])} ${safeJson(block['input'])}]`;
  }
  return `[${type}]`;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

/** A text part that carries a block ctxkit does not model. @internal */
export function passthroughPart(block: WireObject): TextContent {
  return { type: 'text', text: describeBlock(block), providerData: { anthropic: { block } } };
}

/** The block a passthrough part carries, if the part is still the untouched placeholder. @internal */
export function passthroughBlock(part: TextContent): WireObject | undefined {
  const block = anthropicData(part)?.['block'];
  if (typeof block !== 'object' || block === null || Array.isArray(block)) return undefined;
  return describeBlock(block as WireObject) === part.text ? (block as WireObject) : undefined;
}

/** Whether the part carried a block that a later change (a truncation) replaced. @internal */
export function hadPassthrough(part: TextContent): boolean {
  return anthropicData(part)?.['block'] !== undefined;
}
