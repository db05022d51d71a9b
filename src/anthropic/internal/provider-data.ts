import type { ProviderData } from '../../types.js';
import type { WireObject } from './wire-object.js';

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
