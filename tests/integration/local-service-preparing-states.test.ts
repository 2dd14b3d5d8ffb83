// How the core reads a local service that listens before it prepares its data (issue #20 item 1;
// docs/core.md, The local service process), with stand-in processes that print the service's lines:
// its URL is used at once, it stays `starting` with its progress until it says it is done, a
// restart waits for the preparation, and a preparation that stops talking is a stuck service.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { CoreEvents } from '../../src/main/core/events';
import { LocalServiceProcess } from '../../src/main/core/local-service/service-process';
import type { EventPayload } from '../../src/shared';

const dir = mkdtempSync(join(tmpdir(), 'copydesk-preparing-states-'));
const running: LocalServiceProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((service) => service.stop()));
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A stand-in service: its ready line with `, preparing its data`, a progress line every
 * `stepMs` for `steps` steps, then (unless `hang`) the prepared line; it lives on until killed.
 */
function standIn(name: string, options: { steps: number; stepMs: number; hang?: boolean }): string {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(
    file,
    `
const port = 41000 + (process.pid % 1000);
console.log('Copydesk local service listening on http://127.0.0.1:' + port + ' (database x), preparing its data');
let step = 0;
const timer = setInterval(() => {
  step += 1;
  if (step <= ${options.steps}) console.log('progress: positions ' + Math.round((100 * step) / ${options.steps}) + '% (' + step + '/${options.steps})');
  else {
    clearInterval(timer);
    if (!${options.hang === true}) console.log('Copydesk local service prepared its data in 1.0 s');
  }
}, ${options.stepMs});
setInterval(() => {}, 1000);
`,
  );
  return file;
}

function start(command: string, extra: { startTimeoutMs?: number } = {}) {
  const events = new CoreEvents();
  const states: EventPayload<'service:state'>[] = [];
  events.on('service:state', (s) => states.push(s));
  const service = new LocalServiceProcess({
    dbPath: join(dir, 'unused.db'),
    events,
    command: [command],
    restart: { baseDelayMs: 10, maxDelayMs: 10, maxQuickFailures: 1, quickMs: 60_000 },
    ...extra,
  });
  running.push(service);
  return { service, states };
}

describe('a local service that prepares its data after it listens', () => {
  it('is used at once, starting with its progress, and ready once it says it is done', async () => {
    const { service, states } = start(standIn('prepares', { steps: 4, stepMs: 500 }));
    const url = await service.start();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(service.url).toBe(url);
    // Its URL is known while it prepares (2.5 s of steps to go), and it is not ready.
    expect(states[1]?.message).toBe('Preparing the market world…');
    expect(states.some((s) => s.state === 'ready')).toBe(false);
    await service.prepared();
    expect(states.map((s) => s.message ?? s.state)).toEqual([
      'Starting the local service…',
      'Preparing the market world…',
      'Preparing the market world: positions 25%',
      'Preparing the market world: positions 50%',
      'Preparing the market world: positions 75%',
      'Preparing the market world: positions 100%',
      'ready',
    ]);
    expect(states.at(-1)).toMatchObject({ state: 'ready', url });
  });

  it('restarts only once the preparation under way is done', async () => {
    const { service, states } = start(standIn('restarted', { steps: 3, stepMs: 200 }));
    await service.start();
    const restarted = service.restart(['--empty']);
    const readyBeforeRestart = () => states.findIndex((s) => s.state === 'ready');
    const restartAsked = () => states.findIndex((s) => s.message === 'Restarting the local service…');
    await restarted;
    // The first start's `ready` (its preparation done) came before the restart began.
    expect(readyBeforeRestart()).toBeGreaterThan(-1);
    expect(restartAsked()).toBeGreaterThan(readyBeforeRestart());
    expect(states.filter((s) => s.message?.startsWith('Preparing the market world: positions'))).toHaveLength(
      3,
    );
  });

  it('takes a preparation that stops talking for a stuck service: killed and started again', async () => {
    const { service, states } = start(standIn('hangs', { steps: 1, stepMs: 50, hang: true }), {
      // Room for a loaded machine to start the stand-in; its preparation then stays silent for good.
      startTimeoutMs: 3_000,
    });
    await service.start();
    await vi.waitFor(
      () =>
        expect(states.some((s) => /The local service stopped \(signal SIGKILL\)/.test(s.message ?? ''))).toBe(
          true,
        ),
      { timeout: 20_000 },
    );
    expect(states.some((s) => s.state === 'ready')).toBe(false);
  }, 30_000);
});
