import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { PARENT_PID_ENV } from '../../../node/parent-watch';
import type { CoreEvents } from '../events';
import { OutputTail } from './output-tail';

/** When the service is started again after it died, and when the core gives up. */
export interface RestartPolicy {
  /** An exit within this long of becoming ready counts as a quick failure. */
  quickMs: number;
  /** Quick failures in a row after which the core stops restarting it. */
  maxQuickFailures: number;
  /** Wait before the first restart; doubles with each quick failure. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  quickMs: 60_000,
  maxQuickFailures: 5,
  baseDelayMs: 1_000,
  maxDelayMs: 15_000,
};

export interface ServiceProcessOptions {
  dbPath: string;
  events: CoreEvents;
  /** The Node to run the service with; the Electron shell passes its own binary with ELECTRON_RUN_AS_NODE. */
  execPath?: string;
  env?: NodeJS.ProcessEnv;
  /** Extra service flags (e.g. --service-name). */
  args?: string[];
  /** The service command before its flags; default: the built service or its source through tsx. */
  command?: string[];
  restart?: Partial<RestartPolicy>;
  /**
   * How long a start may go without a line of output before its ready line (default 120 s): the
   * first start seeds the demo world for a while, printing its progress as it goes.
   */
  startTimeoutMs?: number;
}

const READY_LINE = /listening on (http:\/\/127\.0\.0\.1:\d+)/;
/**
 * A first start listens at once and prepares its data after (docs/service.md, Listening while
 * preparing): its ready line ends with these words, and a later line says it is done.
 */
const PREPARING_MARK = /, preparing its data$/;
const PREPARED_LINE = /prepared its data in/;
const PROGRESS_LINE = /^progress: (\w+) (\d+)%/;
const START_TIMEOUT_MS = 120_000;
/** How long `create-api-key` may take (it opens the database, which may be migrating). */
const API_KEY_TIMEOUT_MS = 60_000;

/**
 * How to run the service: the built `service.js` beside this bundle when there is one,
 * else the TypeScript source through tsx (development and tests).
 */
function serviceCommand(): string[] {
  const here = dirname(fileURLToPath(import.meta.url));
  // The bundler may put this code in out/main or in a chunk folder below it.
  const built = [join(here, 'service.js'), join(here, '..', 'service.js')].find((file) => existsSync(file));
  if (built) return [built];
  const source = resolve(here, '../../../service/cli.ts');
  return ['--import', 'tsx', source];
}

/**
 * The local service as a child process on a free port of 127.0.0.1 (`--port 0`: the system picks
 * one, and the URL is read from the service's ready line). Reports its state as `service:state`
 * events; when it dies after having started it is started again with a growing wait, until it
 * has failed `maxQuickFailures` times in a row within `quickMs` of starting. Stopped at quit, and
 * killed if the core's own process exits without stopping it.
 */
export class LocalServiceProcess {
  private child: ChildProcess | null = null;
  private keyMakers = new Set<ChildProcess>();
  private stopping = false;
  private quickFailures = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  private readonly policy: RestartPolicy;
  private readonly urlListeners = new Set<(url: string) => void>();
  /** The flags after the common ones; `restart` replaces them. */
  private args: string[];
  /** The latest start (the first, or a restart the core asked for): resolves with its URL. */
  private starting: Promise<string> | null = null;
  /** The latest start's data preparation: resolves once it is done (or the start failed). */
  private preparing: Promise<void> = Promise.resolve();
  /** Counts the core's restarts: a crash restart from before one must not go on after it. */
  private generation = 0;
  url: string | null = null;

  constructor(private readonly options: ServiceProcessOptions) {
    this.policy = { ...DEFAULT_RESTART_POLICY, ...options.restart };
    this.args = [...(options.args ?? [])];
  }

  /** The flags it runs with now (after the port and database). */
  get currentArgs(): readonly string[] {
    return this.args;
  }

  /** The running service's process id, or null. */
  get pid(): number | null {
    const child = this.child;
    return child && child.exitCode === null && child.signalCode === null ? (child.pid ?? null) : null;
  }

  /** Calls `listener` with the URL each time the service is ready (a restart has a new port). */
  onUrl(listener: (url: string) => void): () => void {
    this.urlListeners.add(listener);
    return () => this.urlListeners.delete(listener);
  }

  /** Starts the service; resolves with its URL. A first start that fails is not retried. */
  start(): Promise<string> {
    this.starting = this.reported(this.spawnOnce('Starting the local service…'));
    return this.starting;
  }

