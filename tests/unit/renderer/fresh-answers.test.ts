import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { FreshAnswer } from '@renderer/ipc/fresh-answers';
import { matchFresh, subscribeFresh } from '@renderer/ipc/fresh-answers';
import { requestKey } from '@shared/ipc/request-key';

// The core's event stream, replaced: each test pushes `data:fresh` events by hand.
const listeners: ((event: FreshAnswer) => void)[] = [];
vi.mock('@renderer/ipc/events', () => ({
  subscribe: (_event: string, listener: (event: FreshAnswer) => void) => {
    listeners.push(listener);
    return () => listeners.splice(listeners.indexOf(listener), 1);
  },
}));
const push = (event: FreshAnswer): void => listeners.forEach((listener) => listener(event));

const tokensKey = requestKey('tokens:list', {});

describe('matchFresh', () => {
  it('takes the answer to a request of ours on the same channel', () => {
    const event = { channel: 'tokens:list', key: tokensKey, value: { data: [] } };
    expect(matchFresh(event, 'tokens:list', (key) => key === tokensKey)).toEqual({
      key: tokensKey,
      value: { data: [] },
    });
  });

  it('leaves an answer to another channel, even under a key we asked for', () => {
    const event = { channel: 'leaderboard:page', key: tokensKey, value: 1 };
    expect(matchFresh(event, 'tokens:list', () => true)).toBeNull();
  });

  it('leaves an answer to a request we did not make', () => {
    const theirs = requestKey('leaderboard:page', { protocols: ['A'], window: '7d' });
    const ours = requestKey('leaderboard:page', { protocols: ['B'], window: '7d' });
    const event = { channel: 'leaderboard:page', key: theirs, value: 1 };
    expect(matchFresh(event, 'leaderboard:page', (key) => key === ours)).toBeNull();
  });
});

describe('subscribeFresh', () => {
  beforeEach(() => listeners.splice(0));

  it('hands over only matching answers, asking for the keys when each event arrives', () => {
    const keys = new Set<string>();
    const got: unknown[] = [];
    subscribeFresh(
      'leaderboard:page',
      (key) => keys.has(key),
      ({ value }) => got.push(value),
    );
    push({ channel: 'leaderboard:page', key: 'k1', value: 'early' });
    keys.add('k1');
    push({ channel: 'leaderboard:page', key: 'k1', value: 'ours' });
    push({ channel: 'tokens:list', key: 'k1', value: 'other channel' });
    push({ channel: 'leaderboard:page', key: 'k2', value: 'other request' });
    expect(got).toEqual(['ours']);
  });

  it('stops when its returned function is called', () => {
    const got: unknown[] = [];
    const stop = subscribeFresh(
      'tokens:list',
      () => true,
      ({ value }) => got.push(value),
    );
    stop();
    push({ channel: 'tokens:list', key: tokensKey, value: 'late' });
    expect(got).toEqual([]);
  });
});
