import { readFileSync } from 'node:fs';
import { spawnServiceProcess } from '../support/service-process';

export interface BenchService {
  url: string;
  /** The service's process id (its CPU profile's file is named by it). */
  pid: number;
  /** Seconds since the process was spawned (its CPU profile's clock, near enough). */
  sinceStartS: () => number;
  /** utime + stime of the service process so far, from /proc (Linux; 0 elsewhere). */
  cpuMs: () => number;
  stop: () => Promise<void>;
}

/**
 * The local service on `dbPath` as its own process, as the terminal runs it (so the load generator
 * or the core does not share its thread): an ephemeral port, no seeding, no rate limit to speak of.
 */
export async function startService(
  dbPath: string,
  args: readonly string[] = [],
  { nodeArgs = [] }: { nodeArgs?: readonly string[] } = {},
): Promise<BenchService> {
  const spawnedMs = performance.now();
  const { child, url: listening } = spawnServiceProcess(
    dbPath,
    ['--rate-limit', '10000000', '--search-budget', '10000000', ...args],
    nodeArgs,
  );
  const url = await listening;
  return {
    url,
    pid: child.pid!,
    sinceStartS: () => (performance.now() - spawnedMs) / 1000,
    cpuMs: () => {
      try {
        const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
        return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
      } catch {
        return 0;
      }
    },
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * Waits until the service's CPU has stayed under `idleShare` of one core for `quietMs` (what it
 * does after listening, such as its statistics index's warm-up, has ended), at most `maxMs`:
 * how long that took and the CPU the service spent meanwhile.
 */
export async function untilSettled(
  service: BenchService,
  { idleShare = 0.05, quietMs = 1000, maxMs = 300_000 } = {},
): Promise<{ waitedMs: number; cpuMs: number }> {
  const started = performance.now();
  const cpuAtStart = service.cpuMs();
  let last = cpuAtStart;
  while (performance.now() - started < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, quietMs));
    const now = service.cpuMs();
    const busy = now - last;
    last = now;
    if (busy <= idleShare * quietMs) break;
  }
  return { waitedMs: performance.now() - started, cpuMs: service.cpuMs() - cpuAtStart };
}
