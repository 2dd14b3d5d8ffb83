import { describe, expect, it } from 'vitest';
import { logFolderOf } from '@renderer/pages/settings/about';
import { profileSaveRequestSchema } from '@shared/ipc/schemas/settings';
import {
  emptyProfileForm,
  profileFormIssues,
  profileIdFor,
  profileSaveRequest,
  profileToForm,
} from '@renderer/pages/settings/profile-form';
import { copyActivityNotice, positionMoment } from '@renderer/stores/copy-notice';
import { formatBytes } from '@renderer/format/bytes';

describe('the remote profile form', () => {
  const filled = {
    ...emptyProfileForm(),
    name: 'Staging EU',
    baseUrl: 'https://api.example.com/',
    apiKey: ' secret-key ',
  };

  it('makes a unique id from the name', () => {
    expect(profileIdFor('My Staging (EU)', [])).toBe('my-staging-eu');
    expect(profileIdFor('Local', ['local', 'local-2'])).toBe('local-3');
    expect(profileIdFor('!!!', [])).toBe('remote');
  });

  it('makes a save request the contract accepts; the key is sent once, trimmed', () => {
    const request = profileSaveRequest(filled, ['local']);
    expect(request).toEqual({
      profile: {
        id: 'staging-eu',
        name: 'Staging EU',
        kind: 'remote',
        baseUrl: 'https://api.example.com',
        serviceName: 'Copydesk Local',
        venue: 'perpx',
        graphqlNamespace: 'local',
      },
      apiKey: 'secret-key',
    });
    expect(profileSaveRequestSchema.safeParse(request).success).toBe(true);
    expect(profileFormIssues(filled, ['local'])).toEqual({});
  });

  it('keeps the stored key unless a new one is typed or removal is asked', () => {
    const view = { ...profileSaveRequest(filled, []).profile, hasApiKey: true };
    const form = profileToForm(view);
    expect(form.apiKey).toBe('');
    expect(profileSaveRequest(form, [])).not.toHaveProperty('apiKey');
    expect(profileSaveRequest({ ...form, removeApiKey: true }, [])).toMatchObject({ apiKey: null });
  });

  it('reports bad fields with the shared schema’s words', () => {
    const issues = profileFormIssues({ ...filled, baseUrl: 'ftp://x', venue: 'Bad Venue', name: '' }, []);
    expect(issues.baseUrl).toBe('must be an http or https URL');
    expect(issues.venue).toBe('must be lowercase letters and digits');
    expect(issues.name).toBe('must not be empty');
  });
});

describe('copy activity notifications', () => {
  const position = {
    id: 'p1',
    pair: 'BTC-USD',
    isLong: true,
    copyTradeTitle: 'Trend',
    initialVol: 100,
    pnl: 12.5,
    closeType: 'TAKE_PROFIT',
  };

  it('tell an opened and a closed copy position apart, whatever the action is called', () => {
    expect(
      positionMoment({ kind: 'copyPosition', action: 'copyPositionOpened', data: position, at: 'x' }),
    ).toBe('opened');
    expect(positionMoment({ kind: 'copyPosition', action: 'closed', data: position, at: 'x' })).toBe(
      'closed',
    );
    expect(positionMoment({ kind: 'copyPosition', action: 'updated', data: position, at: 'x' })).toBeNull();
    expect(positionMoment({ kind: 'activityLog', action: 'opened', data: {}, at: 'x' })).toBeNull();
  });

  it('say what opened or closed, with the margin or the PnL', () => {
    expect(
      copyActivityNotice({
        kind: 'copyPosition',
        action: 'opened',
        data: { copyPosition: position },
        at: 'x',
      }),
    ).toEqual({
      title: 'Copy opened: BTC-USD long',
      body: 'Trend opened BTC-USD long with $100.00 margin.',
      tag: 'copy-position-p1',
    });
    expect(
      copyActivityNotice({ kind: 'copyPosition', action: 'closed', data: position, at: 'x' })?.body,
    ).toBe('Trend closed BTC-USD long (take profit). PnL +$12.50.');
    expect(copyActivityNotice({ kind: 'withdrawal', action: 'settled', data: {}, at: 'x' })).toBeNull();
  });

  it('say which copy failed and why; a successful log says nothing', () => {
    const failed = {
      id: 'l1',
      type: 'OPEN',
      pair: 'SOL/USD',
      isLong: false,
      isSuccess: false,
      copyTradeTitle: 'Scalpers',
      reason: 'insufficient balance: needs 100.6 USD, available 50 USD',
    };
    expect(copyActivityNotice({ kind: 'activityLog', action: 'OPEN', data: failed, at: 'x' })).toEqual({
      title: 'Copy failed: SOL/USD short',
      body: 'Scalpers could not open SOL/USD short: insufficient balance: needs 100.6 USD, available 50 USD.',
      tag: 'copy-log-l1',
    });
    const increase = { ...failed, type: 'INCREASE', reason: undefined };
    expect(
      copyActivityNotice({ kind: 'activityLog', action: 'INCREASE', data: increase, at: 'x' })?.body,
    ).toBe('Scalpers could not add to SOL/USD short.');
    expect(
      copyActivityNotice({
        kind: 'activityLog',
        action: 'OPEN',
        data: { ...failed, isSuccess: true },
        at: 'x',
      }),
    ).toBeNull();
  });

  it('formats cache sizes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(256 * 1024 * 1024)).toBe('256 MB');
  });
});

describe('the About panel names the log folder', () => {
  it('is logs in the data folder, with the platform separator', () => {
    expect(logFolderOf('/home/ann/.config/Copydesk')).toBe('/home/ann/.config/Copydesk/logs');
    expect(logFolderOf('C:\\Users\\Ann\\AppData\\Roaming\\Copydesk')).toBe(
      'C:\\Users\\Ann\\AppData\\Roaming\\Copydesk\\logs',
    );
  });
});
