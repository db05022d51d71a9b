// The memory tool's caps and result shape, apart from the tool so the commands can use them
// without importing the tool (no import cycle).

/**
 * The caps the memory tool enforces, whatever the store.
 *
 * @example
 * ```ts
 * const limits: MemoryToolLimits = { ...DEFAULT_MEMORY_TOOL_LIMITS, maxFiles: 200 };
 * ```
 */
export interface MemoryToolLimits {
  /** UTF-8 bytes a memory file may hold after any command. @default 102400 (100 KiB) */
  maxFileBytes: number;
  /** Characters a `view` (or an edit snippet) returns at most, 1000 or more; longer output is cut with a notice. @default 20000 */
  maxViewCharacters: number;
  /** Files the whole memory may hold; `create` is refused beyond it. @default 1000 */
  maxFiles: number;
  /**
   * Directories the whole memory may hold; `create` and `rename` that would make more are refused.
   * Counting (and the walk of a `view`) stops at `maxFiles + maxDirectories` entries.
   * @default 1000
   */
  maxDirectories: number;
}

/**
 * The default caps: 100 KiB per file, 20,000 characters per view (about 5,000 tokens), 1,000 files,
 * 1,000 directories.
 *
 * @example
 * ```ts
 * console.log(DEFAULT_MEMORY_TOOL_LIMITS.maxFileBytes); // 102400
 * ```
 */
export const DEFAULT_MEMORY_TOOL_LIMITS: Readonly<MemoryToolLimits> = /* @__PURE__ */ (() =>
  Object.freeze({
    maxFileBytes: 100 * 1024,
    maxViewCharacters: 20_000,
    maxFiles: 1000,
    maxDirectories: 1000,
  }))();

/**
 * What one call of the tool returns: text for the model, or an error message for the model (send it
 * back as a tool result with the error flag set).
 *
 * @example
 * ```ts
 * const result: MemoryToolResult = { error: 'path "/etc/passwd" is outside the memory directory; …' };
 * ```
 */
export type MemoryToolResult = { content: string } | { error: string };
