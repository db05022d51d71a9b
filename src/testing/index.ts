// The `ctxkit/testing` entry: builders, a scripted summarizer, fast-check arbitraries and invariant
// checkers for hosts' own tests. It imports `fast-check`, so that peer dependency (optional for the
// other entries) must be installed to use this one.
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
export {
  type CreateScriptedSummarizerOptions,
  createScriptedSummarizer,
  type ScriptedSummarizer,
  type ScriptStep,
} from './scripted-summarizer.js';
export {
  type ConformanceAssertion,
  type ConformanceRunner,
  type DescribeSessionStoreConformanceOptions,
  describeSessionStoreConformance,
  type SessionStoreHarness,
} from './session-store-conformance.js';
export {
  type ArbitraryToolOutputOptions,
  arbitraryToolOutput,
  arbitraryToolOutputLimits,
} from './tool-output-arbitraries.js';
