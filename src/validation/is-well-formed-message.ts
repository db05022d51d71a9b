import { isObject } from '../internal/wire-object.js';
import { jsonBytes, NATIVE_PAYLOAD_LIMIT } from '../native-compaction.js';
// A hand-written check of the message model, kept equal to `messageSchema` (`ctxkit/schemas`) by a
// property test over generated messages, whole and damaged (`test/validation/message-problem.test.ts`).
// Functions check every message a host hands in, so this runs on the hot path: about 20× cheaper
// than the schema, it allocates nothing for a valid message, and it keeps zod out of a bundle that
// only converts and manages messages. `meta.anchors` is left to the stores, which read it back.

/**
 * The first problem of a value as a message, as the field (`.content[0].text`, or `''` for the
 * value itself) and what it must be; `undefined` when the value is a well-formed message.
 *
 * @internal
 */
export function messageProblem(value: unknown): string | undefined {
  if (!isObject(value)) return ' must be an object';
  const message = value as Record<string, unknown>;
  const common = metaProblem(message.meta) ?? optionalRecord(message.providerData, '.providerData');
  switch (message.role) {
    case 'user': {
      const content = message.content;
      if (typeof content !== 'string') {
        if (!Array.isArray(content)) return '.content must be a string or an array of text and image parts';
        for (let index = 0; index < content.length; index++) {
          const problem = partProblem(content[index], `.content[${index}]`, USER_PARTS);
          if (problem !== undefined) return problem;
        }
      }
      return common;
    }
    case 'assistant': {
      const content = message.content;
      if (!Array.isArray(content)) return '.content must be an array of text, thinking and toolCall parts';
      for (let index = 0; index < content.length; index++) {
        const problem = partProblem(content[index], `.content[${index}]`, ASSISTANT_PARTS);
        if (problem !== undefined) return problem;
      }
      return (
        usageProblem(message.usage) ??
        (message.stopReason === undefined || STOP_REASONS.has(message.stopReason as string)
          ? undefined
          : ".stopReason must be 'stop', 'length', 'toolUse', 'error' or 'aborted'") ??
        optionalString(message.errorMessage, '.errorMessage') ??
        optionalString(message.provider, '.provider') ??
        optionalString(message.model, '.model') ??
        common
      );
    }
    case 'toolResult': {
      if (typeof message.toolCallId !== 'string' || message.toolCallId.length === 0) {
        return '.toolCallId must be a non-empty string (the id of the tool call it answers)';
      }
      if (typeof message.toolName !== 'string') return '.toolName must be a string';
      const content = message.content;
      if (!Array.isArray(content)) return '.content must be an array of text and image parts';
      for (let index = 0; index < content.length; index++) {
        const problem = partProblem(content[index], `.content[${index}]`, USER_PARTS);
        if (problem !== undefined) return problem;
      }
      return optionalBoolean(message.isError, '.isError') ?? common;
    }
    default:
      return ".role must be 'user', 'assistant' or 'toolResult'";
  }
}

const USER_PARTS = ['text', 'image'] as const;
const ASSISTANT_PARTS = ['text', 'thinking', 'toolCall'] as const;
const STOP_REASONS = new Set(['stop', 'length', 'toolUse', 'error', 'aborted']);

