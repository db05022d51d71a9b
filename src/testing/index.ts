// The `ctxkit/testing` entry: builders, a scripted summarizer, fast-check arbitraries and invariant
// checkers for hosts' own tests. Needs `fast-check` (an optional peer dependency) for the arbitraries.
// Every checker returns the problems it found as readable sentences; an empty list means the
// invariant holds, so `expect(checkX(...)).toEqual([])` prints them all when a test fails.

export { checkNotMutated, deepFreeze } from './check-not-mutated.js';
export { type CheckNothingLostOptions, checkNothingLost } from './check-nothing-lost.js';
export { type CheckToolPairingOptions, checkSplitKeepsToolPairs, checkToolPairing } from './check-tool-pairing.js';
export { checkWellFormedText, checkWithinLimits } from './check-within-limits.js';
export { type ArbitraryConversationOptions, arbitraryConversation, arbitraryMessage } from './message-arbitraries.js';
export {
  type AssistantMessageOptions,
  assistantMessage,
  conversation,
  type ImageMessageOptions,
  imageMessage,
  summaryMessage,
  type ToolCallSpec,
  type ToolResultMessageOptions,
  toolCallMessage,
  toolResultMessage,
  userMessage,
} from './message-builders.js';
export { createScriptedSummarizer, type ScriptedSummarizer, type ScriptStep } from './scripted-summarizer.js';
export {
  type ArbitraryToolOutputOptions,
  arbitraryToolOutput,
  arbitraryToolOutputLimits,
} from './tool-output-arbitraries.js';
