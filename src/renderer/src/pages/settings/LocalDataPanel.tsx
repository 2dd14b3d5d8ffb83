import type { ReactElement } from 'react';
import { useEffect, useId, useState } from 'react';
import type { DownloadState } from '@shared/ipc/schemas/leaderboard';
import { ConfirmDialog } from '@renderer/components/ConfirmDialog';
import { CopyButton } from '@renderer/components/CopyButton';
import { EmptyState } from '@renderer/components/EmptyState';
import { ProgressBar } from '@renderer/components/ProgressBar';
import { SkeletonLines } from '@renderer/components/Skeleton';
import { ExportCsvButton } from '@renderer/components/ExportCsvButton';
import { DataTable, type Column } from '@renderer/components/table/DataTable';
import { formatBytes } from '@renderer/format/bytes';
import { formatInteger } from '@renderer/format/number';
import { formatTimestamp } from '@renderer/format/time';
import { useNavigation } from '@renderer/stores/navigation';
import { useSettings } from '@renderer/stores/settings';
import { useDownloads } from '@renderer/stores/downloads';
import { useStorage } from '@renderer/stores/storage';
import { Panel } from './Panel';

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

/** What the terminal keeps on this machine: the cache (size and limit) and the offline downloads. */
export function LocalDataPanel(): ReactElement {
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
