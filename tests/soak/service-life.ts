// The local service as the soak runs it: its own process on one database file, started, killed
// without warning (SIGKILL) and started again, as a crash or a power cut would.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { OFFLINE_VENUE_ENV } from '../support/offline-venue';

export interface ServiceLife {
  url: string;
  pid: number;
  startedAtMs: number;
  /** Resolves once the process has exited, however it ended. */
  exited: Promise<void>;
}

type Child = ChildProcessByStdio<null, Readable, Readable>;

/**
 * Starts the service on `dbPath` and resolves with its URL once it listens. It is the real CLI,
 * started as the terminal starts it (node directly, so the pid is the service's own and its RSS
 * is the service's). `args` are added to the command line.
 */
export async function startService(dbPath: string, args: readonly string[]): Promise<ServiceLife> {
  const child: Child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/service/cli.ts', '--db', dbPath, '--port', '0', ...args],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...OFFLINE_VENUE_ENV, ...process.env } },
  );
  const tail: string[] = [];
  const keep = (chunk: Buffer) => {
    tail.push(chunk.toString());
    if (tail.length > 40) tail.shift();
  };
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the service did not listen in 120 s:\n${tail.join('')}`)),
      120_000,
    );
    // Read until it is ready; what it prints after goes only to the tail.
    let output: string | null = '';
    child.stdout.on('data', (chunk: Buffer) => {
      keep(chunk);
      if (output === null) return;
      output += chunk.toString();
      const match = /listening on (http:\/\/[\d.:]+)/.exec(output);
      // A first start listens before it has prepared its data (docs/service.md): wait for that too.
      const prepared = !/preparing its data/.test(output) || /prepared its data in/.test(output);
      if (match?.[1] && prepared) {
        clearTimeout(timer);
        output = null;
        resolve(match[1]);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the service exited (${code ?? signal}) before it listened:\n${tail.join('')}`));
    });
  });
  return { url, pid: child.pid ?? 0, startedAtMs: Date.now(), exited };
}

/** Kills the service at once, with no chance to finish what it was doing, and waits for the end. */
export async function killService(life: ServiceLife): Promise<void> {
  try {
    process.kill(life.pid, 'SIGKILL');
  } catch {
    // Already gone: the wait below returns at once.
  }
  await life.exited;
}

/** The process's resident set size in MiB (Linux), or null when it has gone. */
export function rssMiB(pid: number): number | null {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}
