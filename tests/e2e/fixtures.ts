import { test as base, expect, type BrowserContext, type ConsoleMessage } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWebShell } from '../support/web-shell';
import { watchClippedCells } from './clipped-cells';

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

/**
 * The addresses of terminals a test has stopped. A page left open on one fails to reach it and
 * Chromium logs each failed request and WebSocket as a console error: the test's doing, not the
 * page's, so the console guard leaves out messages about a stopped terminal's address.
 */
const stoppedOrigins = new Set<string>();

/** Stops a terminal and waits for it (and its local service) to exit. */
export async function stopTerminal(terminal: Terminal, removeData = true): Promise<void> {
  stoppedOrigins.add(new URL(terminal.url).origin);
  if (terminal.process.exitCode === null) {
    const exited = new Promise((resolve) => terminal.process.once('exit', resolve));
    terminal.process.kill('SIGTERM');
    await exited;
  }
  if (removeData) rmSync(terminal.dataDir, { recursive: true, force: true });
}

/** Every console error and uncaught page error of a browser context, as sentences. */
export interface ConsoleGuard {
  readonly problems: readonly string[];
  /** Stops recording (at the end of the test). */
  close(): void;
}

const describeMessage = (message: ConsoleMessage): string => {
  const { url, lineNumber } = message.location();
  return `console error: ${message.text()}${url ? ` (${url}:${lineNumber})` : ''}`;
};

/** True for a message about a terminal the test stopped (a request or WebSocket that found it gone). */
const aboutStoppedTerminal = (message: ConsoleMessage): boolean => {
  const { url } = message.location();
  return [...stoppedOrigins].some(
    (origin) => url.startsWith(`${origin}/`) || message.text().includes(`${origin}/`),
  );
};

/**
 * Records `context`'s console errors (CSP refusals, failed loads, console.error) and uncaught page
 * errors, leaving out only failures to reach a terminal the test stopped (`stopTerminal`).
 */
export function watchConsole(context: BrowserContext): ConsoleGuard {
  const problems: string[] = [];
  let open = true;
  context.on('console', (message) => {
    if (open && message.type() === 'error' && !aboutStoppedTerminal(message))
      problems.push(describeMessage(message));
  });
  context.on('weberror', (error) => {
    if (open) problems.push(`page error: ${error.error().stack ?? error.error().message}`);
  });
  return { problems, close: () => (open = false) };
}

/**
 * Each test gets its own terminal (data folder, local service, keychain items), and fails on any
 * console error or page error its pages logged (docs/testing.md). The guard closes before the
 * fixture's terminal stops at teardown, so only what happened during the test counts.
 */
export const test = base.extend<{ terminal: Terminal; consoleGuard: ConsoleGuard; clipGuard: void }>({
  // Fails a test whose pages showed a table cell clipping its text (clipped-cells.ts).
  clipGuard: [
    async ({ context }, use) => {
      const watch = await watchClippedCells(context);
      await use();
      const clipped = await watch.clipped();
      expect(
        clipped.map((c) => `${c.table} / ${c.column}: "${c.text}" needs ${c.needs}px, has ${c.room}px`),
        'table cells clipped their text',
      ).toEqual([]);
    },
    { auto: true },
  ],
  consoleGuard: [
    async ({ context }, use) => {
      const guard = watchConsole(context);
      await use(guard);
      guard.close();
      expect(guard.problems, 'the pages logged console errors or page errors').toEqual([]);
    },
    { auto: true },
  ],
  terminal: async ({ consoleGuard }, use) => {
    const terminal = await startTerminal();
    await use(terminal);
    consoleGuard.close();
    await stopTerminal(terminal);
  },
});

export { expect };
