// Copydesk's processes stop in order when asked to by a signal (src/node/stop-signals.ts).
//
// `npm start`'s launcher chain passes a stop on to the terminal it started. npm runs the start
// script as `sh -c <script>` and, when it is itself told to stop (a supervisor, `kill`), signals
// that shell alone; the shell, scripts/start.sh and scripts/with-keychain.sh (which runs the
// terminal inside a private D-Bus session and keychain where none is running) must each hand the
// signal on, or the terminal and its local service keep running with nobody to stop them
// (docs/desktop.md, "Stopping"). A stand-in terminal replaces the real one: it writes when it
// starts and when it is told to stop.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { STOP_SIGNALS } from '../../src/node/stop-signals';
import { spawnServiceProcess } from '../support/service-process';
import { processExists } from '../support/processes';

const root = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'copydesk-launcher-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const startScript = (
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }
).scripts.start;

/** A stand-in terminal: writes its pid when started and the signal it was stopped by. */
function standInTerminal(name: string): { script: string; started: string; stopped: string } {
  const started = join(dir, `${name}.started`);
  const stopped = join(dir, `${name}.stopped`);
  const script = join(dir, `${name}.mjs`);
  writeFileSync(
    script,
    [
      `import { writeFileSync } from 'node:fs';`,
      `for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'])`,
      `  process.once(signal, () => { writeFileSync(${JSON.stringify(stopped)}, signal); process.exit(0); });`,
      `writeFileSync(${JSON.stringify(started)}, String(process.pid));`,
      `setInterval(() => {}, 1000);`,
    ].join('\n'),
  );
  return { script, started, stopped };
}

/**
 * A checkout whose scripts/start.sh runs the stand-in through the real scripts/with-keychain.sh,
 * as the real start.sh runs the web shell, started as npm starts it: `sh -c <package.json's start>`.
 */
function launch(name: string): { shell: ChildProcess; terminal: ReturnType<typeof standInTerminal> } {
  const terminal = standInTerminal(name);
  const checkout = join(dir, name);
  mkdirSync(join(checkout, 'scripts'), { recursive: true });
  writeFileSync(
    join(checkout, 'scripts', 'start.sh'),
    `exec bash ${JSON.stringify(join(root, 'scripts', 'with-keychain.sh'))} node ${JSON.stringify(terminal.script)}\n`,
  );
  const shell = spawn('sh', ['-c', startScript], {
    cwd: checkout,
    // Its own process group, so that afterEach can end whatever a failed case left running.
    detached: true,
    stdio: 'ignore',
    // No keychain is reachable here: with-keychain.sh starts its private D-Bus session.
    env: { ...process.env, COPYDESK_FORCE_EPHEMERAL_KEYCHAIN: '1' },
  });
  launched.push(shell);
  return { shell, terminal };
}
const launched: ChildProcess[] = [];
afterEach(() => {
  for (const shell of launched.splice(0)) {
    try {
      process.kill(-shell.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

describe('npm start stops when npm is told to stop', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'the shell npm started passes %s on to the terminal, which stops',
    async (signal) => {
      const { shell, terminal } = launch(signal.toLowerCase());
      await vi.waitFor(() => expect(existsSync(terminal.started)).toBe(true), {
        timeout: 20_000,
        interval: 50,
      });
      const pid = Number(readFileSync(terminal.started, 'utf8'));
      const exited = new Promise<void>((done) => shell.once('exit', () => done()));
      shell.kill(signal);
      await vi.waitFor(() => expect(existsSync(terminal.stopped)).toBe(true), {
        timeout: 10_000,
        interval: 50,
      });
      expect(readFileSync(terminal.stopped, 'utf8')).toBe(signal);
      await exited;
      await vi.waitFor(() => expect(processExists(pid)).toBe(false), { timeout: 5_000, interval: 50 });
    },
    40_000,
  );
});

describe('the local service started from a terminal', () => {
  // SIGHUP is what a closed terminal sends; it used to end the service at once, without its stop.
  it.each(STOP_SIGNALS)(
    'stops in order on %s: its stop runs and it exits 0',
    async (signal) => {
      const service = spawnServiceProcess(join(dir, `service-${signal}.db`));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
        service.child.once('exit', (code, by) => done({ code, signal: by })),
      );
      await service.url;
      service.child.kill(signal);
      expect(await exited).toEqual({ code: 0, signal: null });
    },
    40_000,
  );
});
