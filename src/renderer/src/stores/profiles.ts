import { create } from 'zustand';
import type { ChannelRequest } from '@shared/ipc/contract';
import type { Profiles } from '@shared/ipc/schemas/settings';
import type { AppError } from '@shared/result';
import { call } from '@renderer/ipc/call';
import { useService } from './service';
import { useSession } from './session';
import { oneActionAtATime, readWithLoading } from './store-actions';
import { toast } from './toasts';

interface ProfilesStore {
  /** Null until `profiles:list` answers. */
  profiles: Profiles | null;
  error: AppError | null;
  loading: boolean;
  /** The profile id with a call in flight ('new' while a new one is saved). */
  pending: string | null;
  load(): Promise<void>;
  save(request: ChannelRequest<'profiles:save'>): Promise<boolean>;
  remove(id: string): Promise<boolean>;
  activate(id: string): Promise<boolean>;
  /** Takes the list pushed by the core (`profile:changed`). */
  apply(profiles: Profiles): void;
}

/** Service profiles: the local service and remote deployments; the API keys stay in the core. */
export const useProfiles = create<ProfilesStore>()((set, get) => {
  const oneAtATime = oneActionAtATime<string>(get, set);
  const run = (pending: string, action: () => Promise<Profiles>, done: () => void): Promise<boolean> =>
    oneAtATime(pending, async () => {
      set({ profiles: await action(), error: null });
      done();
    });

  return {
    profiles: null,
    error: null,
    loading: false,
    pending: null,
    load: () =>
      readWithLoading(set, async () => {
        set({ profiles: await call('profiles:list', {}, { quiet: true }), error: null });
      }),
    save: (request) =>
      run(
        get().profiles?.profiles.some((p) => p.id === request.profile.id) ? request.profile.id : 'new',
        () => call('profiles:save', request),
        () =>
          toast({ tone: 'success', title: 'Profile saved', message: `“${request.profile.name}” is saved.` }),
      ),
    remove: (id) =>
      run(
        id,
        () => call('profiles:delete', { id }),
        () =>
          toast({
            tone: 'info',
            title: 'Profile deleted',
            message: 'Its API key was removed from the keychain.',
          }),
      ),
    activate: (id) =>
      run(
        id,
        () => call('profiles:switch', { id }),
        () => {
          const name = get().profiles?.profiles.find((p) => p.id === id)?.name ?? id;
          toast({ tone: 'success', title: 'Service switched', message: `Now connected to “${name}”.` });
          // Another service: another session, another data set.
          void useService.getState().loadInfo();
          void useSession.getState().refresh();
        },
      ),
    apply: (profiles) => set({ profiles, error: null }),
  };
});
