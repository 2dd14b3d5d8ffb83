/** The variable through which the core tells its local service which process to outlive not. */
export const PARENT_PID_ENV = 'COPYDESK_PARENT_PID';

/**
 * Ends this process soon after the process named by `COPYDESK_PARENT_PID` is gone. The core sets
 * it when it starts its local service: a terminal that is killed (kill -9, a crash of Electron)
 * runs no exit handler, and its service would go on holding the database and the port. Checked
 * every `intervalMs`: the parent no longer exists, or this process was handed to another parent.
 * `onOrphaned` runs once (the service closes itself as on SIGTERM). Without the variable nothing
 * is watched (a service started by hand lives on its own). Returns the stopper.
 */
export function exitWithParent(
  onOrphaned: () => void,
  options: { env?: NodeJS.ProcessEnv; intervalMs?: number } = {},
): () => void {
  const parent = Number((options.env ?? process.env)[PARENT_PID_ENV]);
  if (!Number.isSafeInteger(parent) || parent <= 0) return () => undefined;
  const timer = setInterval(() => {
    if (parentAlive(parent)) return;
    clearInterval(timer);
    onOrphaned();
  }, options.intervalMs ?? 1000);
  timer.unref();
  return () => clearInterval(timer);
}

function parentAlive(pid: number): boolean {
  // On POSIX an orphan is adopted by another process at once, which also covers a reused pid.
  if (process.platform !== 'win32' && process.ppid !== pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
