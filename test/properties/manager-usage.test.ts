import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { effectiveTokenLimit, resolveConfig } from '../../src/config/index.js';
import { measureUsage } from '../../src/counting/context-usage.js';
import { archivedCopy } from '../../src/manager/internal/sent-messages.js';
import { usageAt } from '../../src/manager/internal/usage-at.js';
import { archiveToolResult } from '../../src/messages/internal/tool-result-messages.js';
import { arbitraryConversation } from '../../src/testing/index.js';

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
      for (const result of [message, { ...message, meta: { userVisible: false, kind: 'tool_result' } }])
        expect(archivedCopy(result)).toEqual(archiveToolResult(result));
    }
  },
);
