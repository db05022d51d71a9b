/** The text of a batch of archived tool results for a summarizer, each result given its share. Internal. */
import { codePointLength } from '../../internal/clip-text.js';
import type { Message } from '../../types.js';
import { serializeMessages } from '../serialize-conversation.js';
import { shareBudget } from './share-budget.js';

/** Code points of a result's text kept at least, whatever its share. */
const MIN_RESULT_CHARS = 200;

/** Code points of `text`, counted without building them. */
function size(text: string): number {
  return codePointLength(text);
}

/**
 * Serializes each call and its result on their own, within a fair share of `maxChars` (what a short
 * result leaves goes to the longer ones): a call's line (its command) and the result's label are
 * never cut, only the result's text, head and tail. So twenty results archived at once all reach the
 * model, and a single long one keeps its command line.
 *
 * Its pairs are checked by the caller (they are copies the summary input builds from checked messages).
 *
 * @internal
 */
export function serializeToolBatch(pairs: readonly Message[], maxChars: number): string {
  const groups: Message[][] = [];
  for (const message of pairs) {
    const last = groups[groups.length - 1];
    if (message.role === 'toolResult' && last && last[last.length - 1]?.role === 'assistant') last.push(message);
    else groups.push([message]);
  }
  // Loops, not callbacks: closures made per call are compiled again by V8 once they are hot.
  const full: string[] = [];
  // Each text's code points counted once: the shares are computed from them and then compared.
  const sizes: number[] = [];
  for (const group of groups) {
    const text = serializeMessages(group);
    full.push(text);
    sizes.push(size(text));
  }
  const separators = Math.max(0, groups.length - 1) * 2;
  const shares = shareBudget(sizes, maxChars - separators);
  const texts: string[] = [];
  for (let index = 0; index < groups.length; index++) {
    texts.push(sizes[index]! <= shares[index]! ? full[index]! : cutToShare(groups[index]!, shares[index]!));
  }
  return texts.join('\n\n');
}

/** A call and its result within `share` code points: the call's line and the labels whole, the result's text cut. */
function cutToShare(group: readonly Message[], share: number): string {
  const frame = size(
    serializeMessages(
      group.map((message) =>
        message.role === 'toolResult' ? { ...message, content: [{ type: 'text' as const, text: '' }] } : message,
      ),
    ),
  );
  return serializeMessages(group, { toolResultMaxChars: Math.max(MIN_RESULT_CHARS, share - frame) });
}
