import type { WireObject } from '../../internal/wire-object.js';
import type { ProviderData, TextContent } from '../../types.js';

// The converters' providerData: what ctxkit does not model, kept under `providerData.openai.chat` or
// `providerData.openai.responses` so the way back rebuilds the wire exactly.

/** Which API's data a `providerData.openai` entry holds. @internal */
type OpenAIApi = 'chat' | 'responses';

/** Reads `providerData.openai[api]` as an object, or `undefined`. @internal */
export function readData<T extends object>(providerData: ProviderData | undefined, api: OpenAIApi): T | undefined {
  const openai = providerData?.openai;
  if (typeof openai !== 'object' || openai === null) return undefined;
  const data = (openai as Record<string, unknown>)[api];
  return typeof data === 'object' && data !== null ? (data as T) : undefined;
}

/** `{ providerData: { openai: { [api]: data } } }`, or `{}` when `data` has no defined field. @internal */
export function withData(api: OpenAIApi, data: object): { providerData?: ProviderData } {
  const defined = Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));
  return Object.keys(defined).length === 0 ? {} : { providerData: { openai: { [api]: defined } } };
}

/** The fields of `value` other than `known`, or `undefined` when there are none. @internal */
export function otherFields(value: WireObject, known: readonly string[]): WireObject | undefined {
  let rest: WireObject | undefined;
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    rest ??= {};
    rest[key] = value[key];
  }
  return rest;
}

/** A text part standing in for a wire part or item ctxkit does not model, which it carries verbatim. @internal */
export function placeholderPart(api: OpenAIApi, label: string, raw: WireObject): TextContent {
  return { type: 'text', text: `[${label}]`, ...withData(api, { raw }) };
}
