/** What a tool call and its result say: the command, the files, how it ended. Internal. */
import type { ToolCall, ToolResultMessage } from '../../types.js';
import { splitOutputLines } from '../tool-output/lines.js';
import { reportedExitCode } from '../tool-output/reported-exit-code.js';

/** Tools that change files when they succeed. */
const MODIFYING_TOOL =
  /write|edit|create|patch|replace|apply|insert|delete|remove|rename|move|mkdir|touch|save|update_file|str_replace/i;
/** Argument keys that name a file a tool works on. */
const PATH_KEYS = [
  'path',
  'file_path',
  'filePath',
  'filepath',
  'file',
  'filename',
  'target',
  'target_file',
  'notebook_path',
  'source',
  'destination',
  'old_path',
  'new_path',
];
const COMMAND_KEYS = ['command', 'cmd', 'script'];
/** `*** Update File: path` (apply_patch) and `+++ b/path` (unified diffs). */
const PATCH_FILE = /^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\+\+\+ b\/(.+)$|^\*\*\* Move to: (.+)$/gm;

function argumentsOf(call: ToolCall): Record<string, unknown> {
  return typeof call.arguments === 'object' && call.arguments !== null ? call.arguments : {};
}

function looksLikePath(value: string): boolean {
  return value.length > 0 && value.length < 400 && !/\n/.test(value) && /[\w-]/.test(value);
}

/** The files a call names in its arguments (path keys, lists of them, `edits[].path`, patch headers). @internal */
export function pathsOf(call: ToolCall): string[] {
  const args = argumentsOf(call);
  const found: string[] = [];
  const add = (value: unknown) => {
    if (typeof value === 'string' && looksLikePath(value.trim()) && !found.includes(value.trim()))
      found.push(value.trim());
  };
  const visit = (record: Record<string, unknown>) => {
    for (const key of PATH_KEYS) {
      const value = record[key];
      if (Array.isArray(value)) value.forEach(add);
      else add(value);
    }
    if (Array.isArray(record['paths'])) record['paths'].forEach(add);
  };
  visit(args);
  for (const key of ['edits', 'files', 'changes']) {
    const list = args[key];
    if (Array.isArray(list))
      for (const item of list) if (typeof item === 'object' && item !== null) visit(item as Record<string, unknown>);
  }
  for (const key of ['patch', 'input', 'diff']) {
    const text = args[key];
    if (typeof text !== 'string') continue;
    for (const match of text.matchAll(PATCH_FILE)) add(match[1] ?? match[2] ?? match[3]);
  }
  return found;
}

/** The shell command a call runs, if it runs one. @internal */
export function commandOf(call: ToolCall): string | undefined {
  const args = argumentsOf(call);
  for (const key of COMMAND_KEYS) {
    const value = args[key];
    if (typeof value === 'string' && value.trim()) return value.trim();
    if (Array.isArray(value) && value.every((part) => typeof part === 'string')) return value.join(' ');
  }
  return undefined;
}

/** Whether a call changes the files it names. @internal */
export function isModifying(call: ToolCall): boolean {
  return MODIFYING_TOOL.test(String(call.name));
}

/** How a call ended: `ok`, `failed (exit 1)`, `error`, or `no result`. @internal */
export function outcomeOf(result: ToolResultMessage | undefined, text: string): { ok: boolean; label: string } {
  if (result === undefined) return { ok: false, label: 'no result' };
  const code = reportedExitCode(splitOutputLines(text));
  if (result.isError) return { ok: false, label: code === undefined ? 'error' : `failed (exit ${code})` };
  if (code !== undefined && code !== 0) return { ok: false, label: `failed (exit ${code})` };
  return { ok: true, label: code === undefined ? 'ok' : 'ok (exit 0)' };
}
