import { describe, expect, it } from 'vitest';
import { parseThemeSetting, resolveTheme } from '@renderer/theme/resolve-theme';
import { withAlpha } from '@renderer/theme/chart-colors';
import { THEMES, settingsUpdateRequestSchema } from '@shared/ipc/schemas/settings';

describe('the theme setting', () => {
  it('System follows the OS; Dark and Light do not', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
    expect(resolveTheme('light', true)).toBe('light');
  });

  it('offers System first, and a stored value that is not a theme reads as System', () => {
    expect(THEMES).toEqual(['system', 'dark', 'light']);
    expect(parseThemeSetting('light')).toBe('light');
    expect(parseThemeSetting('dark')).toBe('dark');
    expect(parseThemeSetting(null)).toBe('system');
    expect(parseThemeSetting('neon')).toBe('system');
  });

  it('accepts the three settings and refuses others, naming the field', () => {
    expect(settingsUpdateRequestSchema.safeParse({ theme: 'system' }).success).toBe(true);
    const refused = settingsUpdateRequestSchema.safeParse({ theme: 'auto' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(['theme']);
  });
});

describe('chart colours', () => {
  it('makes a theme colour translucent for fills and bars', () => {
    expect(withAlpha('#2ebd85', 0.22)).toBe('rgba(46, 189, 133, 0.22)');
    expect(withAlpha(' #0F8A5A ', 0.7)).toBe('rgba(15, 138, 90, 0.7)');
    // What is not a 6-digit hex colour is passed through rather than guessed at.
    expect(withAlpha('rgb(1, 2, 3)', 0.5)).toBe('rgb(1, 2, 3)');
  });
});
