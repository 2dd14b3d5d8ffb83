import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('logUnhandledRejections', () => {
  it('keeps the process alive through a rejection nothing handles, and logs it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'copydesk-faults-'));
    try {
      const script = join(dir, 'rejects.ts');
      const module = resolve('src/node/process-faults.ts');
      writeFileSync(
        script,
        [
          `import { logUnhandledRejections } from ${JSON.stringify(module)};`,
          'logUnhandledRejections();',
          "void Promise.reject(new Error('nobody awaited this'));",
          "setTimeout(() => console.log('still running'), 100);",
        ].join('\n'),
      );
      const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' });
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('still running');
      expect(run.stderr).toContain('nobody awaited this');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
