import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { OFFLINE_VENUE_ENV } from './offline-venue';

/** A local service started as its own process, and its URL once it listens. */
export interface ServiceProcess {
  child: ChildProcessByStdio<null, Readable, null>;
  /** Resolves with the service's URL once it listens; rejects if the process exits first. */
  url: Promise<string>;
}

/**
 * The local service on `dbPath` as its own process, as the terminal runs it: an ephemeral port,
 * no seeding; `args` are added to the command line, `nodeArgs` to Node's (e.g. `--cpu-prof`).
 * The child is returned at once so that the caller can track it for clean-up before it listens.
 */
export function spawnServiceProcess(
  dbPath: string,
  args: readonly string[] = [],
  nodeArgs: readonly string[] = [],
): ServiceProcess {
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', 'src/service/cli.ts', '--db', dbPath, '--port', '0', '--empty', ...args],
    // Were a caller to turn the venue feed on, it would reach no venue unless told where (flags).
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...OFFLINE_VENUE_ENV, ...process.env } },
  );
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      const match = /listening on (http:\/\/[\d.:]+)/.exec(chunk.toString());
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`service exited ${code}`)));
  });
  return { child, url };
}
