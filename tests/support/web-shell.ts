import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { OFFLINE_VENUE_ENV } from './offline-venue';

/** The web shell from its TypeScript source (no build needed; the renderer must be built). */
export const WEB_SHELL_SOURCE = ['--import', 'tsx', 'src/main/web/cli.ts'] as const;

/** A built web shell (`node out/main/web.js`) that printed its URL. */
export interface WebShell {
  /** The shell's address on 127.0.0.1, with its session token. */
  url: string;
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** Everything the shell printed so far, stdout and stderr. */
  output: () => string;
}

/**
 * Starts the built web shell on an ephemeral port with its own data folder and keychain items;
 * `args` are added to the command line. Its local service's venue feed points at a closed port
 * on 127.0.0.1 (offline-venue.ts) unless `env` names a fake venue (`venueEnv`). Resolves once it
 * prints its URL, rejects if it exits or stays silent for `timeoutMs`. Needs
 * `npx electron-vite build` first, unless `entry` runs the source (WEB_SHELL_SOURCE).
 */
export async function startWebShell(
  dataDir: string,
  keychainService: string,
  args: readonly string[],
  timeoutMs: number,
  env: Record<string, string> = {},
  entry: readonly string[] = ['out/main/web.js'],
): Promise<WebShell> {
  const child = spawn(
    process.execPath,
    [...entry, '--port', '0', '--data-dir', dataDir, '--keychain-service', keychainService, ...args],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...OFFLINE_VENUE_ENV, ...env } },
  );
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the web shell did not start:\n${output}`)), timeoutMs);
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`the web shell exited (${code}):\n${output}`)));
  });
  return { url, child, output: () => output };
}
