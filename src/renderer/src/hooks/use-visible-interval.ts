import { useEffect, useRef } from 'react';

/**
 * Calls `tick` every `intervalMs` while the window is visible, and once when it becomes visible
 * again: live data is re-read while someone looks at it, never in a hidden window.
 */
export function useVisibleInterval(tick: () => void, intervalMs: number, enabled = true): void {
  const latest = useRef(tick);
  useEffect(() => {
    latest.current = tick;
  });
  useEffect(() => {
    if (!enabled) return;
    let timer: number | undefined;
    const start = (): void => {
      window.clearInterval(timer);
      timer = window.setInterval(() => latest.current(), intervalMs);
    };
    const onVisibility = (): void => {
      if (document.visibilityState === 'visible') {
        latest.current();
        start();
      } else {
        window.clearInterval(timer);
      }
    };
    if (document.visibilityState === 'visible') start();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [intervalMs, enabled]);
}
