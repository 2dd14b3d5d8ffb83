/** The colours a canvas chart needs, taken from the painted theme's CSS variables. */
export interface ChartColors {
  text: string;
  grid: string;
  border: string;
  good: string;
  bad: string;
  /** Area fills and bars: the sign colours made translucent. */
  goodFill: string;
  badFill: string;
  goodFade: string;
  badFade: string;
  goodBar: string;
  badBar: string;
  accent: string;
}

/** `#2ebd85` + 0.22 → `rgba(46, 189, 133, 0.22)`; other colour forms come back unchanged. */
export function withAlpha(color: string, alpha: number): string {
  const hex = /^#([0-9a-f]{6})$/i.exec(color.trim());
  if (!hex?.[1]) return color;
  const n = Number.parseInt(hex[1], 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

/** The palette's chart colours from `styles/theme.css`, so charts follow the theme like the page. */
export function readChartColors(element: Element = document.documentElement): ChartColors {
  const style = getComputedStyle(element);
  const token = (name: string): string => style.getPropertyValue(name).trim();
  const good = token('--good');
  const bad = token('--bad');
  return {
    text: token('--text-muted'),
    grid: token('--surface-hover'),
    border: token('--border'),
    good,
    bad,
    goodFill: withAlpha(good, 0.22),
    badFill: withAlpha(bad, 0.22),
    goodFade: withAlpha(good, 0.02),
    badFade: withAlpha(bad, 0.02),
    goodBar: withAlpha(good, 0.7),
    badBar: withAlpha(bad, 0.7),
    accent: token('--accent'),
  };
}
