// The manager's compact tool results (shared frozen parts) are the same messages as the ones the
// pure functions build.
import { test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { archivedCopy, missingResult, sharedPlaceholder } from '../../src/messages/internal/kept-tool-results.js';
import {
  archiveToolResult,
  createArchivedPlaceholder,
  createMissingResult,
} from '../../src/messages/internal/tool-result-messages.js';
import { arbitraryConversation } from '../../src/testing/index.js';
import type { ToolResultMessage } from '../../src/types.js';

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
  'an archived copy, a placeholder and a missing result equal the pure builders’',
  (conversation) => {
    for (const message of conversation) {
      if (message.role === 'assistant') {
        for (const part of message.content)
          if (part.type === 'toolCall') expect(missingResult(part.id, part.name)).toEqual(createMissingResult(part));
      }
      if (message.role !== 'toolResult') continue;
      for (const result of variants(message)) {
        expectSameJson(archivedCopy(result), archiveToolResult(result));
        expectSameJson(sharedPlaceholder(result, result.toolCallId), createArchivedPlaceholder(result));
        expect(sharedPlaceholder(result, 'renamed').toolCallId).toBe('renamed');
      }
    }
  },
);
