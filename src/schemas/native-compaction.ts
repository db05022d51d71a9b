// zod schemas for provider-native compaction (`native-compaction.ts`), annotated against its types.
import * as z from 'zod/v4';
import { type CompactionUsage, jsonBytes, NATIVE_PAYLOAD_LIMIT, type NativeCompaction } from '../native-compaction.js';

const count = z.number().nonnegative();

/** Validates {@link CompactionUsage}. @example `compactionUsageSchema.parse({ input: 180000, output: 2400 })` */
export const compactionUsageSchema: z.ZodType<CompactionUsage> = z.object({
  input: count,
  output: count,
  cacheRead: count.optional(),
  cacheWrite: count.optional(),
});

/**
 * Validates a {@link NativeCompaction}: the payload must be a JSON object of at most
 * {@link NATIVE_PAYLOAD_LIMIT} bytes whose `type` is `compaction`, and its `leading` items (when
 * present) JSON objects that fit in that limit with it.
 *
 * @example
 * ```ts
 * nativeCompactionSchema.parse({ provider: 'openai', api: 'openai-responses', model: 'gpt-5', payload: { type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAA…' } });
 * ```
 */
export const nativeCompactionSchema: z.ZodType<NativeCompaction> = z
  .object({
    provider: z.string().min(1),
    api: z.enum(['anthropic-messages', 'openai-responses']),
    model: z.string(),
    payload: z
      .record(z.string(), z.unknown())
      .refine(
        (payload) => payload['type'] === 'compaction',
        "a provider's compaction block or item: its type is 'compaction'",
      )
      .refine(
        (payload) => jsonBytes(payload) <= NATIVE_PAYLOAD_LIMIT,
        `at most ${NATIVE_PAYLOAD_LIMIT} bytes of JSON (NATIVE_PAYLOAD_LIMIT); a larger payload is kept out of the entry and only the portable summary stored`,
      ),
    leading: z.array(z.record(z.string(), z.unknown())).optional(),
    summary: z.string().optional(),
    usage: compactionUsageSchema.optional(),
    omitted: count.optional(),
  })
  .superRefine((native, context) => {
    if (native.leading !== undefined && jsonBytes(native.payload) + jsonBytes(native.leading) > NATIVE_PAYLOAD_LIMIT) {
      context.addIssue({
        code: 'custom',
        path: ['leading'],
        message: `with the payload at most ${NATIVE_PAYLOAD_LIMIT} bytes of JSON (NATIVE_PAYLOAD_LIMIT); a larger compaction is kept out of the entry and only the portable summary stored`,
      });
    }
  });
