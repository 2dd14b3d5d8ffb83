import type { z } from 'zod';

/**
 * Turns a zod error into one sentence that names the field and the rule,
 * e.g. "pagination.limit must be at most 500" (docs/api.md, Errors).
 */
export function describeIssues(error: z.ZodError, root = 'body'): string {
  // A bad batch of a thousand records would otherwise make a message of thousands of rules.
  const shown = error.issues.slice(0, ISSUES_SHOWN).map((issue) => describeIssue(issue, root));
  const more = error.issues.length - shown.length;
  return more > 0 ? `${shown.join('; ')}; and ${more} more` : shown.join('; ');
}

/** Rules named in one message, at most. */
const ISSUES_SHOWN = 10;

function describeIssue(issue: z.core.$ZodIssue, root: string): string {
  const path = issue.path.length > 0 ? formatPath(issue.path) : root;
  // The API contract sets a rule-shaped message ("must be at most 500") on every check; only
  // schemas without one fall back to zod's wording, which we rephrase.
  if (!isZodDefault(issue.message)) return `${path} ${issue.message}`;
  if (issue.code === 'unrecognized_keys') {
    return `${path} must not contain unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  }
  // zod leaves `input` off issues; its default wording says what it received.
  if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) return `${path} is required`;
  if (issue.code === 'invalid_type') return `${path} must be ${article(issue.expected)}`;
  return `${path} ${issue.message}`;
}

const isZodDefault = (message: string): boolean =>
  /^(Invalid input|Invalid option|Unrecognized key|Too (big|small)|Invalid (string|number|element|key|value))/.test(
    message,
  );

/** `['pagination', 'limit']` → `pagination.limit`; `['accounts', 0]` → `accounts[0]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`))
    .join('');
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}
