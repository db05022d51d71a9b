/** The shape every tool-output parser fills. Internal. */
import type { ToolOutputProblem } from './parsed-tool-output.js';

/** What one parser read out of the lines. @internal */
export interface ParserResult {
  counts: string[];
  problems: ToolOutputProblem[];
  notes: string[];
}

/** An empty result to fill. @internal */
export function emptyResult(): ParserResult {
  return { counts: [], problems: [], notes: [] };
}
