// Helpers shared by the Chat Completions and Responses converters (internal).

import { ContextError } from '../errors.js';
import type { ImageContent, ProviderData, TextContent, ToolCall } from '../types.js';

/** Which API's data a `providerData.openai` entry holds. */
export type OpenAIApi = 'chat' | 'responses';

/** Any JSON object from the wire. */
export type WireObject = Record<string, unknown>;

/** Reads `providerData.openai[api]` as an object, or `undefined`. */
export function readData<T extends object>(providerData: ProviderData | undefined, api: OpenAIApi): T | undefined {
  const openai = providerData?.openai;
  if (typeof openai !== 'object' || openai === null) return undefined;
  const data = (openai as Record<string, unknown>)[api];
  return typeof data === 'object' && data !== null ? (data as T) : undefined;
}

/** `{ providerData: { openai: { [api]: data } } }`, or `{}` when `data` has no defined field. */
export function withData(api: OpenAIApi, data: object): { providerData?: ProviderData } {
  const defined = Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));
  return Object.keys(defined).length === 0 ? {} : { providerData: { openai: { [api]: defined } } };
}

/** The fields of `value` other than `known`, or `undefined` when there are none. */
export function otherFields(value: WireObject, known: readonly string[]): WireObject | undefined {
  let rest: WireObject | undefined;
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    rest ??= {};
    rest[key] = value[key];
  }
  return rest;
}

export function isObject(value: unknown): value is WireObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A `ContextError` for input that is not the wire format, naming where. */
export function invalid(where: string, path: string, detail: string): ContextError {
  return new ContextError({ message: `${where}: ${path} ${detail}`, code: 'INPUT_INVALID' });
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `'${value.length > 40 ? `${value.slice(0, 40)}…` : value}'`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

export function expectString(value: unknown, where: string, path: string): string {
  if (typeof value !== 'string') throw invalid(where, path, `must be a string, received ${describe(value)}.`);
  return value;
}

export function expectObject(value: unknown, where: string, path: string, fix = ''): WireObject {
  if (!isObject(value)) throw invalid(where, path, `must be an object, received ${describe(value)}.${fix}`);
  return value;
}

export function expectArray(value: unknown, where: string, path: string): unknown[] {
  if (!Array.isArray(value)) throw invalid(where, path, `must be an array, received ${describe(value)}.`);
  return value;
}

/**
 * Parses a tool call's JSON-string arguments. `raw` is set when the string is not exactly what
 * `JSON.stringify` would print for them (other spacing, key escapes) or is not a JSON object at all
 * (then `arguments` is `{}` and `invalid` is true), so the wire text can be sent back verbatim.
 */
export function parseArguments(text: string): { arguments: Record<string, unknown>; raw?: string; invalid?: true } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { arguments: {}, raw: text, invalid: true };
  }
  if (!isObject(parsed)) return { arguments: {}, raw: text, invalid: true };
  return JSON.stringify(parsed) === text ? { arguments: parsed } : { arguments: parsed, raw: text };
}

/**
 * The JSON text of a tool call's arguments: the verbatim wire text while it still says the same as
 * `arguments` (the core never edits arguments, but a host might), else `JSON.stringify(arguments)`.
 */
export function printArguments(call: ToolCall, raw: unknown): string {
  if (typeof raw === 'string') {
    const again = parseArguments(raw);
    if (again.invalid ? Object.keys(call.arguments).length === 0 : sameJson(again.arguments, call.arguments)) {
      return raw;
    }
  }
  return JSON.stringify(call.arguments);
}

function sameJson(left: unknown, right: unknown): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}

const DATA_URL = /^data:([^;,:]+);base64,([^:]*)$/;

/** An image from a URL: a base64 `data:` URL becomes data and MIME type; any other URL stays a URL. */
export function imageFromUrl(url: string): Pick<ImageContent, 'data' | 'mimeType'> & { opaque?: true } {
  const match = DATA_URL.exec(url);
  if (match) return { data: match[2]!, mimeType: match[1]! };
  // A URL always has a scheme, so `data` holding a ':' marks it as a URL on the way back; a string
  // without one is flagged so it is not taken for base64.
  return { data: url, mimeType: guessMimeType(url), ...(url.includes(':') ? {} : { opaque: true }) };
}

/** The URL to send for an image: its own URL, or a `data:` URL built from its base64 data. */
export function imageUrl(image: ImageContent, opaque: unknown): string {
  return opaque === true || image.data.includes(':') ? image.data : `data:${image.mimeType};base64,${image.data}`;
}

function guessMimeType(url: string): string {
  const extension = /\.(png|jpe?g|gif|webp)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  if (extension === undefined) return 'image/*';
  return extension === 'jpg' ? 'image/jpeg' : `image/${extension}`;
}

/** A text part standing in for a wire part or item ctxkit does not model, which it carries verbatim. */
export function placeholderPart(api: OpenAIApi, label: string, raw: WireObject): TextContent {
  return { type: 'text', text: `[${label}]`, ...withData(api, { raw }) };
}

/** What a system or developer message says: its text, or its text parts joined. */
export function instructionText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : '')).join('');
}
