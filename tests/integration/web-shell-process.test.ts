// The web shell as a process of its own (run from source), with its real core and local service:
// no request ends it, and one data folder has one terminal. A second web shell, or a second core,
// on the same folder refuses; a web shell killed with SIGKILL takes its local service with it,
// and its folder can be used again at once.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startCore } from '../../src/main/core/core';
import { WEB_TOKEN_HEADER } from '../../src/shared';
import { isolatedKeychain, requireKeychainSession } from '../support/keychain';
import { rawRequest } from '../support/raw-http';
import { startWebShell, WEB_SHELL_SOURCE, type WebShell } from '../support/web-shell';

const ARGS = ['--world', 'empty', '--static'];
const dataDir = mkdtempSync(join(tmpdir(), 'copydesk-one-terminal-'));
const { service: keychainService, store } = isolatedKeychain();
let shell: WebShell;
const origin = () => new URL(shell.url).origin;
const token = () => new URL(shell.url).searchParams.get('token') ?? '';

const start = () => startWebShell(dataDir, keychainService, ARGS, 60_000, {}, WEB_SHELL_SOURCE);

/** The local service a process started: its child that serves on a port. */
function servicePidOf(parent: number): number | null {
  try {
    const found = execFileSync('pgrep', ['-P', String(parent), '-f', '--', '--port 0'])
      .toString()
      .trim();
    return found ? Number(found.split('\n')[0]) : null;
  } catch {
    return null; // pgrep exits 1 when nothing matches
  }
}

/** Whether the process runs (an exited one not yet reaped by its new parent counts as gone). */
function alive(pid: number): boolean {
  try {
    // Linux: the state after the command's closing parenthesis; Z is a zombie.
    if (/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))) return false;
  } catch {
    // no /proc (macOS), or the process is gone: the signal below decides
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  requireKeychainSession();
  shell = await start();
  await vi.waitFor(() => expect(shell.output()).toContain('local service ready'), { timeout: 60_000 });
}, 90_000);
afterAll(() => {
  if (shell.child.exitCode === null) shell.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the web shell process', () => {
  it('answers malformed requests and stays up for the next one', async () => {
    expect(await rawRequest(origin(), ['GET /%ZZ HTTP/1.1'])).toBe(400);
    expect(await rawRequest(origin(), ['GET //[ HTTP/1.1'])).toBe(400);
    expect(
      await rawRequest(origin(), ['POST /ipc/%ZZ HTTP/1.1', `${WEB_TOKEN_HEADER}: ${token()}`], '{}'),
    ).toBe(400);
    const info = await fetch(`${origin()}/ipc/app:info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [WEB_TOKEN_HEADER]: token() },
      body: '{}',
    });
    expect(info.status).toBe(200);
    expect(shell.child.exitCode).toBeNull();
  });
});

describe('one terminal per data folder', () => {
  it('refuses a second web shell on the same folder, which starts no service', async () => {
    await expect(start()).rejects.toThrow(
      /exited \(1\)[\s\S]*Copydesk is already running on the data folder/,
    );
    expect(servicePidOf(shell.child.pid ?? 0)).not.toBeNull();
  });

  it('refuses a second core on the same folder', async () => {
    await expect(
      startCore({ dataDir, shell: 'web', secrets: store, appVersion: '0.0.0-test', ephemeralKeychain: true }),
    ).rejects.toThrow(/Copydesk is already running on the data folder/);
  });

  it('ends the local service of a web shell killed with SIGKILL, and frees the folder', async () => {
    const service = servicePidOf(shell.child.pid ?? 0);
    expect(service).not.toBeNull();
    const exited = new Promise((done) => shell.child.once('exit', done));
    shell.child.kill('SIGKILL');
    await exited;
    await vi.waitFor(() => expect(alive(service ?? 0)).toBe(false), { timeout: 5_000, interval: 100 });
    // The lock the killed shell left names a process that is gone: the next start takes it over.
    shell = await start();
    expect(shell.child.exitCode).toBeNull();
  }, 90_000);
});
