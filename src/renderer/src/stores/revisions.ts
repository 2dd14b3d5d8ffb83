import { useEffect, useRef } from 'react';
import { create } from 'zustand';

/** Data that changes by the user's actions or the service's events, beyond one view. */
export type DataDomain = 'copy' | 'wallets' | 'downloads' | 'session';

interface RevisionsStore {
  revisions: Record<DataDomain, number>;
  bump(...domains: DataDomain[]): void;
}

/**
 * A counter per domain, bumped when something there changed (a copy trade saved, a position
 * closed, a withdrawal made, a `copy:activity` event): views of that domain read again.
 */
export const useRevisions = create<RevisionsStore>()((set) => ({
  revisions: { copy: 0, wallets: 0, downloads: 0, session: 0 },
  bump: (...domains) =>
    set((s) => {
      const revisions = { ...s.revisions };
      for (const d of domains) revisions[d] += 1;
      return { revisions };
    }),
}));

/** Marks `domains` changed, from outside React. */
export const bumpRevision = (...domains: DataDomain[]): void => useRevisions.getState().bump(...domains);

/** Calls `reload` whenever `domain` changes after the first render. */
export function useReloadOn(domain: DataDomain, reload: () => void): void {
  const revision = useRevisions((s) => s.revisions[domain]);
  const first = useRef(revision);
  const latest = useRef(reload);
  useEffect(() => {
    latest.current = reload;
  });
  useEffect(() => {
    if (revision !== first.current) latest.current();
  }, [revision]);
}
