import { compactionUsageSchema, nativeCompactionSchema } from '../schemas/native-compaction.js';
/**
 * A hand-written check of the message model, for the hot path: true only for values the message
 * schema accepts (it may be stricter, never looser), so a caller can skip the schema for what it
 * accepts and ask the schema, for its error, about the rest. About 20× cheaper than the schema.
 *
 * @internal
 */
export function isWellFormedMessage(value: unknown): boolean {
  if (!isObject(value)) return false;
  const message = value as Record<string, unknown>;
  if (!optionalMeta(message.meta) || !optionalRecord(message.providerData)) return false;
  switch (message.role) {
    case 'user': {
      const content = message.content;
      if (typeof content === 'string') return true;
      if (!Array.isArray(content)) return false;
      for (const part of content) if (!isText(part) && !isImage(part)) return false;
      return true;
    }
    case 'assistant': {
      const content = message.content;
      if (!Array.isArray(content)) return false;
      for (const part of content) if (!isText(part) && !isToolCall(part) && !isThinking(part)) return false;
      return (
        optionalUsage(message.usage) &&
        optionalStopReason(message.stopReason) &&
        optionalString(message.errorMessage) &&
        optionalString(message.provider) &&
        optionalString(message.model)
      );
    }
    case 'toolResult': {
      const content = message.content;
      if (typeof message.toolCallId !== 'string' || message.toolCallId.length === 0) return false;
      if (typeof message.toolName !== 'string' || !Array.isArray(content)) return false;
      for (const part of content) if (!isText(part) && !isImage(part)) return false;
      return optionalBoolean(message.isError);
    }
    default:
      return false;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A plain object: what a zod record accepts (an object literal or one without a prototype). */
function isRecord(value: unknown): boolean {
  if (!isObject(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function optionalRecord(value: unknown): boolean {
  return value === undefined || isRecord(value);
}

function optionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

function optionalBoolean(value: unknown): boolean {
  return value === undefined || typeof value === 'boolean';
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function optionalCount(value: unknown): boolean {
  return value === undefined || (isFiniteNumber(value) && value >= 0);
}

function isText(part: unknown): boolean {
  return isObject(part) && part.type === 'text' && typeof part.text === 'string' && optionalRecord(part.providerData);
}

function isImage(part: unknown): boolean {
  return (
    isObject(part) &&
    part.type === 'image' &&
    typeof part.data === 'string' &&
    typeof part.mimeType === 'string' &&
    optionalRecord(part.providerData)
  );
}

function isThinking(part: unknown): boolean {
  return (
    isObject(part) &&
    part.type === 'thinking' &&
    typeof part.thinking === 'string' &&
    optionalString(part.signature) &&
    optionalBoolean(part.redacted) &&
    optionalRecord(part.providerData)
  );
}

function isToolCall(part: unknown): boolean {
  return (
    isObject(part) &&
    part.type === 'toolCall' &&
    typeof part.id === 'string' &&
    part.id.length > 0 &&
    typeof part.name === 'string' &&
    isRecord(part.arguments) &&
    optionalRecord(part.providerData)
  );
}

function optionalUsage(value: unknown): boolean {
  if (value === undefined) return true;
  if (!isObject(value)) return false;
  return (
    isFiniteNumber(value.input) &&
    value.input >= 0 &&
    isFiniteNumber(value.output) &&
    value.output >= 0 &&
    optionalCount(value.cacheRead) &&
    optionalCount(value.cacheWrite) &&
    optionalCount(value.total) &&
    (value.compaction === undefined || compactionUsageSchema.safeParse(value.compaction).success)
  );
}

const STOP_REASONS = new Set(['stop', 'length', 'toolUse', 'error', 'aborted']);

function optionalStopReason(value: unknown): boolean {
  return value === undefined || (typeof value === 'string' && STOP_REASONS.has(value));
}

function optionalMeta(value: unknown): boolean {
  if (value === undefined) return true;
  if (!isObject(value)) return false;
  const kept = value.keptMessages;
  return (
    optionalString(value.id) &&
    (value.timestamp === undefined || isFiniteNumber(value.timestamp)) &&
    optionalBoolean(value.agentVisible) &&
    optionalBoolean(value.userVisible) &&
    optionalString(value.kind) &&
    (kept === undefined || (Number.isSafeInteger(kept) && (kept as number) >= 0)) &&
    // Rare (a provider's native compaction): checked by its schema, payload size included.
    (value.native === undefined || nativeCompactionSchema.safeParse(value.native).success)
  );
}
