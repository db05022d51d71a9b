// The request rules OpenAI enforces, as the loopback server and the payload tests check them. Each
// returns OpenAI's own error (message, param, code) for the first broken rule, or undefined.

export interface OpenAIError {
  message: string;
  type: 'invalid_request_error';
  param: string | null;
  code: string | null;
}

type Wire = Record<string, unknown>;

const error = (message: string, param: string | null, code: string | null = null): OpenAIError => ({
  message,
  type: 'invalid_request_error',
  param,
  code,
});

function isEmptyContent(content: unknown): boolean {
  if (content === null || content === undefined) return true;
  if (typeof content === 'string') return content.length === 0;
  if (!Array.isArray(content)) return false;
  return content.length === 0;
}

/**
 * Chat Completions: roles known; no empty user, system or assistant message; every assistant
 * `tool_calls` answered by one `tool` message per id right after it, in any order; no `tool` message
 * that answers nothing; tool call ids unique in the request.
 */
export function checkChatRequest(body: Wire): OpenAIError | undefined {
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) {
    return error(
      "Invalid 'messages': empty array. Expected an array with minimum length 1.",
      'messages',
      'empty_array',
    );
  }
  const seen = new Set<string>();
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as Wire;
    const param = `messages.[${index}]`;
    switch (message.role) {
      case 'system':
      case 'developer':
      case 'user':
        if (isEmptyContent(message.content)) {
          return error(
            `Invalid '${param}.content': ${message.role} content must not be empty.`,
            `${param}.content`,
            'empty_content',
          );
        }
        break;
      case 'assistant': {
        const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as Wire[]) : [];
        if (
          calls.length === 0 &&
          isEmptyContent(message.content) &&
          typeof message.refusal !== 'string' &&
          !message.audio
        ) {
          return error(`Invalid value for '${param}.content': expected a string, got null.`, `${param}.content`);
        }
        const pending = new Set<string>();
        for (const call of calls) {
          const id = String(call.id);
          if (id.length > 40)
            return error(
              `Invalid '${param}.tool_calls[${calls.indexOf(call)}].id': string too long. Expected a string with maximum length 40, but got a string with length ${id.length} instead.`,
              `${param}.tool_calls`,
            );
          if (seen.has(id))
            return error(`Duplicate value for 'tool_call_id' of ${id} in ${param}.tool_calls.`, `${param}.tool_calls`);
          seen.add(id);
          pending.add(id);
        }
        let next = index + 1;
        for (; next < messages.length && (messages[next] as Wire).role === 'tool'; next++) {
          const id = String((messages[next] as Wire).tool_call_id);
          if (!pending.delete(id)) {
            return error(
              "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
              `messages.[${next}].role`,
            );
          }
        }
        if (pending.size > 0) {
          return error(
            `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...pending].join(', ')}`,
            `${param}.role`,
          );
        }
        index = next - 1;
        break;
      }
      case 'function':
        break;
      case 'tool':
        return error(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `${param}.role`,
        );
      default:
        return error(
          `Invalid value: '${String(message.role)}'. Supported values are: 'system', 'assistant', 'user', 'tool', 'developer'.`,
          `${param}.role`,
          'invalid_value',
        );
    }
  }
  return undefined;
}

/**
 * Responses: a text `input` (one user message) not empty; else no empty message; every `function_call` answered by exactly one `function_call_output`
 * later in the input and every output answering an earlier call; with `store: false`, reasoning items
 * carry `encrypted_content` and are followed by the item they produced; unique item ids.
 */
export function checkResponsesRequest(body: Wire): OpenAIError | undefined {
  const input = body.input;
  // A text input is one user message.
  if (typeof input === 'string') {
    return input === '' ? error("Invalid 'input': empty string.", 'input', 'empty_string') : undefined;
  }
  if (!Array.isArray(input) || input.length === 0)
    return error("Invalid 'input': empty array.", 'input', 'empty_array');
  const calls = new Map<string, number>();
  const answered = new Set<string>();
  const ids = new Set<string>();
  for (let index = 0; index < input.length; index++) {
    const item = input[index] as Wire;
    const param = `input[${index}]`;
    if (typeof item.id === 'string') {
      if (ids.has(item.id))
        return error(
          `Duplicate item found with id ${item.id}. Remove duplicate items from your input and try again.`,
          'input',
        );
      ids.add(item.id);
    }
    if (item.type === 'message' || (item.type === undefined && 'role' in item)) {
      if (isEmptyContent(item.content))
        return error(`Invalid '${param}.content': empty content.`, `${param}.content`, 'empty_content');
      continue;
    }
    switch (item.type) {
      case 'function_call':
        if (calls.has(String(item.call_id))) return error(`Duplicate function call ${String(item.call_id)}.`, param);
        calls.set(String(item.call_id), index);
        break;
      case 'function_call_output': {
        const id = String(item.call_id);
        if (!calls.has(id) || answered.has(id)) {
          return error(`No tool call found for function call output with call_id ${id}.`, 'input');
        }
        answered.add(id);
        break;
      }
      case 'reasoning': {
        if (body.store === false && typeof item.encrypted_content !== 'string') {
          return error(
            `Item with id '${String(item.id)}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
            'input',
          );
        }
        const following = input[index + 1] as Wire | undefined;
        if (following === undefined || following.type === 'function_call_output' || following.role === 'user') {
          return error(
            `Item '${String(item.id)}' of type 'reasoning' was provided without its required following item.`,
            'input',
          );
        }
        break;
      }
    }
  }
  for (const id of calls.keys()) {
    if (!answered.has(id)) return error(`No tool output found for function call ${id}.`, 'input');
  }
  return undefined;
}
