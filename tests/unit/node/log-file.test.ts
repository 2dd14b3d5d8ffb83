import { chmodSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { captureConsole, createFileLogger, RotatingLogFile, scrubSecrets } from '../../../src/node/log-file';

const root = () => mkdtempSync(join(tmpdir(), 'copydesk-log-'));

describe('rotating log files (docs/security.md, Logs)', () => {
  it('rotates by size and keeps a few files, each 0600 in a 0700 folder', () => {
    const dir = join(root(), 'logs');
    const file = new RotatingLogFile(dir, 'core', { maxBytes: 200, keep: 2 });
    for (let i = 0; i < 40; i++) file.write(`${JSON.stringify({ i, msg: 'a line of the log' })}\n`);
    file.close();
    expect(readdirSync(dir).sort()).toEqual(['core.log', 'core.log.1', 'core.log.2']);
    for (const name of readdirSync(dir)) {
      expect(statSync(join(dir, name)).size).toBeLessThanOrEqual(200);
      if (process.platform !== 'win32') expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
    }
    if (process.platform !== 'win32') expect(statSync(dir).mode & 0o777).toBe(0o700);
    // A log left readable by others is made 0600 when it is opened again.
    if (process.platform !== 'win32') {
      chmodSync(join(dir, 'core.log'), 0o644);
      const again = new RotatingLogFile(dir, 'core', { maxBytes: 200, keep: 2 });
      again.write('\n');
      again.close();
      expect(statSync(join(dir, 'core.log')).mode & 0o777).toBe(0o600);
    }
    // The newest line is in the current file.
    expect(readFileSync(join(dir, 'core.log'), 'utf8')).toContain('"i":39');
  });

  it('writes structured lines with the error and its cause, and never a secret', () => {
    const dir = root();
    const logger = createFileLogger(dir, 'core');
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1MSJ9.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg';
    const privateKey = `0x${'ab'.repeat(32)}`;
    const apiKey = 'cdk_0123456789abcdefghijklmnopqrstuv';
    logger.error('the withdrawal could not be recorded', {
      err: new Error('write failed', { cause: new Error('SQLITE_FULL: database or disk is full') }),
      apiKey,
      headers: { authorization: `Bearer ${jwt}` },
    });
    logger.warn(`renewing with ${jwt} and key ${apiKey} for wallet ${privateKey}`);
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const restore = captureConsole(logger);
    try {
      console.error('[copydesk core] unexpected error', new Error(`token ${jwt} refused`));
    } finally {
      restore();
      quiet.mockRestore();
    }
    logger.close();
    const text = readFileSync(join(dir, 'core.log'), 'utf8');
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({
      level: 'error',
      name: 'core',
      msg: 'the withdrawal could not be recorded',
    });
    expect(JSON.stringify(lines[0])).toContain('SQLITE_FULL: database or disk is full');
    expect(lines[2]).toMatchObject({ level: 'error', msg: '[copydesk core] unexpected error' });
    for (const secret of [jwt, privateKey, privateKey.slice(2), apiKey]) expect(text).not.toContain(secret);
  });

  it('scrubs secret-shaped text', () => {
    expect(scrubSecrets('Authorization: Bearer abc.def')).toBe('Authorization: [redacted]');
    expect(scrubSecrets('"x-api-key":"cdk_abcdefghijkl"')).not.toContain('cdk_abcdefghijkl');
    expect(scrubSecrets('plain text stays')).toBe('plain text stays');
  });

  it('scrubs every shape wherever it sits in a line, and leaves a line without one as it is', () => {
    const hex = 'a1B2c3D4e5F6'.repeat(6).slice(0, 64);
    // Hex runs at every offset: the check before the patterns probes only some characters.
    // A word boundary must come before and after the run: the padding is not a word character.
    for (let at = 0; at < 70; at += 1) {
      const pad = '.'.repeat(at);
      const line = `${pad}${hex} tail`;
      expect(scrubSecrets(line)).toBe(`${pad}[redacted] tail`);
      expect(scrubSecrets(`${pad}0x${hex}`)).toBe(`${pad}[redacted]`);
      const short = `${pad}${hex.slice(1)} tail`;
      expect(scrubSecrets(short)).toBe(short);
    }
    expect(scrubSecrets('{"X-API-KEY":"abc","IDEMPOTENCY-KEY": "k1","X-Admin-Key":"s"}')).toBe(
      '{"X-API-KEY":"[redacted]","IDEMPOTENCY-KEY": "[redacted]","X-Admin-Key":"[redacted]"}',
    );
    expect(scrubSecrets('AUTHORIZATION=Bearer t0k3n rest')).toBe('AUTHORIZATION=[redacted] rest');
    expect(scrubSecrets('token eyJhbGciOi.eyJzdWIiOi.c2lnbmF0dXJl end')).toBe('token [redacted] end');
    expect(scrubSecrets('key cdk_abcdefgh1234')).toBe('key [redacted]');
    const access =
      '{"level":30,"time":1764222222222,"reqId":"req-1a2b","method":"POST","url":"/public/NOVA_ARB/position/statistic/filter","statusCode":200,"responseTime":0.41234567,"msg":"request completed"}\n';
    expect(scrubSecrets(access)).toBe(access);
  });
});
