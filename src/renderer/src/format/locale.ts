/**
 * The one locale every date and number is written in (docs/ui.md, Locale): the operating
 * system's (`navigator.language`) unless Settings overrides it. Every formatter of `format/`
 * asks here for its `Intl` object, so a change of locale applies to the next render.
 */

const FALLBACK = 'en-US';

/** The OS's locale as the window reports it; `en-US` when nothing usable is reported. */
export function systemLocale(): string {
  const reported = globalThis.navigator?.language;
  return (
    canonicalLocale(reported) ??
    canonicalLocale(new Intl.DateTimeFormat().resolvedOptions().locale) ??
    FALLBACK
  );
}

/** `en-gb` → `en-GB`; null for text that is no BCP 47 language tag or that `Intl` cannot use. */
export function canonicalLocale(tag: string | null | undefined): string | null {
  if (!tag || tag.trim() === '') return null;
  try {
    const [canonical] = Intl.getCanonicalLocales(tag.trim());
    if (!canonical) return null;
    return Intl.NumberFormat.supportedLocalesOf(canonical).length > 0 ? canonical : null;
  } catch {
    return null;
  }
}

let override: string | null = null;
let active = systemLocale();
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** Sets the locale override (`null`: follow the OS); an unusable tag also means the OS's. */
export function setLocale(tag: string | null): string {
  override = canonicalLocale(tag);
  active = override ?? systemLocale();
  numberFormats.clear();
  dateFormats.clear();
  return active;
}

/** The locale formatting uses now. */
export const currentLocale = (): string => active;

/** The override in force, or null when the OS's locale is followed. */
export const localeOverride = (): string | null => override;

/** An `Intl.NumberFormat` of the current locale, made once per locale and options. */
export function numberFormat(options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = JSON.stringify(options);
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(active, options);
    numberFormats.set(key, format);
  }
  return format;
}

/** An `Intl.DateTimeFormat` of the current locale, made once per locale and options. */
export function dateFormat(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = JSON.stringify(options);
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(active, options);
    dateFormats.set(key, format);
  }
  return format;
}
