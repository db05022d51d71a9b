import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  clearToolUses,
  compact,
  contextUsage,
  createInMemorySessionStore,
  getModelLimits,
  heuristicSummarizer,
  processToolOutput,
  resolveConfig,
  splitByCount,
  splitByTokenBudget,
  summarizeToolResults,
  truncateToolContent,
} from '../../src/index.js';
import { createFileSpillStore, createJsonlStore } from '../../src/node/index.js';
import { userMessage } from '../../src/testing/index.js';

/** The ConfigError a call throws (sync or async), or fails the test. */
async function configError(call: () => unknown): Promise<ConfigError> {
  let caught: unknown;
  try {
    await call();
  } catch (error) {
    caught = error;
  }
  expect(ConfigError.isInstance(caught)).toBe(true);
  return caught as ConfigError;
}

describe('option errors name the function, the field and the fix', () => {
  it.each([
    [
      () => splitByTokenBudget([], { budget: -1 }),
      'splitByTokenBudget: options.budget must be a finite number ≥ 0 (got -1)',
      'budget',
    ],
    [
      () => splitByTokenBudget([], { budget: Number.POSITIVE_INFINITY }),
      'splitByTokenBudget: options.budget must be a finite number ≥ 0 (got Infinity)',
      'budget',
    ],
    [
      () => splitByCount([], { keep: 'five' as never }),
      'splitByCount: options.keep must be a finite number ≥ 0 (got "five")',
      'keep',
    ],
    [() => clearToolUses([], { keep: -2 }), 'clearToolUses: options.keep must be a whole number ≥ 0 (got -2)', 'keep'],
    [
      () => truncateToolContent('x', { maxLines: 0 }),
      'truncateToolContent: limits.maxLines must be a whole number ≥ 1 (got 0)',
      'maxLines',
    ],
    [
      () => resolveConfig({ warningThreshold: 2 }),
      'resolveConfig: config.warningThreshold must be a number greater than 0 and at most 1 (got 2)',
      'warningThreshold',
    ],
    [
      () => resolveConfig({ toolOutput: { truncateMode: 'middle' as never } }),
      'resolveConfig: config.toolOutput.truncateMode must be one of "head", "head_tail" (got "middle")',
      'toolOutput.truncateMode',
    ],
    [
      () => compact([], { summarizer: heuristicSummarizer, maxOutputTokens: 1.5 }),
      'compact: options.maxOutputTokens must be a whole number ≥ 1 (got 1.5)',
      'maxOutputTokens',
    ],
    [
      () => summarizeToolResults([], { cutoff: -1 }),
      'summarizeToolResults: options.cutoff must be a whole number ≥ 0 (got -1)',
      'cutoff',
    ],
    [
      () => getModelLimits('gpt-4o', { overrides: 5 as never }),
      'getModelLimits: options.overrides must be an object of model id → { contextWindow, maxOutputTokens } (got 5)',
      'overrides',
    ],
    [
      () => createInMemorySessionStore({ now: 5 as never }),
      'createInMemorySessionStore: options.now must be a function that returns the time in milliseconds, like Date.now (got 5)',
      'now',
    ],
    [
      () => createFileSpillStore({ directory: '' }),
      'createFileSpillStore: options.directory must be a directory path (a non-empty string) (got "")',
      'directory',
    ],
    [
      () => createJsonlStore({} as never),
      'createJsonlStore: options.directory must be the directory of the session files, e.g. createJsonlStore({ directory: ".sessions" }) (got undefined)',
      'directory',
    ],
    [
      () => createJsonlStore({ directory: '.sessions', maxSessionBytes: 0 }),
      'createJsonlStore: options.maxSessionBytes must be a whole number of bytes ≥ 1 (default 268435456) (got 0)',
      'maxSessionBytes',
    ],
  ])('%#: %s', async (call, message, field) => {
    const error = await configError(call);
    expect(error.message).toBe(message);
    expect(error.field).toBe(field);
    expect(error.code).toBe('CONFIG_INVALID');
  });

  it('names the calling function when settings are passed through `config`', async () => {
    const usage = await configError(() => contextUsage([userMessage('hi')], { config: { maxTokens: -5 } }));
    expect(usage.message).toBe('contextUsage: options.config.maxTokens must be a whole number ≥ 0 (got -5)');
    const compacted = await configError(() =>
      compact([userMessage('hi')], {
        summarizer: heuristicSummarizer,
        config: { contextWindow: 4_000, reserveTokens: 3_999 },
      }),
    );
    expect(compacted.message).toMatch(/^compact: options\.config\.reserveTokens \(3999\) leaves/);
  });

  it('names processToolOutput when its limits are wrong', async () => {
    const error = await configError(() => processToolOutput('x', { limits: { maxChars: -1 } }));
    expect(error.message).toBe('processToolOutput: limits.maxChars must be a whole number ≥ 1 (got -1)');
  });

  it('says how to fix an unknown key and a missing contract', async () => {
    const unknown = await configError(() => resolveConfig({ maxTokes: 5 } as never));
    expect(unknown.message).toBe('resolveConfig: config has unknown key "maxTokes": remove it or check the spelling');
    const missing = await configError(() => compact([], {} as never));
    expect(missing.field).toBe('summarizer');
    expect(missing.message).toMatch(/^compact: options\.summarizer must be a Summarizer.*heuristicSummarizer/);
  });
});
