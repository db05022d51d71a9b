import { ConfigError } from '../errors.js';
import type { ContextManager } from '../manager/context-manager-types.js';
import type { Message } from '../types.js';
import { fromLanguageModelUsage } from './from-language-model-usage.js';
import { readMessages } from './internal/read-messages.js';
import type { WireObject } from './internal/wire-object.js';
import { writeMessages } from './internal/write-messages.js';
import type { AISDKMessageInput } from './message-types.js';
import type { ProviderUsage } from './result-types.js';

/**
 * The call options a middleware receives (`LanguageModelV3CallOptions`), as far as ctxkit reads them.
 *
 * @example
 * ```ts
 * const params: CallOptionsLike = { prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] };
 * ```
 */
export interface CallOptionsLike {
  prompt: readonly AISDKMessageInput[];
  abortSignal?: AbortSignal | undefined;
}

/**
 * The wrapped model (`LanguageModelV3`), as far as ctxkit calls it.
 *
 * @example
 * ```ts
 * const model: LanguageModelLike<CallOptionsLike, unknown, unknown> = anthropic('claude-sonnet-4-6');
 * ```
 */
export interface LanguageModelLike<Params, GenerateResult, StreamResult> {
  /** One non-streaming call. */
  doGenerate(options: Params): PromiseLike<GenerateResult>;
  /** One streaming call. */
  doStream(options: Params): PromiseLike<StreamResult>;
}

/**
 * What `wrapGenerate` and `wrapStream` receive.
 *
 * @example
 * ```ts
 * const result = await middleware.wrapGenerate({ params, model, doGenerate, doStream });
 * ```
 */
export interface WrapOptions<Params, GenerateResult, StreamResult> {
  params: Params;
  model: LanguageModelLike<Params, GenerateResult, StreamResult>;
  /** The inner call with the original parameters (unused: ctxkit calls `model` with the prepared prompt). */
  doGenerate: () => PromiseLike<GenerateResult>;
  /** The inner streaming call with the original parameters (unused, as `doGenerate`). */
  doStream: () => PromiseLike<StreamResult>;
}

/**
 * A language-model middleware (`LanguageModelV3Middleware`) for `wrapLanguageModel`.
 *
 * @example
 * ```ts
 * const model = wrapLanguageModel({ model: anthropic('claude-sonnet-4-6'), middleware: ctxkitMiddleware(manager) });
 * ```
 */
export interface CtxkitMiddleware {
  readonly specificationVersion: 'v3';
  /**
   * Prepares the prompt with the manager, calls the model (compacting and retrying once on an
   * overflow), and records the response's usage.
   */
  wrapGenerate<Params extends CallOptionsLike, GenerateResult extends { usage: ProviderUsage }, StreamResult>(
    options: WrapOptions<Params, GenerateResult, StreamResult>,
  ): Promise<GenerateResult>;
  /** The same for a stream; the usage is recorded when the stream finishes. */
  wrapStream<
    Params extends CallOptionsLike,
    GenerateResult,
    StreamResult extends { stream: ReadableStream<{ type: string }> },
  >(options: WrapOptions<Params, GenerateResult, StreamResult>): Promise<StreamResult>;
}

const WHERE = 'ctxkitMiddleware';

/** What the previous call sent and what the manager kept of it. */
interface Continuation {
  prompt: readonly AISDKMessageInput[];
  history: Message[];
}

