import { collectErrorFacts } from './internal/collect-error-facts.js';

/** Codes a provider gives a native compaction payload it cannot take (lower case). */
const REFUSAL_CODES = new Set([
  // OpenAI: an encrypted item (compaction or reasoning) made under another key, org or provider.
  'invalid_encrypted_content',
  // Anthropic: a compaction block that does not verify or does not fit the request.
  'compaction_signature_invalid',
  'compaction_content_mismatch',
  'compaction_block_misplaced',
  'compaction_block_ambiguous',
  'compaction_tool_changes_mismatch',
]);

const REFUSAL_TEXTS = [
  // OpenAI: "The encrypted content gAAA…== could not be verified."
  /encrypted[ _]content\b.*\bcould not be (?:verified|decrypted)/is,
  // A provider or proxy that does not know the item: `item type "compaction" is not supported`.
  /\b(?:item|block|input)(?: content)? type[: ]+["'`]?compaction["'`]? is not supported/i,
  /unsupported (?:item|content block|input) type[: ]+["'`]?compaction\b/i,
  /invalid value[: ]+["'`]compaction["'`]/i,
  // Anthropic: "…compaction block…" with a signature or encrypted content that does not verify.
  /\bcompaction block\b.*\b(?:signature|encrypted_content)\b.*\b(?:invalid|not valid|does not verify|could not be verified)/is,
];

/**
 * Whether an error (or an error response body) is a provider refusing a native compaction payload
 * it cannot read: OpenAI's `invalid_encrypted_content` ("The encrypted content … could not be
 * verified": a rotated key, another organization), `item type "compaction" is not supported` from a
 * provider or proxy that does not know the item, and Anthropic's compaction block errors
 * (`compaction_signature_invalid`, `compaction_content_mismatch`, …). Overflow and rate-limit errors
 * are not refusals. The manager answers a refusal by dropping the native payload, splicing in the
 * portable summary and retrying once.
 *
 * @param error - An error thrown by a client, or a response body; any value is accepted.
 * @returns `true` for a refusal of a native compaction payload.
 *
 * @example
 * ```ts
 * try {
 *   await client.responses.create(request);
 * } catch (error) {
 *   if (isNativeCompactionRefusal(error)) history = dropNativeCompactions(history);
 * }
 * ```
 */
export function isNativeCompactionRefusal(error: unknown): boolean {
  const facts = collectErrorFacts(error);
  if (facts.codes.some((code) => REFUSAL_CODES.has(code))) return true;
  return facts.texts.some((text) => REFUSAL_TEXTS.some((pattern) => pattern.test(text)));
}
