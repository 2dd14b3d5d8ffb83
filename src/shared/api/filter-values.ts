// How a filter value (JSON, possibly text) becomes what a field compares (docs/api.md, Filters):
// one set of rules for the service's SQL filters and the core's offline filters over downloaded
// datasets, which must answer the same. Each side raises its own error type with the sentence.

/** The kinds of field a filter compares as a number. */
export type NumericFilterKind = 'number' | 'boolean' | 'time';

/** `value` as a number of `kind` (true/false as 1/0, times as epoch ms), or `fail` with the rule broken. */
export function filterNumber(
  kind: NumericFilterKind,
  value: unknown,
  at: string,
  fail: (message: string) => Error,
): number {
  if (kind === 'boolean') {
    if (value === true || value === 'true' || value === 1) return 1;
    if (value === false || value === 'false' || value === 0) return 0;
    throw fail(`${at} must be true or false`);
  }
  if (kind === 'time') {
    const ms = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : NaN;
    if (!Number.isFinite(ms)) throw fail(`${at} must be an ISO 8601 time or epoch milliseconds`);
    return ms;
  }
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : NaN;
  if (!Number.isFinite(n)) throw fail(`${at} must be a number or numeric text`);
  return n;
}

/** `value` as text (a number is written as text), or `fail`. */
export function filterText(value: unknown, at: string, fail: (message: string) => Error): string {
  if (typeof value !== 'string' && typeof value !== 'number') throw fail(`${at} must be a string`);
  return String(value);
}
