import { create } from 'zustand';
import type { WalletStatus } from '@shared/ipc/contract';
import type { AppError } from '@shared/result';
import { call } from '@renderer/ipc/call';
import { useSession } from './session';
import { oneActionAtATime, readWithLoading } from './store-actions';
import { toast } from './toasts';

interface WalletStore {
  /** Null until `wallet:status` answers. */
  status: WalletStatus | null;
  loading: boolean;
  /** Why the last status read failed, shown in place of the status. */
  error: AppError | null;
  pending: 'create' | 'import' | 'delete' | null;
  refresh(): Promise<void>;
  create(): Promise<boolean>;
  /** Sends the key to the core once; the caller clears its input whatever the outcome. */
  importKey(privateKey: string): Promise<boolean>;
  /** Deletes the wallet whose address the user typed back. */
  remove(address: string): Promise<boolean>;
}

/** The login key (the service calls it the login wallet): whether there is one and its address, never the key itself. */
export const useWallet = create<WalletStore>()((set, get) => {
  const oneAtATime = oneActionAtATime(get, set);
  const run = (
    pending: NonNullable<WalletStore['pending']>,
    action: () => Promise<WalletStatus>,
    done: () => void,
  ): Promise<boolean> =>
    oneAtATime(pending, async () => {
      set({ status: await action(), error: null });
      done();
    });

  return {
    status: null,
    loading: false,
    error: null,
    pending: null,
    refresh: () =>
      readWithLoading(set, async () => {
        set({ status: await call('wallet:status', {}), error: null });
      }),
    create: () =>
      run(
        'create',
        () => call('wallet:create', {}),
        () =>
          toast({
            tone: 'success',
            title: 'Login key created',
            message: 'Its private key is in the keychain. Log in to start a session.',
          }),
      ),
    importKey: (privateKey) =>
      run(
        'import',
        () => call('wallet:import', { privateKey }),
        () =>
          toast({ tone: 'success', title: 'Private key imported', message: 'Log in to start a session.' }),
      ),
    remove: (address) =>
      run(
        'delete',
        () => call('wallet:delete', { address }),
        () => {
          toast({
            tone: 'info',
            title: 'Login key deleted',
            message: 'Its private key was removed from the keychain.',
          });
          // The session belonged to that wallet; read what the core made of it.
          void useSession.getState().refresh();
        },
      ),
  };
});

export const selectWalletAddress = (s: WalletStore): string | null => s.status?.address ?? null;
export const selectHasWallet = (s: WalletStore): boolean => s.status?.hasWallet === true;
export const selectWalletKnown = (s: WalletStore): boolean => s.status !== null;
export const selectWalletPending = (s: WalletStore): WalletStore['pending'] => s.pending;
