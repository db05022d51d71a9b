// Native compaction for the loopback servers (test/anthropic/loopback-anthropic-server.ts and
// test/openai/fake-openai-server.ts), kept in one module so the servers only call it: Anthropic's
// `compact_20260112` context edit (beta `compact-2026-01-12`) and OpenAI Responses'
// `context_management` compaction and `POST /responses/compact`.
//
// Each server signs what it compacts with its current key (`rotateKey` makes every earlier payload
// stale, as a rotated API key or another organization does), refuses a payload it did not sign with
// its provider's own error, and past the threshold replaces everything before the newest compaction
// by a deterministic summary: the user requests and tool calls it read, one line each.
//
// OpenAI's standalone endpoint is different, as the real API is: its output is the compacted window,
// every user message of the input verbatim and then one item that stands for everything else
// (assistant messages, tool calls and results). So the item it signs holds no user request, and a
// request that sends it back is read as the user messages before it, then its summary: a user
// message the client leaves out is lost to the model.

import { createHmac } from 'node:crypto';

type Wire = Record<string, unknown>;

/** One server's signing key, which a test can rotate. */
export class CompactionKeys {
  private version = 1;
  constructor(private readonly provider: 'anthropic' | 'openai') {}

  /** Makes every payload signed so far stale. */
  rotate(): void {
    this.version++;
  }

  /** Signs `summary`; `window` marks an item of the standalone endpoint, which does not stand for the user messages. */
  sign(summary: string, window = false): string {
    const body = Buffer.from(JSON.stringify({ v: this.version, s: summary, ...(window ? { w: 1 } : {}) })).toString(
      'base64url',
    );
    const mac = createHmac('sha256', `${this.provider}-key-${this.version}`).update(body).digest('base64url');
    return `${this.provider === 'openai' ? 'gAAAA' : 'Eq'}${body}.${mac}`;
  }

  /** The summary a payload signed with the current key holds, else `undefined`. */
  open(encrypted: unknown): string | undefined {
    return this.read(encrypted)?.summary;
  }

  /** What a payload signed with the current key holds (its summary, and whether it is an endpoint's window item), else `undefined`. */
  read(encrypted: unknown): { summary: string; window: boolean } | undefined {
    if (typeof encrypted !== 'string') return undefined;
    const prefix = this.provider === 'openai' ? 'gAAAA' : 'Eq';
    if (!encrypted.startsWith(prefix)) return undefined;
    const [body, mac] = encrypted.slice(prefix.length).split('.');
    if (body === undefined || mac === undefined) return undefined;
    const expected = createHmac('sha256', `${this.provider}-key-${this.version}`).update(body).digest('base64url');
    if (mac !== expected) return undefined;
    try {
      const opened = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { s: string; w?: number };
      return { summary: opened.s, window: opened.w === 1 };
    } catch {
      return undefined;
    }
  }
}

/** What the native compaction of one server saw. */
export interface NativeCompactionLog {
  /** Compactions the server ran. */
  compactions: number;
  /** Payloads refused (stale key or another provider's). */
  refused: number;
}

