/**
 * The key of a read request: the same for equal requests whatever their field order, so that a
 * `data:fresh` event finds the view that asked. Used by the core's cache and the renderer's stores.
 */
export function requestKey(channel: string, request: unknown): string {
  return `${channel} ${stableJson(request ?? {})}`;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
