/**
 * A URL path (or a segment of one) with its %-escapes decoded, or null when they are malformed
 * (`%ZZ`, a lone `%E2`): `decodeURIComponent` throws on those, and a request must not.
 */
export function decodePath(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
