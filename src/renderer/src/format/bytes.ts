import { numberFormat } from './locale';

/** `1536` → `1.5 KB`, `12582912` → `12 MB` (binary units, as file managers show them). */
export function formatBytes(bytes: number | null | undefined): string {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes) || bytes < 0) return '—';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : numberFormat({ maximumFractionDigits: 1 }).format(value)} ${units[unit]}`;
}
