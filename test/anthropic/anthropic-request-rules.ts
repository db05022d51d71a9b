// The request rules the Messages API enforces on `messages`, checked the way the API checks them.
// Shared by the loopback server and the payload properties.

type Block = { type: string; [key: string]: unknown };
type Turn = { role: string; content: string | Block[] };

const isBlank = (text: unknown) => typeof text !== 'string' || text.trim().length === 0;

/** The ids the API accepts for a `tool_use` block, and so for the `tool_result` that answers it. */
const TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;

/** The first rule the request breaks, in the API's words where it has them, or `undefined`. */
export function findRequestViolation(messages: unknown): string | undefined {
  if (!Array.isArray(messages) || messages.length === 0) return 'messages: at least one message is required';
  const seen = new Set<string>();
  for (let index = 0; index < messages.length; index++) {
    const turn = messages[index] as Turn;
    const at = `messages.${index}`;
    if (turn.role !== 'user' && turn.role !== 'assistant') return `${at}.role: must be user or assistant`;
    const previous = messages[index - 1] as Turn | undefined;
    if (previous && previous.role === turn.role) return `${at}: roles must alternate between "user" and "assistant"`;
    if (typeof turn.content === 'string') {
      if (isBlank(turn.content)) return `${at}: all messages must have non-empty content`;
      continue;
    }
    if (!Array.isArray(turn.content) || turn.content.length === 0) {
      return `${at}: all messages must have non-empty content except for the optional final assistant message`;
    }
    for (const [position, block] of turn.content.entries()) {
      if (block.type === 'text' && isBlank(block['text'])) {
        return `${at}.content.${position}.text: text content blocks must contain non-whitespace text`;
      }
      if (block.type === 'tool_use') {
        if (turn.role !== 'assistant')
          return `${at}.content.${position}: tool_use blocks are allowed only in assistant turns`;
        const id = String(block['id']);
        if (!TOOL_USE_ID.test(id))
          return `${at}.content.${position}.id: String should match pattern '^[a-zA-Z0-9_-]+$'`;
        if (seen.has(id)) return `${at}.content.${position}: tool_use ids must be unique`;
        seen.add(id);
      }
    }
    const results = turn.content.filter((block) => block.type === 'tool_result');
    const firstOther = turn.content.findIndex((block) => block.type !== 'tool_result');
    if (results.length > 0 && firstOther >= 0 && firstOther < results.length) {
      return `${at}: tool_result blocks must come first in the content of a user message`;
    }
    const uses =
      previous && previous.role === 'assistant' && Array.isArray(previous.content)
        ? previous.content.filter((block) => block.type === 'tool_use').map((block) => String(block['id']))
        : [];
    const answered = results.map((block) => String(block['tool_use_id']));
    for (const id of answered) {
      if (!uses.includes(id)) {
        return `${at}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
      }
    }
    if (new Set(answered).size !== answered.length) return `${at}: each tool_use must have a single result`;
    const missing = uses.filter((id) => !answered.includes(id));
    if (missing.length > 0) {
      return `${at}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}`;
    }
  }
  const last = messages[messages.length - 1] as Turn;
  if (
    last.role === 'assistant' &&
    Array.isArray(last.content) &&
    last.content.some((block) => block.type === 'tool_use')
  ) {
    return `messages.${messages.length - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after`;
  }
  return undefined;
}
