import { describe, expect, it, vi } from 'vitest';
import { oneActionAtATime, readWithLoading } from '@renderer/stores/store-actions';

// The real call() reaches for the preload bridge on window; these helpers only need failureOf.
vi.mock('@renderer/ipc/call', () => ({ failureOf: () => null }));

describe('store actions', () => {
  it('runs one action at a time and clears pending whatever the outcome', async () => {
    let state: { pending: 'a' | 'b' | null } = { pending: null };
    const run = oneActionAtATime(
      () => state,
      (patch) => (state = { ...state, ...patch }),
    );
    let release = (): void => undefined;
    const first = run('a', () => new Promise<void>((resolve) => (release = resolve)));
    expect(state.pending).toBe('a');
    expect(await run('b', async () => undefined)).toBe(false);
    release();
    expect(await first).toBe(true);
    expect(state.pending).toBeNull();
    expect(await run('b', () => Promise.reject(new Error('refused')))).toBe(false);
    expect(state.pending).toBeNull();
  });

  it('keeps the loading flag up only while the read runs', async () => {
    const patches: object[] = [];
    await readWithLoading(
      (patch) => patches.push(patch),
      () => Promise.reject(new Error('down')),
    );
    expect(patches).toEqual([{ loading: true }, { error: null }, { loading: false }]);
  });
});
