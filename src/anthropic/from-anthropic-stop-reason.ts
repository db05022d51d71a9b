import type { StopReason } from '../types.js';

/**
 * Anthropic's `stop_reason` as ctxkit's {@link StopReason}: `end_turn`, `stop_sequence` and
 * `pause_turn` (a server-tool loop to continue by sending the turn back) → `stop`; `max_tokens` and
 * `model_context_window_exceeded` → `length`; `tool_use` → `toolUse`; `refusal` → `error` (the turn
 * is not sent back to the model). The raw value stays in the message's `providerData.anthropic`.
 *
 * @param reason - The response's `stop_reason`.
 * @returns The ctxkit stop reason, `stop` for an unknown or missing one.
 *
 * @example
 * ```ts
 * fromAnthropicStopReason('max_tokens'); // 'length'
 * ```
 */
export function fromAnthropicStopReason(reason: string | null | undefined): StopReason {
  switch (reason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'toolUse';
    case 'refusal':
      return 'error';
    default:
      return 'stop';
  }
}
