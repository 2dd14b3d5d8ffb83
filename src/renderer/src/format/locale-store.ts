import { create } from 'zustand';
import { readPref, writePref } from '@renderer/stores/local-prefs';
import { localeOverride, setLocale, systemLocale } from './locale';

const PREF = 'locale';

interface LocaleStore {
  /** The locale every date and number is written in now. */
  locale: string;
  /** The Settings override; null follows the OS's locale. */
  override: string | null;
  /** Sets (or with null clears) the override, kept on this machine like the other view prefs. */
  choose(tag: string | null): void;
}

function apply(tag: string | null): { locale: string; override: string | null } {
  const locale = setLocale(tag);
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
  return { locale, override: localeOverride() };
}

/**
 * The locale setting. The window's content is keyed on `locale` (main.tsx), so a change
 * re-renders every date and number through the new `Intl` formatters at once.
 */
export const useLocale = create<LocaleStore>()((set) => ({
  ...apply(readPref<string | null>(PREF, null)),
  choose(tag) {
    const next = apply(tag);
    writePref(PREF, next.override);
    set(next);
  },
}));

/** A few locales offered in Settings besides the OS's own; any BCP 47 tag works. */
export const OFFERED_LOCALES = [
  'en-US',
  'en-GB',
  'de-DE',
  'fr-FR',
  'es-ES',
  'it-IT',
  'nl-NL',
  'pt-BR',
  'pl-PL',
  'tr-TR',
  'ru-RU',
  'ja-JP',
  'ko-KR',
  'zh-CN',
] as const;

/** A locale's own name for itself: `de-DE` → `Deutsch (Deutschland)`. */
export function localeName(tag: string): string {
  try {
    return new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/** The OS's locale, for the "System" choice's label. */
export const systemLocaleName = (): string => systemLocale();
