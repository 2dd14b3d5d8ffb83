import { useEffect, useState } from 'react';

/** The current time, re-read every `intervalMs`, for "3 min ago" texts that must keep ageing. */
export function useNow(intervalMs = 15_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}
