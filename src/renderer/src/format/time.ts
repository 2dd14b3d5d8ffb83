const pad = (n: number): string => String(n).padStart(2, '0');

/** ISO 8601 → `2025-11-21 10:29:03` in local time; an unreadable string comes back unchanged. */
export function formatTimestamp(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}
