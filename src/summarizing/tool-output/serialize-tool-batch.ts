/** The text of a batch of archived tool results for a summarizer, each result given its share. Internal. */
import { clipText, codePointLength } from '../../internal/clip-text.js';
import type { Message } from '../../types.js';
import { commandOf, outcomeOf } from '../anchors/tool-facts.js';
import { contentText, serializeMessages } from '../serialize-conversation.js';
import { shareBudget } from './share-budget.js';
import { digestToolOutput } from './summarize-tool-output.js';

/** Code points of a result's text kept at least, whatever its share. */
const MIN_RESULT_CHARS = 200;
/** A failed result's weight in the shares, against 1 for the others: its errors are what a summary keeps. */
const FAILED_WEIGHT = 4;
/** Of a cut result's room, the most its parsed digest (counts, codes, locations, failing tests) takes. */
const DIGEST_SHARE = 0.6;
/** Between a cut result's digest and its output's head and tail. */
const OUTPUT_LABEL = '\n[output, head and tail:]\n';

/** Code points of `text`, counted without building them. */
function size(text: string): number {
  return codePointLength(text);
}

/**
 * Serializes each call and its result on their own, within a share of `maxChars` (what a short
 * result leaves goes to the longer ones; a failed result weighs four times another): a call's line
 * (its command) and the result's label are never cut, only the result's text. A result cut to its
 * share starts with its parsed digest (the tool's counts, every error code and location and failing
 * test that fit), then its output's head and tail. So twenty results archived at once all reach the
 * model, with the facts of the failed ones.
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
  // A call made again with the same result (an agent running the suite again) is named, its output not repeated.
  const seen = new Set<string>();
  for (let index = 0; index < groups.length; index++) {
    const key = repeatKey(groups[index]!);
    if (key === undefined) continue;
    if (seen.has(key)) groups[index] = asRepeat(groups[index]!);
    else seen.add(key);
  }
  // Loops, not callbacks: closures made per call are compiled again by V8 once they are hot.
  const full: string[] = [];
  // Each text's code points counted once: the shares are computed from them and then compared.
  const sizes: number[] = [];
  const weights: number[] = [];
  for (const group of groups) {
    const text = serializeMessages(group);
    full.push(text);
    sizes.push(size(text));
    weights.push(failed(group) ? FAILED_WEIGHT : 1);
  }
  const separators = Math.max(0, groups.length - 1) * 2;
  const shares = shareBudget(sizes, maxChars - separators, weights);
  const texts: string[] = [];
  for (let index = 0; index < groups.length; index++) {
    texts.push(sizes[index]! <= shares[index]! ? full[index]! : cutToShare(groups[index]!, shares[index]!));
  }
  return texts.join('\n\n');
}

/** What the model reads in place of a result an earlier call of the batch already returned. */
const REPEATED_OUTPUT = '(the same output as the same call above)';

/** A call and its result as one key (tool, arguments, error flag, output); none for a group that is not a pair. */
function repeatKey(group: readonly Message[]): string | undefined {
  const [assistant, result] = group;
  if (group.length !== 2 || assistant?.role !== 'assistant' || result?.role !== 'toolResult') return undefined;
  const call = assistant.content.find((part) => part.type === 'toolCall' && part.id === result.toolCallId);
  if (call?.type !== 'toolCall') return undefined;
  return `${call.name}\u0000${JSON.stringify(call.arguments)}\u0000${result.isError === true}\u0000${contentText(result.content)}`;
}

/** The pair with its result's text replaced by {@link REPEATED_OUTPUT}. */
function asRepeat(group: readonly Message[]): Message[] {
  return group.map((message) =>
    message.role === 'toolResult'
      ? { ...message, content: [{ type: 'text' as const, text: REPEATED_OUTPUT }] }
      : message,
  );
}

/** Whether a group's result did not end ok (an error, or a non-zero exit it reports). */
function failed(group: readonly Message[]): boolean {
  const result = group[group.length - 1];
  if (result?.role !== 'toolResult') return false;
  return !outcomeOf(result, contentText(result.content)).ok;
}

/**
 * A call and its result within `share` code points: the call's line and the labels whole, the
 * result's text as its digest and then its head and tail.
 */
function cutToShare(group: readonly Message[], share: number): string {
  const result = group[group.length - 1];
  const frame = size(
    serializeMessages(
      group.map((message) =>
        message.role === 'toolResult' ? { ...message, content: [{ type: 'text' as const, text: '' }] } : message,
      ),
    ),
  );
  const room = Math.max(MIN_RESULT_CHARS, share - frame);
  if (result?.role !== 'toolResult') return serializeMessages(group, { toolResultMaxChars: room });
  const call = group[0]?.role === 'assistant' ? group[0].content.find((part) => part.type === 'toolCall') : undefined;
  const output = contentText(result.content);
  const command = call === undefined ? undefined : commandOf(call);
  // The result's label says whether it failed (`(error)`); its digest states an exit status the
  // output reports, never `exit status unknown`.
  const digest = digestToolOutput(output, { maxChars: Math.floor(room * DIGEST_SHARE), command, exit: 'known' });
  const rest = room - size(digest) - size(OUTPUT_LABEL);
  const text = rest > 0 ? `${digest}${OUTPUT_LABEL}${clipText(output, rest, 'head_tail')}` : digest;
  return serializeMessages(
    group.map((message) => (message === result ? { ...result, content: [{ type: 'text' as const, text }] } : message)),
  );
}