  /**
   * The latest start the core asked for (the first, or `restart`): resolves with the URL once it
   * is ready, rejects when it failed. Calls made during a restart wait here for the new port.
   */
  ready(): Promise<string> {
    return this.starting ?? Promise.reject(new Error('the local service was not started'));
  }

  /**
   * Resolves once the latest start is done preparing its data (at once for a service that had
   * none to prepare), or once that start ended without; `ready()` says whether it succeeded.
   */
  prepared(): Promise<void> {
    return this.preparing;
  }

  /**
   * Stops the service and starts it again with `args` (the user changed its data sources). Waits
   * for a start under way first, its data preparation included (the first start may be seeding
   * the demo world, which must not be cut short), then stops the running process (not counted as a failure, not restarted by
   * the crash policy) and starts the new one on a new free port; `ready()` answers the new start
   * from the moment this is called. Resolves with the new URL.
   */
  restart(args: readonly string[], message = 'Restarting the local service…'): Promise<string> {
    if (this.stopping) return Promise.reject(new Error('the local service was stopped'));
    const before = this.starting ?? Promise.resolve('');
    const beforePrepared = this.preparing;
    this.starting = this.reported(
      (async () => {
        await before.catch(() => undefined);
        await beforePrepared;
        if (this.stopping) throw new Error('the local service was stopped');
        if (this.restartTimer) clearTimeout(this.restartTimer);
        this.restartTimer = null;
        this.generation += 1;
        this.args = [...args];
        this.quickFailures = 0;
        await this.stopChild();
        if (this.stopping) throw new Error('the local service was stopped');
        return this.spawnOnce(message);
      })(),
    );
    return this.starting;
  }

  /** Stops the service (and any restart due) and waits for it to exit. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    for (const maker of this.keyMakers) maker.kill('SIGTERM');
    if (await this.stopChild()) this.emit('stopped', null);
  }

  /** Ends the running process (SIGTERM, SIGKILL after 5 s); true when there was one to end. */
  private async stopChild(): Promise<boolean> {
    const child = this.child;
    // Forgotten first, so that its exit is not taken for a crash.
    this.child = null;
    this.url = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return false;
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    return true;
  }

  /** A start whose failure is reported as a `failed` event (once, to everyone). */
  private reported(start: Promise<string>): Promise<string> {
    return start.catch((error: unknown) => {
      if (!this.stopping) this.emit('failed', (error as Error).message);
      throw error;
    });
  }

