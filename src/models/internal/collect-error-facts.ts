/** "413 status code (no body)" (OpenAI-style SDKs) or a message that starts with its status. */
const STATUS_IN_TEXT = /\b([1-5]\d\d) status code\b|^\s*([45]\d\d)(?=\s|$)/;

const TEXT_KEYS = ['message', 'errorMessage', 'error_message', 'detail', 'reason'] as const;
const CODE_KEYS = ['code', 'type', 'name', '__type', 'status', 'error_code', 'errorCode'] as const;
const STATUS_KEYS = ['status', 'statusCode', 'httpStatus', 'code'] as const;
const NESTED_KEYS = [
  'error',
  'errors',
  'cause',
  'lastError',
  'data',
  'response',
  'body',
  'responseBody',
  'details',
] as const;

/** Bounds on the walk: nesting depth, objects visited, and items read from one array. */
const MAX_DEPTH = 8;
const MAX_NODES = 200;
const MAX_ITEMS = 20;

/**
 * What an error says about itself: its messages, its codes (lower case) and its HTTP statuses.
 *
 * @internal
 */
interface ErrorFacts {
  texts: string[];
  codes: string[];
  statuses: number[];
}

function addText(facts: ErrorFacts, text: string): void {
  facts.texts.push(text);
  const match = STATUS_IN_TEXT.exec(text);
  const status = match?.[1] ?? match?.[2];
  if (status !== undefined) facts.statuses.push(Number(status));
}

function addFields(facts: ErrorFacts, object: Record<string, unknown>): void {
  for (const key of TEXT_KEYS) {
    const field = object[key];
    if (typeof field === 'string') addText(facts, field);
  }
  for (const key of CODE_KEYS) {
    const field = object[key];
    if (typeof field !== 'string') continue;
    if (/^[1-5]\d\d$/.test(field)) facts.statuses.push(Number(field));
    else facts.codes.push(field.toLowerCase());
  }
  for (const key of STATUS_KEYS) {
    const field = object[key];
    if (typeof field === 'number' && field >= 100 && field <= 599) facts.statuses.push(field);
  }
  const metadata = object.$metadata;
  if (typeof metadata === 'object' && metadata !== null) {
    const status = (metadata as Record<string, unknown>).httpStatusCode;
    if (typeof status === 'number') facts.statuses.push(status);
  }
}

/**
 * Collects messages, codes and statuses from an error, a response body or a message, looking into
 * nested `error`, `cause` and response fields and into arrays. Bounded and cycle-safe; a property
 * that throws when read is skipped.
 *
 * @internal
 */
export function collectErrorFacts(root: unknown): ErrorFacts {
  const facts: ErrorFacts = { texts: [], codes: [], statuses: [] };
  const seen = new Set<object>();
  const visit = (value: unknown, depth: number): void => {
    if (typeof value === 'string') {
      addText(facts, value);
      return;
    }
    if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return;
    if (seen.has(value) || seen.size >= MAX_NODES) return;
    seen.add(value);
    try {
      if (Array.isArray(value)) {
        for (const item of value.slice(0, MAX_ITEMS)) visit(item, depth + 1);
        return;
      }
      const object = value as Record<string, unknown>;
      addFields(facts, object);
      for (const key of NESTED_KEYS) visit(object[key], depth + 1);
    } catch {
      // A hostile or broken getter: use what was read before it.
    }
  };
  visit(root, 0);
  return facts;
}
