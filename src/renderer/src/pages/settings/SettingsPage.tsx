import type { ReactElement } from 'react';
import { Fragment, useEffect, useId, useState } from 'react';
import type { DownloadState } from '@shared/ipc/schemas/leaderboard';
import type { ProfileView } from '@shared/ipc/schemas/settings';
import { ConfirmDialog } from '@renderer/components/ConfirmDialog';
import { CopyButton } from '@renderer/components/CopyButton';
import { EmptyState, ReadFailed } from '@renderer/components/EmptyState';
import { ProgressBar } from '@renderer/components/ProgressBar';
import { SkeletonLines } from '@renderer/components/Skeleton';
import { Segmented, Toggle } from '@renderer/components/Toggle';
import { ExportCsvButton } from '@renderer/components/ExportCsvButton';
import { DataTable, type Column } from '@renderer/components/table/DataTable';
import { formatBytes } from '@renderer/format/bytes';
import { formatInteger } from '@renderer/format/number';
import { formatTimestamp } from '@renderer/format/time';
import { useNavigation } from '@renderer/stores/navigation';
import { useNotifications } from '@renderer/stores/notifications';
import { useProfiles } from '@renderer/stores/profiles';
import { useService } from '@renderer/stores/service';
import { selectTheme, useSettings, type Theme } from '@renderer/stores/settings';
import { useDownloads } from '@renderer/stores/downloads';
import { useStorage } from '@renderer/stores/storage';
import { DataSourcesPanel } from './DataSourcesPanel';
import { LocaleSetting } from './LocaleSetting';
import { Panel } from './Panel';
import { ProfileForm } from './ProfileForm';
import { logFolderOf } from './about';

const THEME_OPTIONS: readonly { value: Theme; label: string }[] = [
  { value: 'system', label: 'System' },
  { value: 'dark', label: 'Dark' },
  { value: 'light', label: 'Light' },
];

