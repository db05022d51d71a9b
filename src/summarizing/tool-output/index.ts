/** Tool-output parsers: the public pieces. */
export { type ParseToolOutputOptions, parseToolOutput } from './parse-tool-output.js';
export type { ParsedToolOutput, ToolOutputFormat, ToolOutputProblem } from './parsed-tool-output.js';
export { renderToolOutput, type SummarizeToolOutputOptions, summarizeToolOutput } from './summarize-tool-output.js';
