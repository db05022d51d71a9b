/** How the manager tells that the host's array continues what it saw before. */
import { ContextError } from '../../errors.js';
import type { Message } from '../../types.js';
import { assertMessage } from '../../validation/assert-messages.js';
import { sameContent } from './same-content.js';

/**
 * Whether `input` starts with every message of `previous`, object for object: a walk without
 * allocation, in proportion to `previous` (about 2.5 ns a message, 0.5 ms at 200,000). Every
 * position is compared, so a host may change its array anywhere between calls (replace, remove or
 * reorder messages) and the manager sees it; `ContextManager.append` skips the walk for hosts that
 * say what is new.
 *
 * `Object.is`, not `!==`: for messages (objects) the two agree, but V8 settles `Object.is` of two
 * equal references without reading the objects, while `!==` reads each object's header to rule out
 * a NaN number. Message objects lie scattered across the heap, so those reads miss the processor's
 * caches: the walk took about three times as long with `!==`.
 *
 * From the first position where the objects differ, a message equal in content (the same roles,
 * text, parts, ids and meta, compared field by field) also continues: a host that converts its SDK
 * messages to ctxkit messages before every call (`fromModelMessages(sdkMessages)`) hands in new
 * objects for the same history each time, and starting over for them would count, project and
 * archive the whole history again (a summarizer call per turn when a tool batch is due). Equal
 * content is what the manager's work depends on, so going on from the messages it holds gives the
 * result a fresh start would. A message changed anywhere, in place or replaced, differs in
 * content and the input starts over. The content walk stops at the first difference, so a host that
 * truly starts over pays it only up to there.
 *
 * @internal
 */
export function continues(input: readonly Message[], previous: readonly Message[]): boolean {
  const length = previous.length;
  if (length > input.length) return false;
  let index = 0;
  while (index < length && Object.is(input[index], previous[index])) index++;
  for (; index < length; index++) if (!sameContent(input[index], previous[index])) return false;
  return true;
}

/**
 * Checks a list the host passed, without keeping a record of its messages.
 *
 * @throws {@link ContextError} with code `INPUT_INVALID`.
 * @internal
 */
export function checkList(input: unknown, where: string): asserts input is readonly Message[] {
  checkArray(input, where);
  checkNew(input, 0, where);
}

/**
 * Checks that the host passed an array (its messages are checked as they are taken in).
 *
 * @throws {@link ContextError} with code `INPUT_INVALID`.
 * @internal
 */
export function checkArray(input: unknown, where: string): asserts input is readonly unknown[] {
  if (!Array.isArray(input)) {
    throw new ContextError({
      message: `${where}: messages must be an array of messages, received ${input === null ? 'null' : typeof input}.`,
      code: 'INPUT_INVALID',
    });
  }
}

/**
 * Checks the new messages `input[start…]`, each named by its index in `input`, before any is
 * taken in, so a bad one leaves the manager as it was.
 *
 * @throws {@link ContextError} with code `INPUT_INVALID`.
 * @internal
 */
export function checkNew(input: readonly unknown[], start: number, where: string): void {
  for (let index = start; index < input.length; index++) assertMessage(input[index], where, index);
}

/** A user message the host wrote (not a summary ctxkit made): it starts a turn. @internal */
export function isHostTurn(message: Message): boolean {
  const kind = message.meta?.kind;
  return message.role === 'user' && kind !== 'tool_summary' && kind !== 'compaction_summary';
}
