import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { effectiveTokenLimit, resolveConfig } from '../../src/config/index.js';
import { measureUsage } from '../../src/counting/context-usage.js';
import { usageAt } from '../../src/manager/internal/usage-at.js';

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
