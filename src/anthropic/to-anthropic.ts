import { ContextError } from '../errors.js';
import { messageSchema } from '../schemas/index.js';
import type { Message, ProviderData } from '../types.js';
import { firstIssue } from '../validation/first-issue.js';
import { addMessage, type Turn } from './internal/write-turns.js';
import type {
  AnthropicMessageParam,
  AnthropicSystemParam,
  AnthropicTextBlockParam,
  ConversionWarning,
} from './types.js';

/**
 * What {@link toAnthropic} converts: the system prompt and the messages to send.
 *
 * @example
 * ```ts
 * const input: ToAnthropicInput = { systemPrompt: 'You are a coding agent.', messages: prepared.messages };
 * ```
 */
export interface ToAnthropicInput {
  /** The system prompt; becomes the `system` parameter. */
  systemPrompt?: string | undefined;
  /** The messages to send: the projection `prepare` returns (`messages`), not the kept history. */
  messages: readonly Message[];
  /** What `fromAnthropic` returned beside the messages (the system blocks and their `cache_control`). */
  providerData?: ProviderData | undefined;
}

/**
 * What {@link toAnthropic} returns; spread it into `client.messages.create`.
 *
 * @example
 * ```ts
 * const { system, messages } = toAnthropic({ systemPrompt, messages: prepared.messages });
 * await client.messages.create({ model, max_tokens: 4096, system, messages });
 * ```
 */
export interface ToAnthropicResult {
  /** The `system` parameter; absent without a system prompt. */
  system?: AnthropicSystemParam;
  /** Alternating user and assistant turns, each tool use answered in the next user turn. */
  messages: AnthropicMessageParam[];
  /** What was dropped or changed to make a request the API accepts. */
  warnings: ConversionWarning[];
}

const WHERE = 'toAnthropic';
const checked = new WeakSet<object>();

function assertMessage(message: unknown, index: number): asserts message is Message {
  if (typeof message === 'object' && message !== null && checked.has(message)) return;
  const parsed = messageSchema.safeParse(message);
  if (!parsed.success) {
    const { field, detail } = firstIssue(parsed.error, '');
    throw new ContextError({
      message: `${WHERE}: messages[${index}]${field ? `.${field}` : ''} ${detail}.`,
      code: 'INPUT_INVALID',
      cause: parsed.error,
    });
  }
  checked.add(message as object);
}

function writeSystem(
  systemPrompt: string | undefined,
  providerData: ProviderData | undefined,
): AnthropicSystemParam | undefined {
  if (systemPrompt === undefined) return undefined;
  const blocks = (providerData?.['anthropic'] as { system?: unknown } | undefined)?.system;
  if (Array.isArray(blocks)) {
    const texts = blocks.map((block) => (block as { text?: unknown })?.text);
    if (texts.every((text) => typeof text === 'string') && texts.join('\n\n') === systemPrompt) {
      return blocks as AnthropicTextBlockParam[];
    }
  }
  return systemPrompt;
}

/**
 * Converts ctxkit messages to a Messages API request: `system` and `messages` ready to spread into
 * `client.messages.create`.
 *
 * The result is a request the API accepts: consecutive messages of one side merge into one turn, so
 * roles alternate; the `toolResult` messages after an assistant turn become `tool_result` blocks at
 * the start of the next user turn; empty text blocks, empty messages and assistant turns left with no
 * content are dropped (with a warning), as is thinking without a signature. Pass the projection
 * (`prepare(...).messages` or `prepareModelMessages(history)`), whose tool calls are already paired.
 * Everything `fromAnthropic` carried in `providerData.anthropic` is restored, so
 * `toAnthropic(fromAnthropic(x))` deep-equals `x`.
 *
 * @param input - The system prompt, the messages, and the system blocks from `fromAnthropic`.
 * @returns `system`, `messages` and warnings.
 * @throws `ContextError` `INPUT_INVALID` naming the index and field of a malformed message.
 *
 * @example
 * ```ts
 * const prepared = await manager.prepare(history);
 * const { system, messages } = toAnthropic({ systemPrompt, messages: prepared.messages });
 * const response = await client.messages.create({ model, max_tokens: 4096, system, messages, tools });
 * ```
 */
export function toAnthropic(input: ToAnthropicInput): ToAnthropicResult {
  if (typeof input !== 'object' || input === null || !Array.isArray(input.messages)) {
    throw new ContextError({
      message: `${WHERE}: pass { systemPrompt?, messages } with messages an array of ctxkit messages.`,
      code: 'INPUT_INVALID',
    });
  }
  const warnings: ConversionWarning[] = [];
  const turns: Turn[] = [];
  input.messages.forEach((message, index) => {
    assertMessage(message, index);
    addMessage(turns, message, (text) => warnings.push({ index, message: text }));
  });
  const messages = turns.map((turn): AnthropicMessageParam => {
    const content = turn.text !== undefined ? turn.text : [...turn.results, ...turn.blocks];
    return { ...turn.fields, role: turn.role, content } as AnthropicMessageParam;
  });
  const system = writeSystem(input.systemPrompt, input.providerData);
  return { ...(system === undefined ? {} : { system }), messages, warnings };
}
