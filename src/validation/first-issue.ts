import type { z } from 'zod';

/**
 * The first problem in a zod error, as the dotted field it concerns (or `fallback`) and a phrase
 * that completes "`<field>` …". Shared by every option validator so their errors read alike.
 *
 * @internal
 */
export function firstIssue(error: z.ZodError, fallback: string): { field: string; detail: string } {
  const issue = error.issues[0];
  const field = issue?.path.map(String).join('.') || fallback;
  if (issue?.code === 'unrecognized_keys') return { field, detail: `has unknown key(s) ${issue.keys.join(', ')}` };
  return { field, detail: issue?.message ?? 'is invalid' };
}
