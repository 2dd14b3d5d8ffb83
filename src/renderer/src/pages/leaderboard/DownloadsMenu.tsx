import type { ReactElement } from 'react';
import { useEffect } from 'react';
import type { Window } from '@shared/api/common';
import type { DownloadState } from '@shared/ipc/schemas/leaderboard';
import { Popover } from '@renderer/components/Popover';
import { formatAge } from '@renderer/format/age';
import { formatInteger } from '@renderer/format/number';
import { downloadOf, useDownloads } from '@renderer/stores/downloads';
import { WINDOW_LABELS } from '@renderer/statistics/statistic-fields';

/** Share of a download done, 0..1, or null when the total is not known yet. */
function downloadShare(state: DownloadState): number | null {
  if (state.state === 'complete') return 1;
  if (!state.total) return null;
  return Math.max(0, Math.min(1, state.downloaded / state.total));
}

function ProgressBar({ state, label }: { state: DownloadState; label: string }): ReactElement {
  const share = downloadShare(state);
  return (
    <div
      className={`lb-progress lb-progress-${state.state}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={state.total ?? undefined}
      aria-valuenow={state.total ? state.downloaded : undefined}
      aria-valuetext={
        state.total
          ? `${formatInteger(state.downloaded)} of ${formatInteger(state.total)} records`
          : `${formatInteger(state.downloaded)} records`
      }
    >
      <span
        style={{ width: share === null ? '30%' : `${share * 100}%` }}
        className={share === null ? 'is-indeterminate' : ''}
      />
    </div>
  );
}

function DatasetRow({ protocol, window }: { protocol: string; window: Window }): ReactElement {
  const state = useDownloads((s) => downloadOf(s.states, { protocol, window }));
  const start = useDownloads((s) => s.start);
  const cancel = useDownloads((s) => s.cancel);
  const remove = useDownloads((s) => s.remove);
  const key = { protocol, window };
  const name = `${protocol} ${WINDOW_LABELS[window]}`;

  let status: ReactElement;
  let actions: ReactElement;
  if (!state) {
    status = <span className="muted">Not downloaded</span>;
    actions = (
      <button
        type="button"
        className="button button-small"
        onClick={() => void start(key)}
        data-testid={`download-start-${protocol}`}
      >
        Download
      </button>
    );
  } else if (state.state === 'running') {
    status = <ProgressBar state={state} label={`Downloading ${name}`} />;
    actions = (
      <button type="button" className="button button-small" onClick={() => void cancel(key)}>
        Cancel
      </button>
    );
  } else if (state.state === 'complete') {
    status = (
      <span className="muted" title={state.completedAt ?? undefined}>
        {formatInteger(state.downloaded)} traders ·{' '}
        {state.completedAt ? `${formatAge(state.completedAt)} ago` : 'saved'}
      </span>
    );
    actions = (
      <>
        <button
          type="button"
          className="button button-small"
          onClick={() => void start(key)}
          title="Download it again now"
        >
          Update
        </button>
        <button
          type="button"
          className="button button-small button-danger-outline"
          onClick={() => void remove(key)}
        >
          Delete
        </button>
      </>
    );
  } else {
    status = (
      <span className={state.state === 'failed' ? 'field-error' : 'muted'}>
        {state.state === 'failed' ? 'Failed' : 'Paused'}
        {state.message ? `: ${state.message}` : ''}
      </span>
    );
    actions = (
      <button type="button" className="button button-small" onClick={() => void start(key)}>
        {state.state === 'failed' ? 'Retry' : 'Resume'}
      </button>
    );
  }
  return (
    <li className="dataset-row" data-testid={`dataset-${protocol}`} data-state={state?.state ?? 'none'}>
      <span className="dataset-name">{protocol}</span>
      <span className="dataset-status">{status}</span>
      <span className="dataset-actions">{actions}</span>
    </li>
  );
}

/**
 * Bulk download of the selected protocols' statistics for the window, so the leaderboard works
 * without the service (answers then say "Downloaded · as of …").
 */
export function DownloadsMenu({
  protocols,
  window,
}: {
  protocols: readonly string[];
  window: Window;
}): ReactElement {
  const load = useDownloads((s) => s.load);
  const states = useDownloads((s) => s.states);
  const start = useDownloads((s) => s.start);
  useEffect(() => {
    void load();
  }, [load]);
  const running = states.filter((s) => s.state === 'running');
  const missing = protocols.filter((p) => downloadOf(states, { protocol: p, window })?.state !== 'complete');

  return (
    <Popover
      label={
        <>
          Offline data
          {running.length > 0 ? <span className="badge-dot" aria-hidden="true" /> : null}
        </>
      }
      ariaLabel={running.length > 0 ? `Offline data, ${running.length} downloading` : 'Offline data'}
      testId="downloads"
      align="right"
    >
      {() => (
        <div className="downloads">
          <p className="popover-title">Download for offline use · {WINDOW_LABELS[window]}</p>
          <p className="field-hint">
            Saves every trader of a protocol for this window, so the leaderboard works when the service cannot
            be reached.
          </p>
          <ul className="dataset-list">
            {protocols.map((p) => (
              <DatasetRow key={p} protocol={p} window={window} />
            ))}
          </ul>
          {missing.length > 1 ? (
            <button
              type="button"
              className="button button-small button-primary"
              onClick={() => missing.forEach((protocol) => void start({ protocol, window }))}
              data-testid="download-all"
            >
              Download all {missing.length}
            </button>
          ) : null}
        </div>
      )}
    </Popover>
  );
}
