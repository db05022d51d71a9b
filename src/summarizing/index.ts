// `ctxkit/summarizing`: for hosts that write their own summarizer or check a summary themselves. The
// prompts and the conversation serializer ctxkit's own summarizers use, the summary message
// builders, anchored facts (extract, check, pin), the tool-output parsers, and the `Summarizer`
// contract with its request and output types. The root entry also exports `Summarizer`,
// `createSummarizer` (the summarizer these prompts belong to) and `heuristicSummarizer`.
export { createSummaryMessage } from '../messages/create-summary-message.js';
export { summaryText } from '../messages/summary-text.js';
export {
  ANCHOR_CATEGORIES,
  type Anchor,
  type AnchorCategory,
} from './anchors/anchor.js';
export { type AnchorCheck, checkAnchors } from './anchors/check-anchors.js';
export { type ExtractAnchorsOptions, extractAnchors } from './anchors/extract-anchors.js';
export { type PinAnchorsOptions, type PinAnchorsResult, pinAnchors } from './anchors/pin-anchors.js';
export { PINNED_HEADING } from './anchors/pinned-section.js';
export {
  type CompletionFunction,
  type CompletionInput,
  type CompletionOutput,
  type CreateSummarizerOptions,
  createSummarizer,
} from './create-summarizer.js';
export { type SerializeConversationOptions, serializeConversation } from './serialize-conversation.js';
export type { Summarizer, SummaryOutput, SummaryRequest } from './summarizer-types.js';
export {
  conversationSummaryPrompt,
  SUMMARY_PROMPTS,
  SUMMARY_SECTIONS,
  SUMMARY_SYSTEM_PROMPT,
  type SummaryPromptBuilder,
} from './summary-prompts.js';
export { type ParseToolOutputOptions, parseToolOutput } from './tool-output/parse-tool-output.js';
export type {
  ParsedToolOutput,
  ToolOutputFormat,
  ToolOutputProblem,
} from './tool-output/parsed-tool-output.js';
export { renderToolOutput } from './tool-output/render-tool-output.js';
export {
  type SummarizeToolOutputOptions,
  summarizeToolOutput,
} from './tool-output/summarize-tool-output.js';
