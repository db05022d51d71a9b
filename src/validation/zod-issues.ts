import type * as z from 'zod/v4';
import type { Issue } from './light-schema.js';

// The one place a zod error becomes words: the first issue for an option validator's ConfigError, or
// the first few issues, each naming its field, for an entry, a session or a tool call. The light
// schemas (`light-schema.ts`) report issues of the same shape, so their errors are worded alike.

/** The parts of an error these read: a zod error or a light schema's. @internal */
export type IssueList = z.ZodError | { readonly issues: readonly Issue[] };

/**
 * The first problem in a zod error, as the dotted field it concerns (or `fallback`) and a phrase
 * that completes "`<field>` …". Shared by every option validator so their errors read alike.
 *
 * @internal
 */
export function firstIssue(error: IssueList, fallback: string): { field: string; detail: string } {
  const issue = error.issues[0];
  const field = issue?.path.map(String).join('.') || fallback;
  if (issue?.code === 'unrecognized_keys')
    return { field, detail: `has unknown key(s) ${(issue.keys ?? []).join(', ')}` };
  return { field, detail: issue?.message ?? 'is invalid' };
}

/** `root` followed by `path` as code spells it: `entry.message.content[0]` (no root: `message.content[0]`). */
function formatPath(root: string, path: readonly PropertyKey[]): string {
  let text = root;
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text === '' ? String(key) : `.${String(key)}`;
  }
  return text;
}

/**
 * The first `limit` problems of a zod error, each naming its field under `root` (a union's problem
 * lists what each of its options wanted).
 *
 * @internal
 */
export function describeIssues(error: IssueList, root = '', limit = 3): string {
  return error.issues
    .slice(0, limit)
    .map((issue) => {
      let detail = issue.message;
      if (issue.code === 'invalid_union' && issue.errors.length > 0) {
        detail = issue.errors.map((errors) => errors[0]?.message ?? 'invalid').join('; or ');
      }
      const field = formatPath(root, issue.path);
      return field === '' ? detail : `${field}: ${detail}`;
    })
    .join('; ');
}
