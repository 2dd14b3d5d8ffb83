import type { ReactElement } from 'react';
import { EmptyState } from '@renderer/components/EmptyState';
import type { PageEntry } from './registry';

/** A page of a later release: says what it will do, shows no made-up data. */
export function PlaceholderPage({ page }: { page: PageEntry }): ReactElement {
  const Icon = page.icon;
  return (
    <section className="page" aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title">{page.label}</h1>
      </header>
      <div className="panel">
        <EmptyState
          title={`${page.label} is not built yet`}
          icon={<Icon />}
          testId={`placeholder-${page.id}`}
        >
          <p>{page.purpose}</p>
          <p className="muted">It arrives in a later release; nothing on this page is live yet.</p>
        </EmptyState>
      </div>
    </section>
  );
}
