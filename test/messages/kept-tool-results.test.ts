// The tool results ctxkit writes in place of others are built small (shared frozen parts, exact
// shapes) and are the messages their plain definitions below describe, key for key.
import { test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { recallIdOf } from '../../src/agent-tools/index.js';
import {
  archiveToolResult,
  createArchivedPlaceholder,
  createMissingResult,
  withMeta,
} from '../../src/messages/kept-tool-results.js';
import { ARCHIVED_RESULT_PATTERN, MISSING_RESULT_TEXT } from '../../src/schemas/index.js';
import { arbitraryConversation } from '../../src/testing/index.js';
import type { ToolCall, ToolResultMessage } from '../../src/types.js';

/** The definitions, as plain spreads. */
const archived = (result: ToolResultMessage): ToolResultMessage => ({
  ...result,
  meta: { ...result.meta, agentVisible: false, kind: 'tool_result_archived' },
});
/** Characters as a placeholder writes them: exact below 1,000, then k (one decimal below 10k) and M. */
const size = (characters: number): string =>
  characters < 1000
    ? String(characters)
    : characters < 10_000
      ? `${Number((characters / 1000).toFixed(1))}k`
      : characters < 999_500
        ? `${Math.round(characters / 1000)}k`
        : `${Number((characters / 1_000_000).toFixed(1))}M`;
const placeholderText = (result: ToolResultMessage): string => {
  const characters = result.content.reduce((sum, part) => sum + (part.type === 'text' ? part.text.length : 0), 0);
  const id = recallIdOf(result.toolCallId);
  return `[archived ${id}: ${size(characters)} chars; recall ${id}]`;
};
const placeholder = (result: ToolResultMessage): ToolResultMessage => ({
  role: 'toolResult',
  toolCallId: result.toolCallId,
  toolName: result.toolName,
  content: [{ type: 'text', text: placeholderText(result) }],
  ...(result.isError === undefined ? {} : { isError: result.isError }),
  meta: { ...result.meta, agentVisible: true, kind: 'tool_result_archived' },
});
const missing = (call: ToolCall): ToolResultMessage => ({
  role: 'toolResult',
  toolCallId: call.id,
  toolName: call.name,
  content: [{ type: 'text', text: MISSING_RESULT_TEXT }],
  isError: true,
  meta: { kind: 'tool_result', userVisible: false },
});

const variants = (result: ToolResultMessage): ToolResultMessage[] => [
  result,
  { ...result, meta: { userVisible: false, kind: 'tool_result' } },
  { ...result, meta: { agentVisible: false, kind: 'tool_result_archived' } },
  { ...result, isError: true },
  { ...result, isError: undefined },
  { ...result, providerData: { openai: { status: 'completed' } } },
  { meta: { id: 'm1' }, ...result },
];

/** Same keys in the same order: a stored or serialized copy is byte for byte the reference's. */
function expectSameJson(actual: ToolResultMessage, expected: ToolResultMessage): void {
  expect(actual).toEqual(expected);
  expect(Object.keys(actual)).toEqual(Object.keys(expected));
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

test.prop([arbitraryConversation({ maxLength: 20 })])(
  'an archived copy, a placeholder and a missing result are the messages their definitions describe',
  (conversation) => {
    for (const message of conversation) {
      if (message.role === 'assistant') {
        for (const part of message.content)
          if (part.type === 'toolCall') expect(createMissingResult(part.id, part.name)).toEqual(missing(part));
      }
      if (message.role !== 'toolResult') continue;
      for (const result of variants(message)) {
        expectSameJson(archiveToolResult(result), archived(result));
        expectSameJson(createArchivedPlaceholder(result), placeholder(result));
        // The placeholder of an archived copy (as the manager sends a result it archives early).
        expectSameJson(createArchivedPlaceholder(archiveToolResult(result)), placeholder(archived(result)));
        const meta = { ...result.meta, agentVisible: true };
        expectSameJson(withMeta(result, meta), Object.assign({}, result, { meta }));
        const renamed = createArchivedPlaceholder(result, 'renamed');
        expect(renamed.toolCallId).toBe('renamed');
        // The recall id is the result's own call id's, whatever id the placeholder is sent under.
        const text = (renamed.content[0] as { text: string }).text;
        expect(ARCHIVED_RESULT_PATTERN.exec(text)?.[1]).toBe(recallIdOf(result.toolCallId));
      }
    }
  },
);
