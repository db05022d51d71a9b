import type { WireObject } from '../../internal/wire-object.js';
import type { ProviderData } from '../../types.js';

// What the LangChain converters keep under `providerData.langchain`: the fields ctxkit does not model,
// so the way back rebuilds each message and block exactly. The wire helpers are the other converters'.

export { invalid, isObject, type WireObject } from '../../internal/wire-object.js';

/** `providerData.langchain` on a message. @internal */
export interface MessageData {
  /** The message type when ctxkit's role does not say it (`system` or `developer` mid-list, unknown types). */
  type?: string;
  /** The message's fields besides those ctxkit rewrites (`id`, `name`, `additional_kwargs`…). */
  fields?: WireObject;
  /** The content was a list of blocks (not a string). */
  blocks?: true;
  /** A message of a type ctxkit does not model, carried whole. */
  raw?: WireObject;
}

/** `providerData.langchain` on a content part or tool call. @internal */
export interface PartData {
  /** The block as it came (images, blocks ctxkit does not model, text with extra fields). */
  raw?: WireObject;
  /** A tool call's fields besides id, name and args. */
  fields?: WireObject;
  /** The tool call came without an id; ctxkit named it. */
  idAbsent?: true;
  /** The part is a placeholder for `raw`, a block ctxkit does not model. */
  placeholder?: true;
  /** The block was a bare string in the content array. */
  string?: true;
}

/** The instance bookkeeping of `@langchain/core` messages: never a field of the message itself. @internal */
const INTERNAL_KEYS = new Set(['lc_serializable', 'lc_kwargs', 'lc_namespace', 'lc_direct_tool_output']);

/** The fields of `value` other than `known` and LangChain's bookkeeping, undefined ones left out. @internal */
export function otherFields(value: object, known: readonly string[]): WireObject | undefined {
  let rest: WireObject | undefined;
  for (const [key, field] of Object.entries(value)) {
    if (field === undefined || known.includes(key) || INTERNAL_KEYS.has(key)) continue;
    rest ??= {};
    rest[key] = field;
  }
  return rest;
}

/** Reads `providerData.langchain` as an object. @internal */
export function readData<T extends object>(providerData: ProviderData | undefined): T | undefined {
  const data = providerData?.langchain;
  return typeof data === 'object' && data !== null ? (data as T) : undefined;
}

/** `{ providerData: { langchain: data } }`, or `{}` when `data` has no defined field. @internal */
export function withData(data: MessageData | PartData): { providerData?: ProviderData } {
  const defined = Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));
  return Object.keys(defined).length === 0 ? {} : { providerData: { langchain: defined } };
}

const ROLE_TYPES: Record<string, string> = { user: 'human', assistant: 'ai' };

/**
 * A message's type: an instance's `type` (`human`, `ai`, `system`, `developer`, `tool`…), else a
 * message-like's `role` with `user` → `human` and `assistant` → `ai`. @internal
 */
export function messageTypeOf(message: WireObject): string | undefined {
  const type = typeof message.type === 'string' ? message.type : undefined;
  if (type !== undefined) return ROLE_TYPES[type] ?? type;
  const role = typeof message.role === 'string' ? message.role : undefined;
  return role === undefined ? undefined : (ROLE_TYPES[role] ?? role);
}
