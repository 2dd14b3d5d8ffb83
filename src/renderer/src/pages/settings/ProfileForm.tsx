import type { FormEvent, ReactElement } from 'react';
import { useMemo, useState } from 'react';
import type { ProfileView } from '@shared/ipc/schemas/settings';
import { Drawer } from '@renderer/components/Drawer';
import { Field, type FieldControl } from '@renderer/components/Field';
import { Toggle } from '@renderer/components/Toggle';
import { useProfiles } from '@renderer/stores/profiles';
import {
  emptyProfileForm,
  profileFormIssues,
  profileSaveRequest,
  profileToForm,
  type ProfileField,
  type ProfileFormValues,
} from './profile-form';

interface ProfileFormProps {
  /** The profile edited, or null for a new one. */
  profile: ProfileView | null;
  /** Ids in use, so a new profile gets its own. */
  takenIds: readonly string[];
  onClose(): void;
}

/** Adds or edits a remote deployment of the service. The API key is write-only. */
export function ProfileForm({ profile, takenIds, onClose }: ProfileFormProps): ReactElement {
  const [values, setValues] = useState<ProfileFormValues>(() =>
    profile ? profileToForm(profile) : emptyProfileForm(),
  );
  const [attempted, setAttempted] = useState(false);
  const [touched, setTouched] = useState<ReadonlySet<ProfileField>>(new Set());
  const save = useProfiles((s) => s.save);
  const pending = useProfiles((s) => s.pending);
  const issues = useMemo(() => profileFormIssues(values, takenIds), [values, takenIds]);
  const errorOf = (f: ProfileField): string | null =>
    (attempted || touched.has(f)) && issues[f] ? issues[f] : null;
  const set = <K extends keyof ProfileFormValues>(field: K, value: ProfileFormValues[K]): void =>
    setValues((v) => ({ ...v, [field]: value }));
  const touch = (field: ProfileField): void => setTouched((t) => (t.has(field) ? t : new Set(t).add(field)));

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    setAttempted(true);
    if (Object.keys(issues).length > 0) return;
    if (await save(profileSaveRequest(values, takenIds))) onClose();
  };

  const text =
    (field: Exclude<ProfileField, 'id' | 'apiKey'>, placeholder: string, mono = false) =>
    (c: FieldControl): ReactElement => (
      <input
        {...c}
        className={`input${mono ? ' mono' : ''}${errorOf(field) ? ' is-invalid' : ''}`}
        value={values[field]}
        onChange={(e) => set(field, e.target.value)}
        onBlur={() => touch(field)}
        placeholder={placeholder}
        spellCheck={false}
        autoComplete="off"
        data-testid={`profile-${field}`}
      />
    );

  const saving = pending !== null;
  return (
    <Drawer
      title={profile ? `Edit “${profile.name}”` : 'Add a remote service'}
      subtitle="A deployment of the service: where it is, how it names things, and its API key."
      onClose={() => {
        if (!saving) onClose();
      }}
      width={560}
      testId="profile-form"
      footer={
        <div className="form-footer">
          <p className="form-footer-status muted">
            {profile
              ? 'Switch to it from the list to use it.'
              : 'Saved profiles are not used until you switch to them.'}
          </p>
          <button type="button" className="button" onClick={onClose} disabled={saving}>
            Cancel
          </button>
          <button
            type="submit"
            form="profile-form-el"
            className="button button-primary"
            disabled={saving}
            data-testid="profile-save"
          >
            {saving ? 'Saving…' : 'Save profile'}
          </button>
        </div>
      }
    >
      <form id="profile-form-el" className="stack-form" onSubmit={(e) => void submit(e)} noValidate>
        <Field label="Name" error={errorOf('name')} hint="How the top bar names it.">
          {text('name', 'e.g. Staging EU')}
        </Field>
        <Field label="Base URL" error={errorOf('baseUrl')} hint="http or https, without a trailing path.">
          {text('baseUrl', 'https://api.example.com', true)}
        </Field>
        <Field
          label="Service name"
          error={errorOf('serviceName')}
          hint="Appears in the login message you sign."
        >
          {text('serviceName', 'Copydesk Local')}
        </Field>
        <div className="form-grid">
          <Field
            label="Venue"
            error={errorOf('venue')}
            hint="Lowercase letters and digits; names paths and fields."
          >
            {text('venue', 'perpx', true)}
          </Field>
          <Field
            label="GraphQL namespace"
            error={errorOf('graphqlNamespace')}
            hint="Prefix of the index names."
          >
            {text('graphqlNamespace', 'local', true)}
          </Field>
        </div>
        <Field
          label="API key"
          error={errorOf('apiKey')}
          hint={
            profile?.hasApiKey
              ? 'A key is stored in the keychain. Type a new one to replace it, or leave empty to keep it.'
              : 'Optional. Kept in the OS keychain; it is never shown again.'
          }
        >
          {(c) => (
            <input
              {...c}
              type="password"
              className={`input mono${errorOf('apiKey') ? ' is-invalid' : ''}`}
              value={values.apiKey}
              onChange={(e) => set('apiKey', e.target.value)}
              placeholder={profile?.hasApiKey ? '•••••••• (stored)' : 'none'}
              autoComplete="off"
              spellCheck={false}
              disabled={values.removeApiKey}
              data-testid="profile-apiKey"
            />
          )}
        </Field>
        {profile?.hasApiKey ? (
          <Toggle
            checked={values.removeApiKey}
            onChange={(on) => setValues((v) => ({ ...v, removeApiKey: on, apiKey: on ? '' : v.apiKey }))}
            label="Remove the stored key"
          />
        ) : null}
      </form>
    </Drawer>
  );
}
