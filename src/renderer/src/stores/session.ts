import { create } from 'zustand';
import type { AuthStatus, Session } from '@shared/ipc/contract';
import type { AppError } from '@shared/result';
import { shortAddress } from '@renderer/format/address';
import { call } from '@renderer/ipc/call';
import { oneActionAtATime, readWithLoading } from './store-actions';
import { toast } from './toasts';

interface SessionStore {
  /** Null until `auth:status` answers. */
  status: AuthStatus | null;
  /** Why the last status read failed, shown while no status is known. */
  error: AppError | null;
  loading: boolean;
  pending: 'login' | 'logout' | null;
  refresh(): Promise<void>;
  login(): Promise<boolean>;
  logout(): Promise<boolean>;
  /** Takes a status pushed by the core (`session:changed`). */
  apply(status: AuthStatus): void;
}

/** The login session with the service; the JWT itself stays in the core. */
export const useSession = create<SessionStore>()((set, get) => {
  const oneAtATime = oneActionAtATime(get, set);
  return {
    status: null,
    error: null,
    loading: false,
    pending: null,
    // A failed read keeps the last known status.
    refresh: () =>
      readWithLoading(set, async () => {
        set({ status: await call('auth:status', {}), error: null });
      }),
    login: () =>
      oneAtATime('login', async () => {
        const session = await call('auth:login', {});
        set({ status: { loggedIn: true, session }, error: null });
        toast({
          tone: 'success',
          title: 'Logged in',
          message: `Session open for ${shortAddress(session.address)}.`,
        });
      }),
    logout: () =>
      oneAtATime('logout', async () => {
        set({ status: await call('auth:logout', {}), error: null });
      }),
    apply: (status) => set({ status, error: null }),
  };
});

export const selectSession = (s: SessionStore): Session | null =>
  s.status?.loggedIn ? (s.status.session ?? null) : null;
export const selectLoggedIn = (s: SessionStore): boolean => selectSession(s) !== null;
/** True once the session was read, or its read failed (then the UI offers Log in and shows why). */
export const selectSessionKnown = (s: SessionStore): boolean => s.status !== null || s.error !== null;
export const selectSessionPending = (s: SessionStore): SessionStore['pending'] => s.pending;
