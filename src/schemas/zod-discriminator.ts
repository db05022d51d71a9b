// The refusal of a discriminated union whose discriminator matches no option, worded the same on every
// zod ctxkit accepts: zod 4.1+ names the allowed values ("Invalid discriminator value. Expected 'a' |
// 'b'"), the `zod/v4` of zod 3.25 says only "Invalid input". Given to each `z.discriminatedUnion` of
// ctxkit as its `error`, it writes zod 4's sentence from the union's own definition.
import type * as z from 'zod/v4';

/** The parts of a discriminated union's definition the message is read from. */
type UnionDefinition = {
  readonly discriminator?: unknown;
  readonly options?: readonly { readonly _zod: { readonly def: { readonly shape?: Record<string, unknown> } } }[];
};

/** The values a literal schema (the discriminator field of an option) accepts. */
function literalValues(field: unknown): unknown[] {
  const def = (field as { _zod?: { def?: { values?: unknown } } } | undefined)?._zod?.def;
  return Array.isArray(def?.values) ? def.values : [];
}

/** A value as zod quotes it in a message: strings in single quotes, the rest as written. */
function quote(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : String(value);
}

/**
 * The `error` of ctxkit's discriminated unions: for the union's own refusal (no option's
 * discriminator matches), `Invalid discriminator value. Expected 'a' | 'b'`; every other issue keeps
 * zod's words.
 *
 * @internal
 */
export const discriminatorError = {
  error: (issue: z.core.$ZodRawIssue): string | undefined => {
    if (issue.code !== 'invalid_union') return undefined;
    const def = (issue.inst as { _zod?: { def?: UnionDefinition } } | undefined)?._zod?.def;
    const key = def?.discriminator;
    if (typeof key !== 'string' || def?.options === undefined) return undefined;
    const values = def.options.flatMap((option) => literalValues(option._zod.def.shape?.[key]));
    if (values.length === 0) return undefined;
    return `Invalid discriminator value. Expected ${values.map(quote).join(' | ')}`;
  },
};
