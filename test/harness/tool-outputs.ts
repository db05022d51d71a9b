// The tool outputs the end-to-end tests feed their agents: what a coding agent reads back from a test
// run (`not ok` lines) and from a compiler (one error per line), of a hundred to thousands of lines,
// built once per size, and logs whose length is seeded by the tool call's id (the same on every run).

/** One output of `lines` lines: a test run's failures (even `index`) or a compiler's errors (odd). */
function codingOutput(lines: number, index: number): string {
  const out: string[] = [];
  for (let line = 0; line < lines; line++) {
    out.push(
      index % 2 === 0
        ? `not ok ${line} - parser handles case ${line} # expected ${line % 7} got ${line % 5}`
        : `src/module${line % 40}/file${line}.ts(${line % 300},5): error TS2345: Argument of type 'string' is not assignable to 'number'.`,
    );
  }
  return out.join('\n');
}

/** Line counts of the outputs, in the order the tools return them (every one beyond the 400-line cut). */
export const LONG_OUTPUT_LINES = [150, 3_000, 700, 2_200, 400, 1_500, 2_800, 1_000] as const;

/**
 * The coding outputs of the given line counts, built once each.
 *
 * @param lines - One line count per output, in the order they are returned.
 * @returns The outputs.
 */
export function codingOutputs(lines: readonly number[] = LONG_OUTPUT_LINES): string[] {
  return lines.map(codingOutput);
}

/** Scripted tools: each call returns the next output (after the path asked for), and is recorded. */
export interface ScriptedToolOutputs {
  /** The output of the next call for `path`. */
  next(path: string): string;
  /** Every output returned, in order. */
  readonly returned: string[];
}

/**
 * Outputs returned in turn by every tool of a test (one sequence shared by all its tools).
 *
 * @param lines - The outputs' line counts, cycled.
 * @returns The scripted outputs.
 */
export function scriptedToolOutputs(lines: readonly number[] = LONG_OUTPUT_LINES): ScriptedToolOutputs {
  const outputs = codingOutputs(lines);
  const returned: string[] = [];
  return {
    returned,
    next(path) {
      const output = `${path}\n${outputs[returned.length % outputs.length]}`;
      returned.push(output);
      return output;
    },
  };
}

/**
 * A log of `fewest` to `fewest + spread - 1` lines: the length follows a hash of the tool call's id,
 * so a session gets the same outputs on every run and a retried call the same output again.
 *
 * @param file - The file named on every line.
 * @param callId - The tool call's id.
 * @param lines - The fewest lines (default 60) and how many more a log may have (default 3,000).
 * @returns The log.
 */
export function seededLog(file: string, callId: string, lines: { fewest?: number; spread?: number } = {}): string {
  const { fewest = 60, spread = 3_000 } = lines;
  const seed = [...callId].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) % 10_007, 7);
  return Array.from({ length: fewest + (seed % spread) }, (_, index) => `${file}:${index} ok`).join('\n');
}
