/** The recall id of a result a checkpoint folds away, as an anchor: what `recall` takes to read it back. Internal. */

import { oneLine } from '../../internal/one-line.js';
import { formatSize, recallIdOf } from '../../messages/recall-id.js';
import { ARCHIVED_RESULT_PATTERN } from '../../messages/wire-strings.js';
import type { ToolCall, ToolResultMessage } from '../../types.js';
import type { Anchor } from './anchor.js';
import type { AnchorList } from './anchor-list.js';
import { commandOf, outcomeOf, pathsOf } from './tool-facts.js';
import { clipWords, KEY_CHARS } from './user-words.js';

/** The notice of an output cut into the spill store: `… saved to <path> (SHA-256 …); recall r0k3x9a2b]`. */
const SPILL_NOTICE = /\bsaved\b[^\n\]]*?; recall (r[0-9a-z]{8})\b/;
/** The whole output's size in a spill notice: `the full output had 2,431 lines, 48,210 characters`. */
const SPILLED_CHARACTERS = /\bhad [\d,]+ lines?, ([\d,]+) characters?\b/;
/**
 * Recall anchors a checkpoint carries at most, the newest kept: they are pinned last and dropped
 * first anyway, and this keeps the anchors riding on a summary message bounded in a long session.
 */
const MAX_RECALL_ANCHORS = 64;

/** What the call was: its tool and command, else the files or address it names (`read build.log`). */
function whatOf(result: ToolResultMessage, call: ToolCall | undefined): string {
  const name = call?.name ?? result.toolName;
  if (!call) return name;
  const command = commandOf(call);
  if (command !== undefined) return `${name} \`${clipWords(oneLine(command), KEY_CHARS)}\``;
  const url = typeof call.arguments?.['url'] === 'string' ? [call.arguments['url']] : [];
  const query = typeof call.arguments?.['query'] === 'string' ? [`"${call.arguments['query']}"`] : [];
  return clipWords(oneLine([name, ...pathsOf(call), ...url, ...query].join(' ')), KEY_CHARS);
}

/**
 * The line a checkpoint keeps for a tool result the model can `recall`: an archived result (its
 * hidden copy, or the placeholder sent for it) or one whose notice says it was spilled with a recall
 * id. It names the id, what the call was, the result's size and how the call ended when that is more
 * than `ok`: `r0k3x9a2b: bash \`npm test\` (48k chars, failed (exit 1))`. Its keys are the id and what
 * the call was, so its short form reads `r0k3x9a2b @ bash npm test`.
 *
 * @internal
 */
export function recallAnchor(
  result: ToolResultMessage,
  call: ToolCall | undefined,
  archived: boolean,
): Anchor | undefined {
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  const placeholder = archived ? ARCHIVED_RESULT_PATTERN.exec(text.trim()) : null;
  let id: string;
  let size: string | undefined;
  if (placeholder) {
    id = placeholder[1]!;
    size = /: ([0-9.]+[kM]?) chars;/.exec(text)?.[1];
  } else if (archived) {
    id = recallIdOf(result.toolCallId);
    size = formatSize(text.length);
  } else {
    const spilled = SPILL_NOTICE.exec(text);
    if (!spilled) return undefined;
    id = spilled[1]!;
    const characters = SPILLED_CHARACTERS.exec(text)?.[1];
    size = characters === undefined ? undefined : formatSize(Number(characters.replaceAll(',', '')));
  }
  const what = whatOf(result, call);
  const outcome = placeholder ? undefined : outcomeOf(result, text).label;
  const notes = [...(size === undefined ? [] : [`${size} chars`]), ...(outcome && outcome !== 'ok' ? [outcome] : [])];
  return {
    category: 'recall',
    text: `${id}: ${what}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`,
    keys: [id, what],
  };
}

/** Drops all but the newest {@link MAX_RECALL_ANCHORS} recall anchors of a list. @internal */
export function boundRecallAnchors(list: AnchorList): void {
  const recall = list.values().filter((anchor) => anchor.category === 'recall');
  const excess = new Set(recall.slice(0, Math.max(0, recall.length - MAX_RECALL_ANCHORS)));
  if (excess.size > 0) list.deleteWhere((anchor) => excess.has(anchor));
}
