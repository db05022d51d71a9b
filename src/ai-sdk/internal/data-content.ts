import { invalid } from '../../internal/wire-object.js';

// Binary data: providerData must hold JSON, so bytes travel as base64 with a note of their kind, and
// leave in the kind they arrived as.

/** How binary data arrived, so it leaves the same way. @internal */
type DataKind = 'bytes' | 'arraybuffer' | 'url';

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary);
}

function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** Any data content as text (base64 or a URL), with its kind when it was not text. @internal */
export function encodeData(value: unknown, where: string, path: string): { data: string; kind?: DataKind } {
  if (typeof value === 'string') return { data: value };
  if (value instanceof URL) return { data: value.href, kind: 'url' };
  if (value instanceof Uint8Array) return { data: bytesToBase64(value), kind: 'bytes' };
  if (value instanceof ArrayBuffer) return { data: bytesToBase64(new Uint8Array(value)), kind: 'arraybuffer' };
  invalid(where, path, 'must be base64 or URL text, bytes (Uint8Array, ArrayBuffer) or a URL');
}

/** The data content back in the kind it arrived as. @internal */
export function decodeData(data: string, kind: unknown): string | Uint8Array | ArrayBuffer | URL {
  if (kind === 'url') return new URL(data);
  if (kind === 'bytes') return base64ToBytes(data);
  if (kind === 'arraybuffer') return base64ToBytes(data).buffer as ArrayBuffer;
  return data;
}

/**
 * File data in the tagged form of `ai` 7 and of the `v4` provider-level prompt (`{ type: 'data',
 * data }`, `{ type: 'url', url }`) read as plain data, with the tag to write it back under; bare
 * data (`ai` 6, `v3`) has no tag. `undefined` for another tagged form (a provider reference,
 * inline text, a URL with its `originalUrl`), which is carried as it came.
 *
 * @internal
 */
export function untagFileData(value: unknown): { value: unknown; tag?: 'data' | 'url' } | undefined {
  if (typeof value !== 'object' || value === null || value instanceof URL || value instanceof ArrayBuffer) {
    return { value };
  }
  if (ArrayBuffer.isView(value)) return { value };
  const tagged = value as Record<string, unknown>;
  const keys = Object.keys(tagged).sort().join(',');
  if (tagged['type'] === 'data' && keys === 'data,type') return { value: tagged['data'], tag: 'data' };
  if (tagged['type'] === 'url' && keys === 'type,url') return { value: tagged['url'], tag: 'url' };
  return undefined;
}

/** Data written back under the tag it came with (see {@link untagFileData}). @internal */
export function tagFileData(value: unknown, tag: unknown): unknown {
  if (tag === 'data') return { type: 'data', data: value };
  if (tag === 'url') return { type: 'url', url: value };
  return value;
}

/** Whether text is an http(s) URL. @internal */
export function isHttpUrl(text: string): boolean {
  return /^https?:\/\//i.test(text);
}

/** A `data:` URL split into its media type and base64, if it is one. @internal */
export function parseDataUrl(text: string): { mediaType: string; base64: string } | undefined {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(text);
  return match ? { mediaType: match[1]!, base64: match[2]! } : undefined;
}
