import type { ReactElement } from 'react';
import { Fragment } from 'react';
import { CopyButton } from '@renderer/components/CopyButton';
import { ReadFailed } from '@renderer/components/EmptyState';
import { useService } from '@renderer/stores/service';
import { Panel } from './Panel';
import { logFolderOf } from './about';

const VERSION_NAMES: Record<string, string> = {
  node: 'Node.js',
  electron: 'Electron',
  chrome: 'Chromium',
  v8: 'V8',
};

/** The terminal's version, data and log folders, service, runtimes and keychain. */
export function AboutPanel(): ReactElement {
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
