import type { WireObject } from '../../internal/wire-object.js';
import type { ProviderData } from '../../types.js';

// The adapter's providerData: what a converted message or part carries under `providerData['ai-sdk']`
// so the writer rebuilds the AI SDK's message exactly.

/** The namespace of this adapter's providerData. @internal */
export const NAMESPACE = 'ai-sdk';

/** `{ providerData: { 'ai-sdk': data } }` without the undefined fields, or nothing. @internal */
export function withData(data: WireObject): { providerData?: ProviderData } {
  const entries = Object.entries(data).filter(([, value]) => value !== undefined);
  return entries.length === 0 ? {} : { providerData: { [NAMESPACE]: Object.fromEntries(entries) } };
}

/** This adapter's data on a part or message. @internal */
export function dataOf(holder: { providerData?: ProviderData }): WireObject {
  const value = holder.providerData?.[NAMESPACE];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as WireObject) : {};
}
