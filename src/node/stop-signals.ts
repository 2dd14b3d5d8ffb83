/**
 * The signals that ask a Copydesk process to stop: SIGINT (Ctrl+C), SIGTERM (a supervisor,
 * `kill`, npm passing its own stop on) and SIGHUP (the terminal it was started from was closed).
 * Each runs the process's own orderly stop, once, instead of the default of dying at once: open
 * connections are answered or closed and the database is closed after its last write.
 */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Runs `stop` on the first of STOP_SIGNALS; a second signal of any of them is ignored meanwhile. */
export function onStopSignal(stop: () => void, target: Pick<NodeJS.Process, 'on'> = process): void {
  let stopping = false;
  for (const signal of STOP_SIGNALS)
    target.on(signal, () => {
      if (stopping) return;
      stopping = true;
      stop();
    });
}
