import { compactionUsageProblem, nativeCompactionProblem } from '../validation/is-well-formed-message.js';

/**
 * A hand-written check of a stored session entry that accepts exactly what `sessionEntrySchema`
 * accepts, about ten times faster: stores run it on every line or row they read, and reopening a
 * 100,000-entry session must not spend its time in the schema. A property test keeps the two in
 * step; when this check refuses, the store asks the schema for a message that names the field.
 *
 * @internal
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const isId = (value: unknown): boolean => typeof value === 'string' && value.length > 0;
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isCount = (value: unknown): boolean => isNumber(value) && value >= 0;
const optional = (value: unknown, check: (value: unknown) => boolean): boolean => value === undefined || check(value);
const isBoolean = (value: unknown): boolean => typeof value === 'boolean';
const isRecord = (value: unknown): boolean => isObject(value);

function isProviderData(value: unknown): boolean {
  return value === undefined || isObject(value);
}

function isText(part: Json): boolean {
  return isString(part.text) && isProviderData(part.providerData);
}

function isImage(part: Json): boolean {
  return isString(part.data) && isString(part.mimeType) && isProviderData(part.providerData);
}

function isThinking(part: Json): boolean {
  return (
    isString(part.thinking) &&
    optional(part.signature, isString) &&
    optional(part.redacted, isBoolean) &&
    isProviderData(part.providerData)
  );
}

function isToolCall(part: Json): boolean {
  return isId(part.id) && isString(part.name) && isRecord(part.arguments) && isProviderData(part.providerData);
}

/** Text and image parts (user content, tool results, custom messages). */
function isUserParts(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const part of value) {
    if (!isObject(part)) return false;
    if (part.type === 'text' ? !isText(part) : part.type === 'image' ? !isImage(part) : true) return false;
  }
  return true;
}

function isUserContent(value: unknown): boolean {
  return isString(value) || isUserParts(value);
}

function isAssistantParts(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const part of value) {
    if (!isObject(part)) return false;
    const { type } = part;
    const ok =
      type === 'text' ? isText(part) : type === 'thinking' ? isThinking(part) : type === 'toolCall' && isToolCall(part);
    if (!ok) return false;
  }
  return true;
}

function isUsage(value: unknown): boolean {
  if (!isObject(value)) return false;
  return (
    isCount(value.input) &&
    isCount(value.output) &&
    optional(value.cacheRead, isCount) &&
    optional(value.cacheWrite, isCount) &&
    optional(value.total, isCount) &&
    compactionUsageProblem(value.compaction, '') === undefined
  );
}

function isMeta(value: unknown): boolean {
  if (!isObject(value)) return false;
  const kept = value.keptMessages;
  return (
    optional(value.id, isString) &&
    optional(value.timestamp, isNumber) &&
    optional(value.agentVisible, isBoolean) &&
    optional(value.userVisible, isBoolean) &&
    optional(value.kind, isString) &&
    (kept === undefined || (isCount(kept) && Number.isInteger(kept))) &&
    nativeCompactionProblem(value.native, '') === undefined
  );
}

const STOP_REASONS = new Set(['stop', 'length', 'toolUse', 'error', 'aborted']);

function isMessage(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (!optional(value.meta, isMeta) || !isProviderData(value.providerData)) return false;
  switch (value.role) {
    case 'user':
      return isUserContent(value.content);
    case 'assistant':
      return (
        isAssistantParts(value.content) &&
        optional(value.usage, isUsage) &&
        (value.stopReason === undefined || STOP_REASONS.has(value.stopReason as string)) &&
        optional(value.errorMessage, isString) &&
        optional(value.provider, isString) &&
        optional(value.model, isString)
      );
    case 'toolResult':
      return (
        isId(value.toolCallId) &&
        isString(value.toolName) &&
        isUserParts(value.content) &&
        optional(value.isError, isBoolean)
      );
    default:
      return false;
  }
}

/**
 * Whether `value` is a valid stored session entry, exactly as `sessionEntrySchema` decides.
 *
 * @internal
 */
export function isStoredEntry(value: unknown): boolean {
  if (!isObject(value)) return false;
  const { timestamp, parentId } = value;
  if (!isId(value.id) || !(parentId === null || isId(parentId))) return false;
  if (!isNumber(timestamp) || timestamp < 0 || timestamp > 8.64e15) return false;
  switch (value.type) {
    case 'message':
      return isMessage(value.message);
    case 'custom_message':
      return isString(value.customType) && isUserContent(value.content) && optional(value.display, isBoolean);
    case 'compaction':
      return (
        isString(value.summary) &&
        isId(value.firstKeptEntryId) &&
        isCount(value.tokensBefore) &&
        nativeCompactionProblem(value.native, '') === undefined
      );
    case 'branch_summary':
      return isId(value.fromId) && isString(value.summary);
    case 'model_change':
      return isString(value.provider) && isString(value.modelId);
    case 'thinking_level_change':
      return isString(value.thinkingLevel);
    case 'label':
      return isId(value.targetId) && optional(value.label, isString);
    case 'session_info':
      return optional(value.name, isString) && optional(value.data, isRecord);
    case 'custom':
      return isString(value.customType);
    default:
      return false;
  }
}
