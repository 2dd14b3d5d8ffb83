// The local service's lifecycle with stand-in processes: restarts with a growing wait after it
// dies, giving up after quick failures in a row, no restart after stop(), none after a first
// start that fails. (core-profiles.test.ts kills the real service and sees it come back.)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { CoreEvents } from '../../src/main/core/events';
import { LocalServiceProcess } from '../../src/main/core/local-service/service-process';
import type { EventPayload } from '../../src/shared';

const dir = mkdtempSync(join(tmpdir(), 'copydesk-lifecycle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in service: prints the ready line (or not), then lives `lifeMs` (forever when null). */
function standIn(name: string, options: { ready: boolean; lifeMs: number | null; stderr?: string }): string {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(
    file,
    [
      options.stderr ? `console.error(${JSON.stringify(options.stderr)});` : '',
      options.ready
        ? `console.log('Copydesk local service listening on http://127.0.0.1:' + (40000 + process.pid % 1000));`
        : '',
      options.lifeMs === null
        ? 'setInterval(() => {}, 1000);'
        : `setTimeout(() => process.exit(3), ${options.lifeMs});`,
    ].join('\n'),
  );
  return file;
}

function watch() {
  const events = new CoreEvents();
  const states: EventPayload<'service:state'>[] = [];
  events.on('service:state', (s) => states.push(s));
  return { events, states };
}

describe('LocalServiceProcess', () => {
  it('restarts a service that dies, waiting longer each time, and gives up after quick failures in a row', async () => {
    const { events, states } = watch();
    const service = new LocalServiceProcess({
      dbPath: join(dir, 'unused.db'),
      events,
      command: [standIn('dies', { ready: true, lifeMs: 30, stderr: 'disk on fire' })],
      restart: { baseDelayMs: 10, maxDelayMs: 30, maxQuickFailures: 3, quickMs: 60_000 },
    });
    const urls: string[] = [];
    service.onUrl((url) => urls.push(url));
    expect(await service.start()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await vi.waitFor(() => expect(states.at(-1)?.state).toBe('failed'), { timeout: 10_000 });
    expect(states.filter((s) => s.state === 'ready')).toHaveLength(4);
    expect(urls).toHaveLength(4);
    const restarts = states.filter((s) => s.message?.includes('restarting it in'));
    expect(restarts.map((s) => s.message)).toEqual([
      'The local service stopped (code 3); restarting it in 10 ms…',
      'The local service stopped (code 3); restarting it in 20 ms…',
      'The local service stopped (code 3); restarting it in 30 ms…',
    ]);
    expect(states.at(-1)).toEqual({
      state: 'failed',
      url: null,
      message:
        'The local service stopped (code 3): it failed 4 times in a row within 60 s of starting, so Copydesk stopped restarting it. Restart Copydesk to try again. Its last output: disk on fire',
    });
    expect(service.pid).toBeNull();
    await service.stop();
  });

  it('does not restart a service it stopped', async () => {
    const { events, states } = watch();
    const service = new LocalServiceProcess({
      dbPath: join(dir, 'unused.db'),
      events,
      command: [standIn('lives', { ready: true, lifeMs: null })],
      restart: { baseDelayMs: 10 },
    });
    await service.start();
    expect(service.pid).toBeGreaterThan(0);
    await service.stop();
    expect(states.map((s) => s.state)).toEqual(['starting', 'ready', 'stopped']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(states.map((s) => s.state)).toEqual(['starting', 'ready', 'stopped']);
  });

  it('reports a first start that fails, and does not retry it', async () => {
    const { events, states } = watch();
    const service = new LocalServiceProcess({
      dbPath: join(dir, 'unused.db'),
      events,
      command: [standIn('never', { ready: false, lifeMs: 10, stderr: 'cannot open the database' })],
      restart: { baseDelayMs: 10 },
    });
    await expect(service.start()).rejects.toThrow(/exited with code 3: cannot open the database/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(states.map((s) => s.state)).toEqual(['starting', 'failed']);
  });

  it('reads the ready line whole when it arrives in pieces', async () => {
    const { events } = watch();
    const file = join(dir, 'pieces.mjs');
    // Two writes with a pause between: the reader sees two chunks, the first ending mid-URL.
    writeFileSync(
      file,
      [
        "process.stdout.write('Copydesk local service listening on http://127.0.0.1:4');",
        "setTimeout(() => process.stdout.write('1234 (database x)\\n'), 200);",
        'setInterval(() => {}, 1000);',
      ].join('\n'),
    );
    const service = new LocalServiceProcess({ dbPath: join(dir, 'unused.db'), events, command: [file] });
    expect(await service.start()).toBe('http://127.0.0.1:41234');
    await service.stop();
  });

  it('gives up on a start that stays silent, quoting its last output', async () => {
    const { events, states } = watch();
    const file = join(dir, 'silent.mjs');
    writeFileSync(
      file,
      [
        "console.log('progress: positions 40%');",
        "console.error('waiting for a lock');",
        'setInterval(() => {}, 1000);',
      ].join('\n'),
    );
    const service = new LocalServiceProcess({
      dbPath: join(dir, 'unused.db'),
      events,
      command: [file],
      startTimeoutMs: 500,
    });
    const failure = await service.start().then(
      () => new Error('it started'),
      (error: Error) => error,
    );
    expect(failure.message).toMatch(/^the local service did not become ready \(no output for 500 ms\): /);
    expect(failure.message).toContain('progress: positions 40%');
    expect(failure.message).toContain('waiting for a lock');
    expect(states.at(-1)).toMatchObject({ state: 'failed' });
    await vi.waitFor(() => expect(service.pid).toBeNull());
  });
});
