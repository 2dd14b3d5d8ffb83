import { readFileSync } from 'node:fs';
import { spawnServiceProcess } from '../support/service-process';

export interface BenchService {
  url: string;
  /** utime + stime of the service process so far, from /proc (Linux; 0 elsewhere). */
  cpuMs: () => number;
  stop: () => Promise<void>;
}

/**
 * The local service on `dbPath` as its own process, as the terminal runs it (so the load generator
 * or the core does not share its thread): an ephemeral port, no seeding, no rate limit to speak of.
 */
export async function startService(dbPath: string, args: readonly string[] = []): Promise<BenchService> {
  const { child, url: listening } = spawnServiceProcess(dbPath, ['--rate-limit', '10000000', ...args]);
  const url = await listening;
  return {
    url,
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
