import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { effectiveTokenLimit, resolveConfig } from '../../src/config/index.js';
import { measureUsage } from '../../src/counting/context-usage.js';
import { archivedCopy } from '../../src/manager/internal/sent-messages.js';
import { usageAt } from '../../src/manager/internal/usage-at.js';
import { archiveToolResult } from '../../src/messages/internal/tool-result-messages.js';
import { arbitraryConversation } from '../../src/testing/index.js';
import type { ToolResultMessage } from '../../src/types.js';

test.prop([
  fc.option(fc.integer({ min: 2_000, max: 2_000_000 }), { nil: undefined }),
  fc.integer({ min: 0, max: 3_000_000 }),
  fc.constantFrom('usage' as const, 'estimate' as const, 'mixed' as const),
  fc.integer({ min: 0, max: 5_000 }),
])('the manager places a count as measureUsage does', (contextWindow, tokens, source, messageCount) => {
  const config = resolveConfig(contextWindow === undefined ? {} : { contextWindow });
  expect(usageAt(config, effectiveTokenLimit(config), tokens, source, messageCount)).toEqual(
    measureUsage(config, tokens, source, messageCount),
  );
});

test.prop([arbitraryConversation({ maxLength: 20 })])(
  'the manager archives a tool result as archiveToolResult does',
  (conversation) => {
    for (const message of conversation) {
      if (message.role !== 'toolResult') continue;
      const variants: ToolResultMessage[] = [
        message,
        { ...message, meta: { userVisible: false, kind: 'tool_result' } },
        { ...message, isError: undefined },
        { ...message, providerData: { openai: { status: 'completed' } } },
        { meta: { id: 'm1' }, ...message },
      ];
      for (const result of variants) {
        const copy = archivedCopy(result);
        expect(copy).toEqual(archiveToolResult(result));
        // Same keys in the same order: a stored or serialized copy is byte for byte the reference's.
        expect(Object.keys(copy)).toEqual(Object.keys(archiveToolResult(result)));
        expect(JSON.stringify(copy)).toBe(JSON.stringify(archiveToolResult(result)));
      }
    }
  },
);
