import type { Message } from '../../types.js';
import { anthropicData } from './provider-data.js';
import type { WireObject } from './wire-object.js';
import { type Warn, writeAssistantPart, writeToolResult, writeUserParts } from './write-blocks.js';

// ctxkit messages as the turns of a Messages API request: consecutive messages of one side merge
// into one turn, tool results open the next user turn.

/** A turn being built: consecutive ctxkit messages of one side merge into it. @internal */
export interface Turn {
  role: 'user' | 'assistant' | 'system';
  /** A single string content, kept as a string while nothing merges into the turn. */
  text?: string;
  results: WireObject[];
  blocks: WireObject[];
  fields?: WireObject;
}

/** The turn a message of `role` joins: the last one when it is on the same side, else a new one. */
function turnFor(turns: Turn[], role: Turn['role'], fields: WireObject | undefined): Turn {
  const last = turns[turns.length - 1];
  if (last !== undefined && last.role === role && role !== 'system') {
    if (last.text !== undefined) {
      last.blocks.unshift({ type: 'text', text: last.text });
      delete last.text;
    }
    if (fields !== undefined) last.fields = { ...last.fields, ...fields };
    return last;
  }
  const turn: Turn = { role, results: [], blocks: [], ...(fields === undefined ? {} : { fields }) };
  turns.push(turn);
  return turn;
}

function turnFields(message: Message): WireObject | undefined {
  const turn = anthropicData(message)?.['turn'];
  return typeof turn === 'object' && turn !== null ? (turn as WireObject) : undefined;
}

/** Adds a message to the turns: merged into the last turn when on the same side, else a new turn. @internal */
export function addMessage(turns: Turn[], message: Message, warn: Warn): void {
  const data = anthropicData(message);
  const fields = turnFields(message);
  if (message.role === 'assistant') {
    const blocks: WireObject[] = [];
    for (const part of message.content) {
      const block = writeAssistantPart(part, warn);
      if (block !== undefined) blocks.push(block);
    }
    if (blocks.length === 0) {
      warn('dropped an assistant message with no content the API accepts (it rejects an empty assistant turn)');
      return;
    }
    const single = blocks.length === 1 && blocks[0]!['type'] === 'text' && Object.keys(blocks[0]!).length === 2;
    const last = turns[turns.length - 1];
    if (data?.['content'] === 'string' && single && last?.role !== 'assistant') {
      turns.push({
        role: 'assistant',
        text: blocks[0]!['text'] as string,
        results: [],
        blocks: [],
        ...(fields ? { fields } : {}),
      });
      return;
    }
    turnFor(turns, 'assistant', fields).blocks.push(...blocks);
    return;
  }
  if (message.role === 'toolResult') {
    turnFor(turns, 'user', fields).results.push(writeToolResult(message, warn));
    return;
  }
  const role = data?.['role'] === 'system' ? 'system' : 'user';
  if (typeof message.content === 'string') {
    if (message.content.trim().length === 0) {
      warn('dropped a user message with empty or blank content (the API rejects it)');
      return;
    }
    const last = turns[turns.length - 1];
    if (last?.role === role && role === 'user')
      turnFor(turns, role, fields).blocks.push({ type: 'text', text: message.content });
    else turns.push({ role, text: message.content, results: [], blocks: [], ...(fields ? { fields } : {}) });
    return;
  }
  const blocks = writeUserParts(message.content, warn);
  if (blocks.length === 0) {
    warn('dropped a user message with no content the API accepts');
    return;
  }
  turnFor(turns, role, fields).blocks.push(...blocks);
}