/**
 * Deep equality of two prompt values. The SDK rebuilds the prompt's objects on every call but keeps
 * their strings, so this costs a walk over the structure, not over the text.
 */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a instanceof URL || b instanceof URL) return a instanceof URL && b instanceof URL && a.href === b.href;
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b) || a instanceof ArrayBuffer || b instanceof ArrayBuffer) {
    const left = new Uint8Array(a instanceof ArrayBuffer ? a : (a as ArrayBufferView).buffer);
    const right = new Uint8Array(b instanceof ArrayBuffer ? b : (b as ArrayBufferView).buffer);
    return left.length === right.length && left.every((value, index) => value === right[index]);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => same((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

function recordUsage(manager: ContextManager, usage: ProviderUsage | undefined): void {
  if (usage === undefined) return;
  try {
    manager.recordUsage(fromLanguageModelUsage(usage));
  } catch {
    // A provider's malformed usage must not fail the call; the manager keeps estimating.
  }
}

/**
 * A language-model middleware that runs ctxkit inside every call, so an AI SDK host gets it with
 * `wrapLanguageModel({ model, middleware: ctxkitMiddleware(manager) })` and writes nothing else.
 *
 * On each call (each step of `generateText` and `streamText`) it reads the provider-level prompt,
 * continues the manager's history (a prompt that starts with the previous call's prompt reuses what
 * the manager kept of it: truncated, archived and compacted), calls `manager.runWithOverflowRecovery`
 * (which truncates tool output, archives old tool results, compacts at the threshold, and on the
 * provider's overflow error compacts and retries once), sends the prepared messages after the
 * leading system messages, and records the response's usage (at the stream's end for `streamText`).
 * A call with the same prompt as the one before (the SDK retrying after a 500 or a 429) sends the
 * history prepared for that prompt again: nothing is archived or compacted twice, and the
 * summarizer is not called again.
 *
 * One manager and one middleware per conversation. Build the summarizer on the unwrapped model, or
 * its calls would run through the middleware too.
 *
 * @param manager - The conversation's context manager.
 * @returns The middleware.
 * @throws `ConfigError` when `manager` is not a context manager.
 *
 * @example
 * ```ts
 * import { anthropic } from '@ai-sdk/anthropic';
 * import { generateText, wrapLanguageModel } from 'ai';
 *
 * const manager = createContextManager({
 *   model: 'claude-sonnet-4-6',
 *   summarizer: createGenerateTextSummarizer({ generateText, model: anthropic('claude-haiku-4-5') }),
 * });
 * const model = wrapLanguageModel({ model: anthropic('claude-sonnet-4-6'), middleware: ctxkitMiddleware(manager) });
 * const result = await generateText({ model, tools, messages, stopWhen: stepCountIs(20) });
 * ```
 */
export function ctxkitMiddleware(manager: ContextManager): CtxkitMiddleware {
  if (typeof manager?.runWithOverflowRecovery !== 'function' || typeof manager.recordUsage !== 'function') {
    throw new ConfigError({
      message: 'ctxkitMiddleware needs a context manager (createContextManager).',
      field: 'manager',
    });
  }
  let previous: Continuation | undefined;

  function split(prompt: readonly AISDKMessageInput[]): { system: AISDKMessageInput[]; rest: AISDKMessageInput[] } {
    if (!Array.isArray(prompt))
      throw new ConfigError({ message: `${WHERE}: params.prompt must be an array.`, field: 'prompt' });
    let start = 0;
    while (start < prompt.length && prompt[start]?.role === 'system') start++;
    return { system: prompt.slice(0, start), rest: prompt.slice(start) };
  }

  /** The history for `rest`: what the manager kept of the previous prompt, and the new messages read. */
  function continuation(rest: readonly AISDKMessageInput[]): Message[] {
    let base: Message[] = [];
    let from = 0;
    if (previous !== undefined && previous.prompt.length <= rest.length) {
      const known = previous.prompt;
      if (known.every((message, index) => same(message, rest[index]))) {
        base = previous.history;
        from = known.length;
      }
    }
    return base.concat(readMessages(rest.slice(from), WHERE, false).messages);
  }

  async function run<Params extends CallOptionsLike, Result>(
    params: Params,
    call: (prompt: WireObject[]) => PromiseLike<Result>,
  ) {
    const { system, rest } = split(params.prompt);
    const options = params.abortSignal ? { signal: params.abortSignal } : {};
    // The SDK retries a call that failed (a 500, a 429) with the same prompt: the history prepared
    // for it then is sent again, so nothing is truncated, archived or compacted twice.
    const retry = previous !== undefined && previous.prompt.length === rest.length && same(previous.prompt, rest);
    let history: Message[];
    if (retry) history = previous!.history;
    else {
      history = (await manager.prepare(continuation(rest), options)).history;
      previous = { prompt: rest, history };
    }
    const outcome = await manager.runWithOverflowRecovery(
      history,
      async (messages) =>
        call([...(system as unknown as WireObject[]), ...writeMessages(messages, 'prompt', WHERE).messages]),
      options,
    );
    previous = { prompt: rest, history: outcome.history };
    return outcome.result;
  }

  return {
    specificationVersion: 'v3',
    async wrapGenerate({ params, model }) {
      const result = await run(params, (prompt) => model.doGenerate({ ...params, prompt }));
      recordUsage(manager, result.usage);
      return result;
    },
    async wrapStream({ params, model }) {
      const result = await run(params, (prompt) => model.doStream({ ...params, prompt }));
      const stream = result.stream.pipeThrough(
        new TransformStream<{ type: string }, { type: string }>({
          transform(part, controller) {
            if (part.type === 'finish') recordUsage(manager, (part as { usage?: ProviderUsage }).usage);
            controller.enqueue(part);
          },
        }),
      );
      return { ...result, stream };
    },
  };
}
