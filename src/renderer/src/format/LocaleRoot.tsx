import type { ReactElement, ReactNode } from 'react';
import { Fragment } from 'react';
import { useLocale } from './locale-store';

/** Renders its children again, from scratch, when the locale changes (docs/ui.md, Locale). */
export function LocaleRoot({ children }: { children: ReactNode }): ReactElement {
  const locale = useLocale((s) => s.locale);
  return <Fragment key={locale}>{children}</Fragment>;
}
