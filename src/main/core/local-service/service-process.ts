import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CoreEvents } from '../events';

export interface ServiceProcessOptions {
  dbPath: string;
  events: CoreEvents;
  /** The Node to run the service with; the Electron shell passes its own binary with ELECTRON_RUN_AS_NODE. */
  execPath?: string;
  env?: NodeJS.ProcessEnv;
  /** Extra service flags (e.g. --service-name). */
  args?: string[];
}

const READY_LINE = /listening on (http:\/\/127\.0\.0\.1:\d+)/;
const PROGRESS_LINE = /^progress: (\w+) (\d+)%/gm;

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
 * The local service as a child process on a free port of 127.0.0.1. Resolves with its base URL
 * once it prints its ready line; reports its state as `service:state` events.
 */
export class LocalServiceProcess {
  private child: ChildProcess | null = null;
  private stopping = false;
  url: string | null = null;

  constructor(private readonly options: ServiceProcessOptions) {}

  async start(): Promise<string> {
    const { events } = this.options;
    events.emit('service:state', { state: 'starting', url: null, message: 'Starting the local service…' });
    const args = [
      ...serviceCommand(),
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--db',
      this.options.dbPath,
      ...(this.options.args ?? []),
    ];
    const child = spawn(this.options.execPath ?? process.execPath, args, {
      env: { ...process.env, ...this.options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.url = await new Promise<string>((resolveUrl, reject) => {
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
      child.stdout?.on('data', (chunk: Buffer) => {
        const text = chunk.toString();
        // Seeding the demo world on first run takes a while: pass its progress on.
        const progress = [...text.matchAll(PROGRESS_LINE)].at(-1);
        if (progress)
          events.emit('service:state', {
            state: 'starting',
            url: null,
            message: `Preparing the market world: ${progress[1]} ${progress[2]}%`,
          });
        const match = READY_LINE.exec(text);
        if (match?.[1]) resolveUrl(match[1]);
      });
      child.once('exit', (code) =>
        reject(new Error(`the local service exited with code ${code}: ${stderr.trim() || 'no output'}`)),
      );
      child.once('error', reject);
    }).catch((error: Error) => {
      events.emit('service:state', { state: 'failed', url: null, message: error.message });
      throw error;
    });
    child.once('exit', (code) => {
      if (!this.stopping)
        events.emit('service:state', {
          state: 'failed',
          url: null,
          message: `The local service stopped (code ${code}).`,
        });
    });
    events.emit('service:state', { state: 'ready', url: this.url, message: null });
    return this.url;
  }

  /** Stops the service and waits for it to exit. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    this.stopping = true;
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    this.options.events.emit('service:state', { state: 'stopped', url: null, message: null });
  }
}
