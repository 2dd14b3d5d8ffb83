// The core restarting the local service with other flags (the user changed its data sources), with
// stand-in processes that record their command line: the old process ends, the new one runs with
// the new flags on a new port, calls made meanwhile wait for it, and none of it counts as a crash.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CoreEvents } from '../../src/main/core/events';
import { LocalServiceProcess } from '../../src/main/core/local-service/service-process';
import type { EventPayload } from '../../src/shared';
import { processExists } from '../support/processes';

const dir = mkdtempSync(join(tmpdir(), 'copydesk-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A stand-in service: after `delayMs` it writes its flags to `<pid>.json`, prints the ready line
 * on a port of its own, and lives until it is stopped.
 */
function standIn(delayMs = 0): string {
  const file = join(dir, `stand-in-${delayMs}.mjs`);
  writeFileSync(
    file,
    [
      `import { writeFileSync } from 'node:fs';`,
      `setTimeout(() => {`,
      `  writeFileSync(${JSON.stringify(dir)} + '/' + process.pid + '.json', JSON.stringify(process.argv.slice(2)));`,
      `  console.log('Copydesk local service listening on http://127.0.0.1:' + (40000 + process.pid % 20000));`,
      `}, ${delayMs});`,
      'setInterval(() => {}, 1000);',
    ].join('\n'),
  );
  return file;
}

const flagsOf = (pid: number): string[] =>
  JSON.parse(readFileSync(join(dir, `${pid}.json`), 'utf8')) as string[];

function service(delayMs = 0) {
  const events = new CoreEvents();
  const states: EventPayload<'service:state'>[] = [];
  events.on('service:state', (s) => states.push(s));
  const process = new LocalServiceProcess({
    dbPath: join(dir, 'service.db'),
    events,
    command: [standIn(delayMs)],
    args: ['--demo', '--live', '--feed', 'hyperliquid'],
    restart: { baseDelayMs: 10 },
  });
  return { process, states };
}

describe('LocalServiceProcess.restart', () => {
  it('runs the service again with the new flags, on a new port, and it is not taken for a crash', async () => {
    const { process: local, states } = service();
    const urls: string[] = [];
    local.onUrl((url) => urls.push(url));
    const first = await local.start();
    const firstPid = local.pid as number;
    expect(flagsOf(firstPid)).toEqual([
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--db',
      join(dir, 'service.db'),
      '--demo',
      '--live',
      '--feed',
      'hyperliquid',
    ]);

    const second = await local.restart(['--empty', '--feed', 'hyperliquid'], 'Restarting with new sources…');
    const secondPid = local.pid as number;
    expect(secondPid).not.toBe(firstPid);
    expect(processExists(firstPid)).toBe(false);
    expect(flagsOf(secondPid).slice(6)).toEqual(['--empty', '--feed', 'hyperliquid']);
    expect(local.currentArgs).toEqual(['--empty', '--feed', 'hyperliquid']);
    expect(second).not.toBe(first);
    expect(local.url).toBe(second);
    expect(urls).toEqual([first, second]);
    await expect(local.ready()).resolves.toBe(second);

    // Starting, ready, then the restart's own message: no crash, no wait, no "stopped".
    expect(states.map((s) => [s.state, s.message])).toEqual([
      ['starting', 'Starting the local service…'],
      ['ready', null],
      ['starting', 'Restarting with new sources…'],
      ['ready', null],
    ]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(states).toHaveLength(4);
    expect(local.pid).toBe(secondPid);
    await local.stop();
    expect(processExists(secondPid)).toBe(false);
  });

  it('makes calls made during the restart wait for the new start', async () => {
    const { process: local } = service(300);
    const first = await local.start();
    const restarted = local.restart(['--empty']);
    // At once: ready() is the new start, not the finished first one.
    const waited = local.ready();
    const url = await waited;
    expect(url).toBe(await restarted);
    expect(url).not.toBe(first);
    await local.stop();
  });

  it('waits for a first start under way (seeding must not be cut short), and restarts one at a time', async () => {
    const { process: local } = service(300);
    const starting = local.start();
    const a = local.restart(['--empty']);
    const b = local.restart(['--empty', '--feed', 'hyperliquid']);
    const [first, second, third] = await Promise.all([starting, a, b]);
    expect(new Set([first, second, third]).size).toBe(3);
    expect(flagsOf(local.pid as number).slice(6)).toEqual(['--empty', '--feed', 'hyperliquid']);
    await local.stop();
  });

  it('refuses to restart a service that was stopped', async () => {
    const { process: local, states } = service();
    await local.start();
    await local.stop();
    await expect(local.restart(['--empty'])).rejects.toThrow(/stopped/);
    expect(states.map((s) => s.state)).toEqual(['starting', 'ready', 'stopped']);
  });
});
