import type { ReactElement, ReactNode } from 'react';
import { useId } from 'react';

/** A settings panel: a titled section, with an optional control at the right of its title. */
export function Panel({
  title,
  children,
  aside,
  testId,
}: {
  title: string;
  children: ReactNode;
  aside?: ReactElement;
  testId?: string;
}): ReactElement {
  const id = useId();
  return (
    <section className="panel" aria-labelledby={id} data-testid={testId}>
      <header className="panel-header">
        <h2 id={id}>{title}</h2>
        {aside}
      </header>
      <div className="panel-body">{children}</div>
    </section>
  );
}
