import type { ReactElement } from 'react';
import { Segmented, Toggle } from '@renderer/components/Toggle';
import { useNotifications } from '@renderer/stores/notifications';
import { selectTheme, useSettings, type Theme } from '@renderer/stores/settings';
import { LocaleSetting } from './LocaleSetting';
import { Panel } from './Panel';

const THEME_OPTIONS: readonly { value: Theme; label: string }[] = [
  { value: 'system', label: 'System' },
  { value: 'dark', label: 'Dark' },
  { value: 'light', label: 'Light' },
];

/** Theme, locale and OS notifications. */
export function AppearancePanel(): ReactElement {
  const theme = useSettings(selectTheme);
  const settings = useSettings((s) => s.settings);
  const pending = useSettings((s) => s.pending);
  const update = useSettings((s) => s.update);
  const permission = useNotifications((s) => s.permission);
  const requestPermission = useNotifications((s) => s.requestPermission);
  const notifications = settings?.notifications === true;

  const setNotifications = async (on: boolean): Promise<void> => {
    // The OS asks once; without its permission the setting would silently do nothing.
    if (on && permission === 'default') {
      const answer = await requestPermission();
      if (answer !== 'granted') return;
    }
    await update({ notifications: on });
  };

  return (
    <Panel title="Display and notifications" testId="settings-appearance">
      <div className="setting-row">
        <div>
          <p className="setting-name">Theme</p>
          <p className="setting-hint">
            System follows the computer&apos;s light or dark setting; dark suits long sessions, light bright
            rooms.
          </p>
        </div>
        <Segmented
          value={theme}
          options={THEME_OPTIONS}
          onChange={(t) => void update({ theme: t })}
          label="Theme"
          testId="settings-theme"
          disabled={pending === 'theme'}
        />
      </div>
      <LocaleSetting />
      <div className="setting-row">
        <Toggle
          checked={notifications}
          onChange={(on) => void setNotifications(on)}
          label="Desktop notifications"
          hint="A notification when a copy position opens or closes, or a copy fails (with why), even while the terminal is in the background."
          disabled={!settings || pending === 'notifications' || permission === 'unsupported'}
          testId="settings-notifications"
        />
        {permission === 'denied' ? (
          <p className="field-error">
            Notifications are blocked for this window by the system. Allow them in the system settings, then
            turn this on.
          </p>
        ) : permission === 'unsupported' ? (
          <p className="field-hint">This window cannot show desktop notifications.</p>
        ) : null}
      </div>
    </Panel>
  );
}
