import type { ContextConfigInput } from '../config/index.js';
import { ConfigError } from '../errors.js';
import { createContextManager } from '../manager/context-manager.js';
import type { ContextManager } from '../manager/context-manager-types.js';
import type { ContextEvent } from '../manager/events.js';
import { getModelLimits, MODEL_LIMITS } from '../models/model-limits.js';
import { heuristicSummarizer } from '../summarizing/heuristic-summarizer.js';
import { usageError } from './cli-error.js';

/** Where the context window the command line measures against came from. */
type WindowSource = 'option' | 'model' | 'session' | 'none';

/**
 * The settings a command builds its context manager from.
 *
 * @internal
 */
export interface ContextSettings {
  /** The model whose limits apply (from `--model`, else the session's latest model). */
  model: string | undefined;
  contextWindow: number | undefined;
  windowSource: WindowSource;
  config: ContextConfigInput;
  systemPrompt: string | undefined;
  tools: unknown;
}

/**
 * Picks the context window: `--window`, else `--model`'s, else the model the session recorded.
 * An unknown `--model` without `--window` is an error; an unknown recorded model leaves no window.
 *
 * @internal
 */
export function resolveWindow(options: {
  window: number | undefined;
  model: string | undefined;
  sessionModel: string | undefined;
}): { model: string | undefined; contextWindow: number | undefined; windowSource: WindowSource } {
  const { window, model, sessionModel } = options;
  if (model !== undefined && getModelLimits(model) === undefined && window === undefined) {
    throw usageError(
      `Unknown model "${model}": pass its context window with --window <tokens> (for example --window 128000).${suggest(model)}`,
    );
  }
  if (window !== undefined) return { model, contextWindow: window, windowSource: 'option' };
  if (model !== undefined) return { model, contextWindow: getModelLimits(model)?.contextWindow, windowSource: 'model' };
  const limits = sessionModel === undefined ? undefined : getModelLimits(sessionModel);
  if (limits !== undefined)
    return { model: sessionModel, contextWindow: limits.contextWindow, windowSource: 'session' };
  return { model: undefined, contextWindow: undefined, windowSource: 'none' };
}

function suggest(model: string): string {
  const stem = model.toLowerCase().split(/[-:/.@ ]/)[0] ?? '';
  if (stem.length < 2) return '';
  const known = Object.keys(MODEL_LIMITS)
    .filter((key) => key.toLowerCase().includes(stem))
    .slice(0, 5);
  return known.length === 0 ? '' : ` Known models like it: ${known.join(', ')}.`;
}

/**
 * A context manager over the settings, with the heuristic summarizer: it never calls a model.
 *
 * @internal
 */
export function createOfflineManager(
  settings: ContextSettings,
  options: { onEvent?: (event: ContextEvent) => void } = {},
): ContextManager {
  const known = settings.model !== undefined && getModelLimits(settings.model) !== undefined;
  try {
    return createContextManager({
      summarizer: heuristicSummarizer,
      // Offline, the prompt cache's state is unknown: compaction and archiving follow the thresholds.
      costAware: false,
      ...(known ? { model: settings.model } : {}),
      ...(settings.contextWindow === undefined ? {} : { contextWindow: settings.contextWindow }),
      config: settings.config,
      ...(settings.systemPrompt === undefined ? {} : { systemPrompt: settings.systemPrompt }),
      ...(settings.tools === undefined ? {} : { tools: settings.tools }),
      ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
    });
  } catch (error) {
    if (ConfigError.isInstance(error)) throw usageError(`Invalid settings: ${error.message}`);
    throw error;
  }
}
