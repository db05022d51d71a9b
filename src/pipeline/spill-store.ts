// The spill-store contract: where `processToolOutput` saves tool output too large to keep.

/**
 * Where a tool output was saved in full.
 *
 * @example
 * ```ts
 * const saved: SpilledOutput = { path: '.agent/tool-outputs/run-1.txt', sha256: 'ab12…', bytes: 1_048_576 };
 * ```
 */
export interface SpilledOutput {
  /** Where the host (or the model, through a read tool) can find the full output. */
  path: string;
  /** Hex SHA-256 of the UTF-8 content, so a reader can check it is the same output. */
  sha256: string;
  /** UTF-8 bytes written. */
  bytes: number;
}

/**
 * What a {@link SpillStore} is told about the output it saves.
 *
 * @example
 * ```ts
 * const info: SpillInfo = { toolName: 'bash', toolCallId: 'call_1' };
 * ```
 */
export interface SpillInfo {
  /** The tool that produced the output. */
  toolName?: string;
  /** The call the output answers. */
  toolCallId?: string;
}

/**
 * Saves tool output too large to keep in the context, so it stays recoverable.
 *
 * Contract: `save` resolves once the content is durably written and returns where it is; it may
 * reject (disk full, permissions), and `processToolOutput` then still truncates the output and
 * says in the notice that it could not be saved. `ctxkit/node` has `createFileSpillStore`.
 *
 * @example
 * ```ts
 * // A store that keeps outputs in a database table the host already has.
 * const store: SpillStore = {
 *   async save(content, info) {
 *     const { id, sha256, bytes } = await db.insertToolOutput({ content, tool: info.toolName });
 *     return { path: `db://tool_outputs/${id}`, sha256, bytes };
 *   },
 * };
 * ```
 */
export interface SpillStore {
  /** Saves `content` in full. */
  save(content: string, info: SpillInfo): Promise<SpilledOutput>;
  /**
   * Optional: reads back an output this store saved, by the `path` `save` returned, so `recall`
   * can return it to the model. Must refuse (reject) any path it did not write; `recall` also
   * checks the SHA-256 the notice named. Without it, spilled outputs cannot be recalled.
   */
  read?(path: string): Promise<string>;
}
