// `option.count()` and `option.positive()` of `parse-options.ts` as zod schemas, for the entries that
// compose them with what only zod has (defaults, unions, refinements: the agent tools, the memory
// tool) and for the public `contextConfigSchema`. Entries a browser bundle reaches use the light ones; both word each rule the same way.
import * as z from 'zod/v4';

/**
 * The zod twins of the light `option` fields, for zod schemas.
 *
 * @internal
 */
export const zodOption = {
  /** A whole number ≥ 0. */
  count: () =>
    z
      .number({ error: 'must be a whole number ≥ 0' })
      .int('must be a whole number ≥ 0')
      .min(0, 'must be a whole number ≥ 0'),
  /** A whole number ≥ 1. */
  positive: () =>
    z
      .number({ error: 'must be a whole number ≥ 1' })
      .int('must be a whole number ≥ 1')
      .min(1, 'must be a whole number ≥ 1'),
  /** A share of a whole: greater than 0, at most 1. */
  share: () =>
    z
      .number({ error: 'must be a number greater than 0 and at most 1' })
      .gt(0, 'must be a number greater than 0 and at most 1')
      .lte(1, 'must be a number greater than 0 and at most 1'),
};
