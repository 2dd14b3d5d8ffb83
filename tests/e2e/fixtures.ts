import { test as base, expect } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWebShell } from '../support/web-shell';

export interface Terminal {
  url: string;
  dataDir: string;
  keychainService: string;
  process: ChildProcess;
}

/**
 * Starts the built web shell (`node out/main/web.js`) with its own data folder and keychain items.
 * Its venue feed reaches no venue (a closed port on 127.0.0.1) unless `env` points it at a fake
 * one (`venueEnv(fake)` from tests/support/offline-venue.ts).
 */
export async function startTerminal(
  dataDir = mkdtempSync(join(tmpdir(), 'copydesk-e2e-')),
  keychainService = `Copydesk e2e ${randomUUID()}`,
  env: Record<string, string> = {},
): Promise<Terminal> {
  mkdirSync(dataDir, { recursive: true });
  const { url, child } = await startWebShell(dataDir, keychainService, ['--world', 'fixture'], 30_000, env);
  return { url, dataDir, keychainService, process: child };
}

/** Stops a terminal and waits for it (and its local service) to exit. */
export async function stopTerminal(terminal: Terminal, removeData = true): Promise<void> {
  if (terminal.process.exitCode === null) {
    const exited = new Promise((resolve) => terminal.process.once('exit', resolve));
    terminal.process.kill('SIGTERM');
    await exited;
  }
  if (removeData) rmSync(terminal.dataDir, { recursive: true, force: true });
}

/** Each test gets its own terminal: data folder, local service, keychain items. */
export const test = base.extend<{ terminal: Terminal }>({
  // Playwright requires the fixture's first argument to be an object pattern.
  // eslint-disable-next-line no-empty-pattern
  terminal: async ({}, use) => {
    const terminal = await startTerminal();
    await use(terminal);
    await stopTerminal(terminal);
  },
});

export { expect };
