import { create } from 'zustand';
import type { EventPayload } from '@shared/ipc/contract';
import { copyActivityNotice } from './copy-notice';
import { useSettings } from './settings';

export type NotificationPermissionState = NotificationPermission | 'unsupported';

const supported = (): boolean => typeof window !== 'undefined' && 'Notification' in window;

interface NotificationsStore {
  /** What the OS allows; `default` until the user was asked. */
  permission: NotificationPermissionState;
  /** Asks the OS for permission (only from a click: browsers refuse it otherwise). */
  requestPermission(): Promise<NotificationPermissionState>;
  /** Shows the desktop notification an activity deserves, if the user opted in. */
  handle(activity: EventPayload<'copy:activity'>): void;
}

/**
 * Opt-in desktop notifications when a copy position opens or closes or a copy fails (settings.notifications),
 * through the browser Notification API, which Electron maps to the OS's notifications.
 */
export const useNotifications = create<NotificationsStore>()((set, get) => ({
  permission: supported() ? Notification.permission : 'unsupported',
  async requestPermission() {
    if (!supported()) return 'unsupported';
    const permission = await Notification.requestPermission();
    set({ permission });
    return permission;
  },
  handle(activity) {
    if (useSettings.getState().settings?.notifications !== true) return;
    if (get().permission !== 'granted') return;
    const notice = copyActivityNotice(activity);
    if (!notice) return;
    try {
      new Notification(notice.title, { body: notice.body, tag: notice.tag });
    } catch {
      // Some shells expose the constructor but refuse it (e.g. a page without a service worker).
    }
  },
}));
