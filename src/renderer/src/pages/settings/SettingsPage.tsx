import type { ReactElement } from 'react';
import { useEffect } from 'react';
import { useSettings } from '@renderer/stores/settings';
import { DataSourcesPanel } from './DataSourcesPanel';
import { AboutPanel } from './AboutPanel';
import { LocalDataPanel } from './LocalDataPanel';
import { AppearancePanel } from './AppearancePanel';
import { ProfilesPanel } from './ProfilesPanel';

/** Service profiles, theme, notifications, local data and versions. */
export function SettingsPage(): ReactElement {
  const load = useSettings((s) => s.load);
  const error = useSettings((s) => s.error);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <section className="page" aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title">Settings</h1>
        <p className="page-lede">
          The service to use, where its traders come from, how the terminal looks, and what it keeps on this
          machine.
        </p>
      </header>
      {error ? (
        <p className="inline-alert" role="alert">
          The settings could not be read: {error.message}
        </p>
      ) : null}
      <div className="settings-layout">
        {/* Full width: the tracked accounts table has many columns. */}
        <div className="settings-wide">
          <DataSourcesPanel />
        </div>
        <div className="settings-column">
          <ProfilesPanel />
          <LocalDataPanel />
        </div>
        <div className="settings-column">
          <AppearancePanel />
          <AboutPanel />
        </div>
      </div>
    </section>
  );
}
