import { spawn } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { exitWithParent, PARENT_PID_ENV } from '../../../src/node/parent-watch';

describe('exitWithParent', () => {
  it('watches nothing without the variable', async () => {
    const orphaned = vi.fn();
    const stop = exitWithParent(orphaned, { env: {}, intervalMs: 10 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(orphaned).not.toHaveBeenCalled();
    stop();
  });

  it('goes on while its parent lives', async () => {
    const orphaned = vi.fn();
    const stop = exitWithParent(orphaned, {
      env: { [PARENT_PID_ENV]: String(process.ppid) },
      intervalMs: 10,
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(orphaned).not.toHaveBeenCalled();
    stop();
  });

  it('calls back once when the named parent is gone', async () => {
    const child = spawn(process.execPath, ['-e', '0']);
    await new Promise((done) => child.once('exit', done));
    const orphaned = vi.fn();
    exitWithParent(orphaned, { env: { [PARENT_PID_ENV]: String(child.pid) }, intervalMs: 10 });
    await vi.waitFor(() => expect(orphaned).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(orphaned).toHaveBeenCalledTimes(1);
  });
});
