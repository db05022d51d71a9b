import type { StopReason } from '../types.js';

/**
 * The AI SDK's finish reason as ctxkit's {@link StopReason}: `stop` and `other` → `stop`, `length` →
 * `length`, `tool-calls` → `toolUse`, `content-filter` and `error` → `error` (not sent back).
 *
 * @param reason - `finishReason` (or a provider's `{ unified }`).
 * @returns The stop reason.
 *
 * @example
 * ```ts
 * fromFinishReason('tool-calls'); // 'toolUse'
 * ```
 */
export function fromFinishReason(reason: string | { unified: string } | undefined): StopReason {
  const value = typeof reason === 'object' && reason !== null ? reason.unified : reason;
  switch (value) {
    case 'length':
      return 'length';
    case 'tool-calls':
      return 'toolUse';
    case 'content-filter':
    case 'error':
      return 'error';
    default:
      return 'stop';
  }
}
