import { afterEach, describe, expect, it, vi } from 'vitest';
import { Connectivity } from '../../../../../src/main/core/cache/connectivity';
import { CoreEvents } from '../../../../../src/main/core/events';

describe('Connectivity', () => {
  afterEach(() => vi.useRealTimers());

  it('probes while offline until the service answers, then stops', async () => {
    vi.useFakeTimers();
    const events = new CoreEvents();
    const states: string[] = [];
    events.on('connection:state', (s) => states.push(s.state));
    let up = false;
    const probe = vi.fn(async () => up);
    const c = new Connectivity(events, 'p1', undefined, { probe, probeIntervalMs: 1000 });
    c.reportUnreachable('gone');
    await vi.advanceTimersByTimeAsync(2500);
    expect(probe).toHaveBeenCalledTimes(2);
    up = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(states).toEqual(['offline', 'online']);
    await vi.advanceTimersByTimeAsync(5000);
    expect(probe).toHaveBeenCalledTimes(3);
    c.close();
  });
});
