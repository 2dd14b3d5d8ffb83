import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

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
export async function startService(dbPath: string): Promise<BenchService> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/service/cli.ts',
      '--db',
      dbPath,
      '--port',
      '0',
      '--empty',
      '--rate-limit',
      '10000000',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      const match = /listening on (http:\/\/[\d.:]+)/.exec(chunk.toString());
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`service exited ${code}`)));
  });
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
