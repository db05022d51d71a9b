/** Anchors carried in a compaction entry's `details`, so the session tree keeps them too. Internal. */
import { type Anchor, anchorSchema } from './anchor.js';

/** `{ anchors }` of a compaction result, for an entry's `details`; nothing without anchoring. @internal */
export function anchorsOf(result: { messages: readonly { meta?: { anchors?: Anchor[] } }[] }): {
  anchors?: Anchor[];
} {
  const anchors = result.messages[0]?.meta?.anchors;
  return anchors && anchors.length > 0 ? { anchors } : {};
}

/** The valid anchors a stored entry's `details` carries (an older or foreign entry may carry none). @internal */
export function storedAnchors(details: unknown): Anchor[] | undefined {
  const list = (details as { anchors?: unknown } | null | undefined)?.anchors;
  if (!Array.isArray(list)) return undefined;
  const valid = list.flatMap((value) => {
    const parsed = anchorSchema.safeParse(value);
    return parsed.success ? [parsed.data] : [];
  });
  return valid.length > 0 ? valid : undefined;
}