  /** Creates an API key for the service's database with its command line; resolves with the key. */
  createApiKey(): Promise<string> {
    const args = [
      ...(this.options.command ?? serviceCommand()),
      'create-api-key',
      '--db',
      this.options.dbPath,
      '--label',
      'Copydesk terminal',
    ];
    return new Promise<string>((resolveKey, reject) => {
      const maker = spawn(this.options.execPath ?? process.execPath, args, {
        env: { ...process.env, ...this.options.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      this.keyMakers.add(maker);
      let out = '';
      let err = '';
      maker.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
      maker.stderr?.on('data', (chunk: Buffer) => (err = (err + chunk.toString()).slice(-2000)));
      const timer = setTimeout(() => maker.kill('SIGKILL'), API_KEY_TIMEOUT_MS);
      maker.once('error', reject);
      maker.once('close', (code) => {
        clearTimeout(timer);
        this.keyMakers.delete(maker);
        // The key is the last line; the service keeps only its hash, so it is shown once.
        const key = out.trim().split('\n').at(-1)?.trim() ?? '';
        if (code === 0 && /^\S{16,}$/.test(key)) resolveKey(key);
        else reject(new Error(`create-api-key exited with code ${code}: ${err.trim() || 'no output'}`));
      });
    });
  }

  /**
   * Spawns the service once; resolves with its URL at its ready line, rejects if it exits first.
   * A service that listens while it prepares its data is `starting` until it says it is done:
   * calls reach it (what needs the data answers 503 PREPARING, which the client waits out), and
   * its progress keeps coming as `starting` events.
   */
  private spawnOnce(startingMessage: string): Promise<string> {
    let prepared = (): void => undefined;
    this.preparing = new Promise<void>((resolve) => (prepared = resolve));
    this.emit('starting', startingMessage);
    const args = [
      ...(this.options.command ?? serviceCommand()),
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--db',
      this.options.dbPath,
      ...this.args,
    ];
    const child = spawn(this.options.execPath ?? process.execPath, args, {
      // The service ends itself when this process is gone, even killed (src/node/parent-watch.ts).
      env: { ...process.env, ...this.options.env, [PARENT_PID_ENV]: String(process.pid) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    // If the core's process ends without stop() (a crash), the service must not outlive it.
    const killOnExit = () => child.kill('SIGTERM');
    process.once('exit', killOnExit);
    const tail = new OutputTail();
    let readyAt: number | null = null;
    let preparingData = false;
    // Read line by line: a chunk of output may end inside the ready line.
    if (child.stderr) createInterface({ input: child.stderr }).on('line', (line) => tail.add(line, true));
    return new Promise<string>((resolveUrl, reject) => {
      const startTimeoutMs = this.options.startTimeoutMs ?? START_TIMEOUT_MS;
      let silence: NodeJS.Timeout | undefined;
      const waitForOutput = () => {
        clearTimeout(silence);
        silence = setTimeout(() => {
          reject(
            new Error(
              `the local service did not become ready (no output for ${duration(startTimeoutMs)}): ${tail.describe()}`,
            ),
          );
          child.kill('SIGKILL');
        }, startTimeoutMs);
      };
      waitForOutput();
      const onLine = (line: string) => {
        tail.add(line);
        if (readyAt !== null && !preparingData) return;
        // Still watched while it prepares: a preparation that stops talking is a stuck service.
        waitForOutput();
        // Seeding the demo world on first run takes a while: pass its progress on.
        const progress = PROGRESS_LINE.exec(line);
        if (progress) this.emit('starting', `Preparing the market world: ${progress[1]} ${progress[2]}%`);
        if (preparingData && PREPARED_LINE.test(line)) {
          clearTimeout(silence);
          preparingData = false;
          this.emit('ready', null);
          prepared();
          return;
        }
        const match = READY_LINE.exec(line);
        if (readyAt === null && match?.[1]) {
          readyAt = Date.now();
          this.url = match[1];
          preparingData = PREPARING_MARK.test(line);
          if (preparingData) this.emit('starting', 'Preparing the market world…');
          else {
            clearTimeout(silence);
            this.emit('ready', null);
            prepared();
          }
          for (const listener of this.urlListeners) listener(match[1]);
          resolveUrl(match[1]);
        }
      };
      if (child.stdout) createInterface({ input: child.stdout }).on('line', onLine);
      child.once('error', (error) => {
        clearTimeout(silence);
        prepared();
        reject(error);
      });
      // 'close', not 'exit': its output is read to the end first, so the report has its last words.
      child.once('close', (code, signal) => {
        clearTimeout(silence);
        prepared();
        process.off('exit', killOnExit);
        const how = signal ? `signal ${signal}` : `code ${code}`;
        if (readyAt === null) {
          reject(new Error(`the local service exited with ${how}: ${tail.describe()}`));
          return;
        }
        if (this.stopping || this.child !== child) return;
        this.url = null;
        this.child = null;
        this.died(`The local service stopped (${how})`, Date.now() - readyAt, tail.errors());
      });
    });
  }

  /** After an unexpected exit: restart with a growing wait, or give up after quick failures in a row. */
  private died(what: string, upMs: number, output: string): void {
    this.quickFailures = upMs < this.policy.quickMs ? this.quickFailures + 1 : 1;
    if (this.quickFailures > this.policy.maxQuickFailures) {
      const last = output.trim().split('\n').at(-1)?.trim();
      this.emit(
        'failed',
        `${what}: it failed ${this.quickFailures} times in a row within ${Math.round(this.policy.quickMs / 1000)} s of starting, so Copydesk stopped restarting it. Restart Copydesk to try again.${last ? ` Its last output: ${last}` : ''}`,
      );
      return;
    }
    const delay = Math.min(this.policy.baseDelayMs * 2 ** (this.quickFailures - 1), this.policy.maxDelayMs);
    this.emit('starting', `${what}; restarting it in ${duration(delay)}…`);
    const generation = this.generation;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (this.stopping || generation !== this.generation) return;
      this.spawnOnce('Restarting the local service…').catch((error: Error) => {
        if (!this.stopping && generation === this.generation)
          this.died(`The local service did not start again (${error.message})`, 0, '');
      });
    }, delay);
    this.restartTimer.unref();
  }

  private emit(state: 'starting' | 'ready' | 'stopped' | 'failed', message: string | null): void {
    this.options.events.emit('service:state', {
      state,
      url: state === 'ready' ? this.url : null,
      message,
    });
  }
}

/** `500 ms`, `15 s`: for the messages the user reads. */
function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}