/** A plain object: what a zod record accepts (an object literal or one without a prototype). */
function isRecord(value: unknown): boolean {
  if (!isObject(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function optionalRecord(value: unknown, field: string): string | undefined {
  return value === undefined || isRecord(value) ? undefined : `${field} must be a plain object (or left out)`;
}

function optionalString(value: unknown, field: string): string | undefined {
  return value === undefined || typeof value === 'string' ? undefined : `${field} must be a string (or left out)`;
}

function optionalBoolean(value: unknown, field: string): string | undefined {
  return value === undefined || typeof value === 'boolean' ? undefined : `${field} must be a boolean (or left out)`;
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isCount(value: unknown): boolean {
  return isFiniteNumber(value) && value >= 0;
}

function string(value: unknown, field: string): string | undefined {
  return typeof value === 'string' ? undefined : `${field} must be a string`;
}

/** The first problem of a content part whose `type` must be one of `types`. */
function partProblem(part: unknown, at: string, types: readonly string[]): string | undefined {
  if (!isObject(part) || !types.includes(part.type as string)) {
    const quoted = types.map((type) => `'${type}'`);
    return `${at} must be a content part with a type of ${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
  }
  const providerData = optionalRecord(part.providerData, `${at}.providerData`);
  switch (part.type) {
    case 'text':
      return string(part.text, `${at}.text`) ?? providerData;
    case 'image':
      return string(part.data, `${at}.data`) ?? string(part.mimeType, `${at}.mimeType`) ?? providerData;
    case 'thinking':
      return (
        string(part.thinking, `${at}.thinking`) ??
        optionalString(part.signature, `${at}.signature`) ??
        optionalBoolean(part.redacted, `${at}.redacted`) ??
        providerData
      );
    default:
      if (typeof part.id !== 'string' || part.id.length === 0) return `${at}.id must be a non-empty string`;
      return (
        string(part.name, `${at}.name`) ??
        (isRecord(part.arguments) ? undefined : `${at}.arguments must be a plain object of the call's arguments`) ??
        providerData
      );
  }
}

/**
 * The first problem of token counts at `at` (a usage, a compaction's usage): `input` and `output`
 * required, the `optional` counts checked when present.
 */
function countsProblem(value: unknown, at: string, optional: readonly string[]): string | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) return `${at} must be an object (or left out)`;
  for (const key of ['input', 'output']) {
    if (!isCount(value[key])) return `${at}.${key} must be a finite number ≥ 0`;
  }
  for (const key of optional) {
    if (value[key] !== undefined && !isCount(value[key]))
      return `${at}.${key} must be a finite number ≥ 0 (or left out)`;
  }
  return undefined;
}

function usageProblem(value: unknown): string | undefined {
  return (
    countsProblem(value, '.usage', ['cacheRead', 'cacheWrite', 'total']) ??
    compactionUsageProblem((value as { compaction?: unknown } | undefined)?.compaction, '.usage.compaction')
  );
}

function metaProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) return '.meta must be an object (or left out)';
  const kept = value.keptMessages;
  return (
    optionalString(value.id, '.meta.id') ??
    (value.timestamp === undefined || isFiniteNumber(value.timestamp)
      ? undefined
      : '.meta.timestamp must be a finite number (or left out)') ??
    optionalBoolean(value.agentVisible, '.meta.agentVisible') ??
    optionalBoolean(value.userVisible, '.meta.userVisible') ??
    optionalString(value.kind, '.meta.kind') ??
    (kept === undefined || (Number.isSafeInteger(kept) && (kept as number) >= 0)
      ? undefined
      : '.meta.keptMessages must be a whole number ≥ 0 (or left out)') ??
    nativeCompactionProblem(value.native, '.meta.native')
  );
}

/**
 * The first problem of a native compaction step's cost (`compactionUsageSchema`'s rules) at `at`,
 * or `undefined` when it is one or left out.
 *
 * @internal
 */
export function compactionUsageProblem(value: unknown, at: string): string | undefined {
  return countsProblem(value, at, ['cacheRead', 'cacheWrite']);
}

/**
 * The first problem of a provider's native compaction (`nativeCompactionSchema`'s rules, payload
 * size included) at `at`, or `undefined` when it is one or left out.
 *
 * @internal
 */
export function nativeCompactionProblem(value: unknown, at: string): string | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) return `${at} must be an object (or left out)`;
  if (typeof value.provider !== 'string' || value.provider.length === 0) {
    return `${at}.provider must be a non-empty string`;
  }
  if (value.api !== 'anthropic-messages' && value.api !== 'openai-responses') {
    return `${at}.api must be 'anthropic-messages' or 'openai-responses'`;
  }
  if (typeof value.model !== 'string') return `${at}.model must be a string`;
  if (!isRecord(value.payload) || (value.payload as Record<string, unknown>).type !== 'compaction') {
    return `${at}.payload must be a provider's compaction block or item: its type is 'compaction'`;
  }
  if (jsonBytes(value.payload) > NATIVE_PAYLOAD_LIMIT) {
    return `${at}.payload must be at most ${NATIVE_PAYLOAD_LIMIT} bytes of JSON (NATIVE_PAYLOAD_LIMIT)`;
  }
  if (value.leading !== undefined) {
    if (!Array.isArray(value.leading) || !value.leading.every(isRecord)) {
      return `${at}.leading must be a list of the provider's items (JSON objects), or left out`;
    }
    if (jsonBytes(value.payload) + jsonBytes(value.leading) > NATIVE_PAYLOAD_LIMIT) {
      return `${at}.leading must fit with the payload in ${NATIVE_PAYLOAD_LIMIT} bytes of JSON (NATIVE_PAYLOAD_LIMIT)`;
    }
  }
  return (
    optionalString(value.summary, `${at}.summary`) ??
    compactionUsageProblem(value.usage, `${at}.usage`) ??
    (value.omitted === undefined || isCount(value.omitted)
      ? undefined
      : `${at}.omitted must be a finite number ≥ 0 (or left out)`)
  );
}
