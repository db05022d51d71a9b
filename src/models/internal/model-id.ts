// How `getModelLimits` reads a model id: one spelling for the many a provider or host writes, and
// which table keys match it.

/** Bedrock: an optional region (`us.`, `apac.`, `global.`, `us-gov.` …) and a vendor. */
const BEDROCK_PREFIX =
  /^(?:(?:[a-z]{2}|apac|global|us-gov)\.)?(?:anthropic|meta|mistral|amazon|cohere|deepseek|openai|qwen|google|xai|ai21|writer)\./;
/** Bedrock version suffixes: `-v1:0`, `-v1:0:200k`, `-v1`, `-1:0`. */
const BEDROCK_SUFFIX = /-v?\d+:\d+(?::\d+k)?$|-v\d+$/;
/** `llama3.1`, `llama-v3p1`, `llama3-1` (Bedrock), `meta-llama-3.1` → `llama-3.1`; `llama3-8b` → `llama-3-8b`. */
const LLAMA = /^(?:meta-)?llama-?v?(\d+)(?:[.p](\d+)|-(\d)(?=-|$))?/;

/**
 * One spelling for the many a model id comes in: lower case; no host path (`openrouter/`,
 * `accounts/fireworks/models/`); no Bedrock region, vendor or version; Ollama and OpenRouter tags
 * (`:8b`, `:free`) as a suffix; and family spellings unified (`claude-3.5` → `claude-3-5`,
 * `llama3.1` → `llama-3.1`, `gemma3` → `gemma-3`, `qwen-2.5` → `qwen2.5`, Azure's `gpt-35`).
 *
 * @internal
 */
export function normalizeModelId(modelId: string): string {
  let id = modelId.trim().toLowerCase();
  id = id.slice(id.lastIndexOf('/') + 1);
  if (BEDROCK_PREFIX.test(id)) id = id.replace(BEDROCK_PREFIX, '').replace(BEDROCK_SUFFIX, '');
  id = id.replaceAll(':', '-').replace(/^open-(?=mi[sx]tral|codestral)/, '');
  if (id.startsWith('claude-')) id = id.replace(/(\d)\.(\d)/g, '$1-$2');
  return id
    .replace(LLAMA, (_, major: string, minor?: string, bedrockMinor?: string) => {
      const version = minor ?? bedrockMinor;
      return `llama-${major}${version === undefined ? '' : `.${version}`}`;
    })
    .replace(/^gemma-?(\d)/, 'gemma-$1')
    .replace(/^qwen-(\d)/, 'qwen$1')
    .replace(/^gpt-35-/, 'gpt-3.5-');
}

/** A key matches an id it equals or starts, at a separator that does not continue a version. @internal */
function matchesModelKey(id: string, key: string): boolean {
  if (key === '' || !id.startsWith(key)) return false;
  const next = id.charAt(key.length);
  return (
    next === '' ||
    next === '-' ||
    next === '@' ||
    next === '_' ||
    (next === '.' && !/\d/.test(id.charAt(key.length + 1)))
  );
}

/**
 * The value of the longest key that matches `id` (see {@link matchesModelKey}); of keys as long, the
 * first listed, so overrides listed before the table win a tie. @internal
 */
export function longestMatch<Value>(id: string, entries: readonly { key: string; value: Value }[]): Value | undefined {
  let best: { key: string; value: Value } | undefined;
  for (const entry of entries) {
    if (!matchesModelKey(id, entry.key)) continue;
    if (best === undefined || entry.key.length > best.key.length) best = entry;
  }
  return best?.value;
}