/** The deterministic summary of what a compaction replaces: each user request and tool call, one line. */
export function summarizeForCompaction(lines: string[], previous: string | undefined): string {
  // User requests whole (an earlier summary the client sent is one of them), tool calls cut to 160 characters.
  const kept = lines
    .filter((line) => line.trim() !== '')
    .map((line) => `- ${line.startsWith('called ') ? line.slice(0, 160) : line.replace(/\s+/g, ' ')}`);
  return [
    '## Compacted conversation',
    ...(previous ? [previous.replace(/^## Compacted conversation\n?/, '')] : []),
    ...kept,
  ]
    .join('\n')
    .trim();
}

// ── Anthropic ────────────────────────────────────────────────────────────────────────────────

type Block = { type: string; [key: string]: unknown };
type Turn = { role: string; content: string | Block[] };

/** The `compact_20260112` edit of a request, if it asks for one. */
export function anthropicCompactEdit(body: Wire): { trigger: number; pause: boolean } | undefined {
  const management = body['context_management'] as { edits?: Wire[] } | undefined;
  const edit = management?.edits?.find((candidate) => candidate['type'] === 'compact_20260112');
  if (edit === undefined) return undefined;
  const trigger = (edit['trigger'] as { value?: number } | undefined)?.value ?? 150_000;
  return { trigger, pause: edit['pause_after_compaction'] === true };
}

/** An Anthropic error body, with the `error_code` its SDK reads. */
export function anthropicError(message: string, code?: string): Wire {
  return {
    type: 'error',
    error: { type: 'invalid_request_error', message, ...(code ? { details: { error_code: code } } : {}) },
  };
}

/**
 * Checks the compaction blocks of an Anthropic request and drops what precedes the newest one, as
 * the API does. Returns the error body to answer with, or the messages the model reads and the
 * summary the newest block holds.
 */
export function readAnthropicCompactions(
  messages: Turn[],
  keys: CompactionKeys,
  log: NativeCompactionLog,
  headers: Record<string, string | string[] | undefined>,
): { error: Wire } | { messages: Turn[]; summary: string | undefined } {
  let newest: { turn: number; block: number; summary: string } | undefined;
  for (const [turnIndex, turn] of messages.entries()) {
    if (typeof turn.content === 'string') continue;
    for (const [blockIndex, block] of turn.content.entries()) {
      if (block.type !== 'compaction') continue;
      if (!String(headers['anthropic-beta'] ?? '').includes('compact-2026-01-12')) {
        return {
          error: anthropicError(
            `messages.${turnIndex}.content.${blockIndex}: compaction blocks require the beta header "compact-2026-01-12"`,
          ),
        };
      }
      const summary = keys.open(block['encrypted_content']);
      if (summary === undefined || (block['content'] != null && block['content'] !== summary)) {
        log.refused++;
        return {
          error: anthropicError(
            `messages.${turnIndex}.content.${blockIndex}: the compaction block's encrypted_content could not be verified (signature invalid). Send the block back exactly as this API returned it.`,
            'compaction_signature_invalid',
          ),
        };
      }
      newest = { turn: turnIndex, block: blockIndex, summary };
    }
  }
  if (newest === undefined) return { messages, summary: undefined };
  // Every block before the compaction block is dropped; the block itself stands for them.
  const turn = messages[newest.turn]!;
  const rest = (turn.content as Block[]).slice(newest.block + 1);
  const head: Turn[] = [{ role: 'user', content: [{ type: 'text', text: newest.summary }] }];
  const tail = messages.slice(newest.turn + 1);
  const kept = rest.length > 0 ? [...head, { role: turn.role, content: rest }, ...tail] : [...head, ...tail];
  return { messages: kept, summary: newest.summary };
}

/** The lines a compaction keeps of Anthropic turns: user text and tool calls. */
export function anthropicLines(messages: Turn[]): string[] {
  const lines: string[] = [];
  for (const turn of messages) {
    if (typeof turn.content === 'string') {
      if (turn.role === 'user') lines.push(`user: ${turn.content}`);
      continue;
    }
    for (const block of turn.content) {
      if (turn.role === 'user' && block.type === 'text' && !String(block['text']).startsWith('## Compacted'))
        lines.push(`user: ${String(block['text'])}`);
      if (block.type === 'tool_use') lines.push(`called ${String(block['name'])} ${JSON.stringify(block['input'])}`);
    }
  }
  return lines;
}

// ── OpenAI Responses ─────────────────────────────────────────────────────────────────────────

/** The `context_management` compaction threshold of a Responses request, if any. */
export function openaiCompactThreshold(body: Wire): number | undefined {
  const management = body['context_management'];
  if (!Array.isArray(management)) return undefined;
  const entry = (management as Wire[]).find((candidate) => candidate['type'] === 'compaction');
  return entry === undefined ? undefined : Number(entry['compact_threshold'] ?? 200_000);
}

/** OpenAI's error for an encrypted item it cannot read. */
export function invalidEncryptedContent(encrypted: unknown): Wire {
  const text = String(encrypted);
  const shown = text.length > 12 ? `${text.slice(0, 4)}...${text.slice(-4)}` : text;
  return {
    error: {
      message: `The encrypted content ${shown} could not be verified.`,
      type: 'invalid_request_error',
      param: null,
      code: 'invalid_encrypted_content',
    },
  };
}

/**
 * Checks the compaction items of a Responses input and drops what the newest one stands for: all
 * that precedes an inline item; all but the user messages before an item of the standalone endpoint
 * (they stay where they are). Returns the error body to answer with, or the items the model reads
 * and the summary the newest item holds.
 */
export function readOpenAICompactions(
  input: Wire[],
  keys: CompactionKeys,
  log: NativeCompactionLog,
): { error: Wire } | { input: Wire[]; summary: string | undefined } {
  let newest: { index: number; summary: string; window: boolean } | undefined;
  for (const [index, item] of input.entries()) {
    if (item['type'] !== 'compaction') continue;
    const opened = keys.read(item['encrypted_content']);
    if (opened === undefined) {
      log.refused++;
      return { error: invalidEncryptedContent(item['encrypted_content']) };
    }
    newest = { index, ...opened };
  }
  if (newest === undefined) return { input, summary: undefined };
  const head: Wire = { role: 'developer', content: newest.summary };
  const users = newest.window ? input.slice(0, newest.index).filter((item) => item['role'] === 'user') : [];
  return { input: [...users, head, ...input.slice(newest.index + 1)], summary: newest.summary };
}

/** The lines a compaction keeps of Responses items: user text and function calls. */
export function openaiLines(input: Wire[]): string[] {
  const lines: string[] = [];
  for (const item of input) {
    if (item['role'] === 'user') {
      const content = item['content'];
      const text =
        typeof content === 'string'
          ? content
          : Array.isArray(content)
            ? (content as Wire[]).map((part) => String(part['text'] ?? '')).join(' ')
            : '';
      lines.push(`user: ${text}`);
    }
    if (item['type'] === 'function_call') lines.push(`called ${String(item['name'])} ${String(item['arguments'])}`);
  }
  return lines;
}

/**
 * A Responses compaction item for `summary`, signed with the server's key; `window` for one of the
 * standalone endpoint (whose summary leaves the user messages out: they are returned beside it).
 */
export function openaiCompactionItem(summary: string, keys: CompactionKeys, id: number, window = false): Wire {
  return { id: `cmp_${id}`, type: 'compaction', encrypted_content: keys.sign(summary, window) };
}

/**
 * The compaction step of an Anthropic request past its `compact_20260112` trigger: the block to
 * put first in the response, the tokens the model then reads, and the `usage.iterations` entry of
 * the compaction. `undefined` when the request asks for no compaction or is under its trigger.
 */
export function compactAnthropic(
  body: Wire,
  read: { messages: Turn[]; summary: string | undefined },
  prompt: number,
  keys: CompactionKeys,
  log: NativeCompactionLog,
  count: (messages: Turn[]) => number,
): { block: Block; prompt: number; iteration: Wire; pause: boolean } | undefined {
  const edit = anthropicCompactEdit(body);
  if (edit === undefined || prompt <= edit.trigger) return undefined;
  log.compactions++;
  const summary = summarizeForCompaction(anthropicLines(read.messages), read.summary);
  const block: Block = { type: 'compaction', content: summary, encrypted_content: keys.sign(summary) };
  const after = count([{ role: 'user', content: [{ type: 'text', text: summary }] }]);
  const output = Math.ceil(summary.length / 4);
  return {
    block,
    prompt: after,
    pause: edit.pause,
    iteration: {
      type: 'compaction',
      input_tokens: prompt,
      output_tokens: output,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    },
  };
}
