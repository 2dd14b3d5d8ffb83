import type { ReactElement } from 'react';
import { useEffect, useState } from 'react';
import type { ProfileView } from '@shared/ipc/schemas/settings';
import { ConfirmDialog } from '@renderer/components/ConfirmDialog';
import { ReadFailed } from '@renderer/components/EmptyState';
import { SkeletonLines } from '@renderer/components/Skeleton';
import { useProfiles } from '@renderer/stores/profiles';
import { Panel } from './Panel';
import { ProfileForm } from './ProfileForm';

/** The services the terminal can use (local or remote): add, edit, switch to, delete. */
export function ProfilesPanel(): ReactElement {
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
