import { WEB_TOKEN_QUERY, WEB_TOKEN_STORAGE_KEY } from '@shared/ipc/web-protocol';

/**
 * Takes the web shell's per-run token from the page address (`?token=…`) on first load, keeps it
 * in sessionStorage so a reload still works, and removes it from the address bar so it does not
 * end up in screenshots, history or a pasted link. Returns null when the page has none.
 */
export function takeWebToken(): string | null {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get(WEB_TOKEN_QUERY);
  if (fromUrl) {
    try {
      window.sessionStorage.setItem(WEB_TOKEN_STORAGE_KEY, fromUrl);
    } catch {
      // Storage can be disabled; the token still works for this page's lifetime.
    }
    url.searchParams.delete(WEB_TOKEN_QUERY);
    window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
    return fromUrl;
  }
  try {
    return window.sessionStorage.getItem(WEB_TOKEN_STORAGE_KEY);
  } catch {
    return null;
  }
}