function ProfilesPanel(): ReactElement {
  const profiles = useProfiles((s) => s.profiles);
  const error = useProfiles((s) => s.error);
  const loading = useProfiles((s) => s.loading);
  const pending = useProfiles((s) => s.pending);
  const load = useProfiles((s) => s.load);
  const activate = useProfiles((s) => s.activate);
  const remove = useProfiles((s) => s.remove);
  const [editing, setEditing] = useState<ProfileView | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ProfileView | null>(null);

  useEffect(() => {
    void load();
  }, [load]);

  let body: ReactElement;
  if (!profiles && error) {
    body = (
      <ReadFailed
        title="The profiles could not be read"
        message={error.message}
        retrying={loading}
        onRetry={() => void load()}
      />
    );
  } else if (!profiles) {
    body = <SkeletonLines lines={3} />;
  } else {
    body = (
      <ul className="profile-list" data-testid="profile-list">
        {profiles.profiles.map((p) => {
          const active = p.id === profiles.activeId;
          return (
            <li key={p.id} className={`profile${active ? ' is-active' : ''}`} data-testid={`profile-${p.id}`}>
              <div className="profile-main">
                <p className="profile-name">
                  {p.name}
                  <span className={`tag ${p.kind === 'local' ? '' : 'tag-accent'}`}>
                    {p.kind === 'local' ? 'LOCAL' : 'REMOTE'}
                  </span>
                  {active ? <span className="tag tag-good">IN USE</span> : null}
                </p>
                <p className="profile-detail mono">{p.baseUrl || 'started with the terminal'}</p>
                <p className="profile-detail">
                  {p.serviceName} · venue <span className="mono">{p.venue}</span> · GraphQL{' '}
                  <span className="mono">{p.graphqlNamespace}</span> ·{' '}
                  {p.hasApiKey ? 'API key stored' : 'no API key'}
                </p>
              </div>
              <div className="row-actions">
                {!active ? (
                  <button
                    type="button"
                    className="button button-small button-primary"
                    onClick={() => void activate(p.id)}
                    disabled={pending !== null}
                    data-testid="profile-use"
                  >
                    {pending === p.id ? 'Switching…' : 'Use'}
                  </button>
                ) : null}
                {p.kind === 'remote' ? (
                  <>
                    <button
                      type="button"
                      className="button button-small"
                      onClick={() => setEditing(p)}
                      disabled={pending !== null}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="button button-small button-danger-outline"
                      onClick={() => setDeleting(p)}
                      disabled={pending !== null || active}
                      title={active ? 'Switch to another profile before deleting this one.' : undefined}
                    >
                      Delete
                    </button>
                  </>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <Panel
      title="Service"
      testId="settings-profiles"
      aside={
        <button
          type="button"
          className="button button-small"
          onClick={() => setEditing('new')}
          data-testid="profile-add"
        >
          Add remote service
        </button>
      }
    >
      <p className="panel-text panel-intro">
        The terminal talks to one deployment of the service: the local one it starts itself, or a remote one.
        Each has its own login and data.
      </p>
      {body}
      {editing ? (
        <ProfileForm
          profile={editing === 'new' ? null : editing}
          takenIds={profiles?.profiles.map((p) => p.id) ?? []}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title={`Delete “${deleting.name}”?`}
          confirmLabel="Delete profile"
          tone="danger"
          pending={pending === deleting.id}
          onConfirm={() => void remove(deleting.id).then(() => setDeleting(null))}
          onCancel={() => setDeleting(null)}
        >
          <p>The profile and its API key are removed from this machine. The service itself is not touched.</p>
        </ConfirmDialog>
      ) : null}
    </Panel>
  );
}

function AppearancePanel(): ReactElement {
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

const downloadColumns: Column<DownloadState>[] = [
  { id: 'protocol', label: 'Protocol', width: 140, sortable: true, value: (d) => d.protocol },
  { id: 'window', label: 'Window', width: 80, sortable: true, value: (d) => d.window },
  {
    id: 'state',
    label: 'State',
    width: 100,
    sortable: true,
    value: (d) => d.state,
    render: (d) => (
      <span
        className={`tag ${d.state === 'complete' ? 'tag-good' : d.state === 'failed' ? 'tag-bad' : 'tag-warn'}`}
        title={d.message ?? undefined}
      >
        {d.state.toUpperCase()}
      </span>
    ),
  },
  {
    id: 'records',
    label: 'Records',
    align: 'right',
    width: 150,
    sortable: true,
    value: (d) => d.downloaded,
    render: (d) =>
      d.state === 'running' && d.total ? (
        <ProgressBar
          value={d.downloaded / d.total}
          label={`Downloading ${d.protocol} ${d.window}`}
          detail={`${formatInteger(d.downloaded)} / ${formatInteger(d.total)}`}
        />
      ) : (
        <span className="num">{formatInteger(d.downloaded)}</span>
      ),
  },
  {
    id: 'completedAt',
    label: 'As of',
    width: 160,
    sortable: true,
    value: (d) => d.completedAt,
    render: (d) => <span className="num muted">{d.completedAt ? formatTimestamp(d.completedAt) : '—'}</span>,
  },
];

function DataPanel(): ReactElement {
  const stats = useStorage((s) => s.stats);
  const statsError = useStorage((s) => s.statsError);
  const downloads = useDownloads((s) => (s.loaded ? s.states : null));
  const downloadsError = useDownloads((s) => s.error);
  const clearing = useStorage((s) => s.clearing);
  const loadStats = useStorage((s) => s.loadStats);
  const loadDownloads = useDownloads((s) => s.load);
  const clear = useStorage((s) => s.clear);
  const settings = useSettings((s) => s.settings);
  const update = useSettings((s) => s.update);
  const pending = useSettings((s) => s.pending);
  const go = useNavigation((s) => s.go);
  const [confirmClear, setConfirmClear] = useState(false);
  const [limitText, setLimitText] = useState<string | null>(null);
  const limitId = useId();

  useEffect(() => {
    void loadStats();
    void loadDownloads();
  }, [loadStats, loadDownloads]);

  const limit = limitText ?? (settings ? String(settings.cacheLimitMb) : '');
  const limitValue = Number(limit);
  const limitProblem =
    limitText === null
      ? null
      : !/^\d+$/.test(limit.trim())
        ? 'A whole number of MB.'
        : limitValue < 16 || limitValue > 16384
          ? 'Between 16 and 16384 MB.'
          : null;

  const saveLimit = async (): Promise<void> => {
    if (limitProblem || limitText === null) return;
    if (await update({ cacheLimitMb: limitValue })) {
      setLimitText(null);
      void loadStats();
    }
  };

  return (
    <Panel title="Data on this machine" testId="settings-data">
      <div className="setting-block">
        <p className="setting-name">Response cache</p>
        <p className="setting-hint">
          Every page’s last answer, so pages open at once and still work offline. The least recently used
          entries go first when it is full.
        </p>
        {stats ? (
          <>
            <ProgressBar
              value={stats.limitBytes > 0 ? stats.bytes / stats.limitBytes : null}
              label="Cache use"
              detail={`${formatBytes(stats.bytes)} of ${formatBytes(stats.limitBytes)} · ${formatInteger(stats.entries)} entries`}
              testId="cache-usage"
            />
            <p className="setting-hint with-copy">
              <span className="mono">{stats.path}</span>
              <CopyButton text={stats.path} label="Copy the cache path" />
            </p>
          </>
        ) : statsError ? (
          <p className="field-error">The cache could not be measured: {statsError.message}</p>
        ) : (
          <SkeletonLines lines={1} />
        )}
        <div className="setting-inline">
          <label htmlFor={limitId} className="field-label">
            Limit
          </label>
          <input
            id={limitId}
            className={`input num input-narrow${limitProblem ? ' is-invalid' : ''}`}
            value={limit}
            onChange={(e) => setLimitText(e.target.value)}
            inputMode="numeric"
            disabled={!settings}
            aria-invalid={limitProblem ? true : undefined}
            data-testid="cache-limit"
          />
          <span className="muted">MB</span>
          <button
            type="button"
            className="button button-small"
            onClick={() => void saveLimit()}
            disabled={limitText === null || limitProblem !== null || pending === 'cacheLimitMb'}
          >
            Save limit
          </button>
          <button
            type="button"
            className="button button-small button-danger-outline"
            onClick={() => setConfirmClear(true)}
            disabled={clearing || !stats}
            data-testid="cache-clear"
          >
            {clearing ? 'Clearing…' : 'Clear cache…'}
          </button>
          {limitProblem ? <span className="field-error">{limitProblem}</span> : null}
        </div>
      </div>
      <div className="setting-block">
        <div className="setting-block-head">
          <div>
            <p className="setting-name">Offline downloads</p>
            <p className="setting-hint">
              Whole leaderboards saved for offline use
              {stats
                ? ` (${formatInteger(stats.datasets)} datasets, ${formatInteger(stats.datasetRecords)} records)`
                : ''}
              . Clearing the cache keeps them.
            </p>
          </div>
          <div className="toolbar-end">
            <button
              type="button"
              className="button button-small"
              onClick={() => go('leaderboard')}
              data-testid="settings-downloads-link"
            >
              Download on the Leaderboard
            </button>
            <ExportCsvButton
              columns={downloadColumns}
              rows={downloads ?? []}
              name="offline-downloads"
              noun="downloads"
              testId="settings-downloads-export"
            />
          </div>
        </div>
        {downloadsError && !downloads?.length ? (
          <p className="field-error">The offline downloads could not be listed: {downloadsError.message}</p>
        ) : (
          <DataTable
            rows={downloads ?? []}
            columns={downloadColumns}
            rowKey={(d) => `${d.protocol}:${d.window}`}
            loading={downloads === null}
            empty={
              <EmptyState title="Nothing downloaded">
                <p>Download a protocol’s leaderboard to browse and filter it without the service.</p>
              </EmptyState>
            }
            height={240}
            testId="downloads-table"
            ariaLabel="Offline downloads"
          />
        )}
      </div>
      {confirmClear ? (
        <ConfirmDialog
          title="Clear the response cache?"
          confirmLabel="Clear cache"
          pendingLabel="Clearing…"
          tone="danger"
          pending={clearing}
          onConfirm={() => void clear().then(() => setConfirmClear(false))}
          onCancel={() => setConfirmClear(false)}
          testId="cache-clear-dialog"
        >
          <p>
            Pages read everything fresh from the service again; offline, they have nothing to show until they
            have. Offline downloads are kept.
          </p>
        </ConfirmDialog>
      ) : null}
    </Panel>
  );
}

const VERSION_NAMES: Record<string, string> = {
  node: 'Node.js',
  electron: 'Electron',
  chrome: 'Chromium',
  v8: 'V8',
};

function AboutPanel(): ReactElement {
  const info = useService((s) => s.info);
  const loadInfo = useService((s) => s.loadInfo);
  return (
    <Panel title="About" testId="settings-about">
      {info ? (
        <dl className="facts">
          <dt>Copydesk</dt>
          <dd className="num" data-testid="about-version">
            {info.appVersion} · {info.shell === 'electron' ? 'desktop app' : 'web shell'}
          </dd>
          <dt>Data folder</dt>
          <dd className="with-copy">
            <span className="mono" data-testid="about-data-dir">
              {info.dataDir}
            </span>
            <CopyButton text={info.dataDir} label="Copy the data folder path" />
          </dd>
          <dt>Logs</dt>
          <dd className="with-copy">
            <span className="mono" data-testid="about-log-dir">
              {logFolderOf(info.dataDir)}
            </span>
            <CopyButton text={logFolderOf(info.dataDir)} label="Copy the log folder path" />
          </dd>
          <dt>Service</dt>
          <dd className="with-copy">
            {info.profile.name} <span className="muted mono">{info.profile.baseUrl}</span>
          </dd>
          {Object.entries(info.versions).map(([name, version]) => (
            <Fragment key={name}>
              <dt>{VERSION_NAMES[name] ?? name}</dt>
              <dd className="num">{version}</dd>
            </Fragment>
          ))}
          <dt>Keychain</dt>
          <dd>
            {info.ephemeralKeychain ? (
              <span className="tag tag-warn">Temporary, for this run only</span>
            ) : (
              'OS keychain'
            )}
          </dd>
        </dl>
      ) : (
        <ReadFailed
          title="Not known yet"
          message="The terminal information has not been read."
          retrying={false}
          onRetry={() => void loadInfo()}
        />
      )}
    </Panel>
  );
}

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
          <DataPanel />
        </div>
        <div className="settings-column">
          <AppearancePanel />
          <AboutPanel />
        </div>
      </div>
    </section>
  );
}
