/**
 * Makes a promise rejection that nothing handles a logged error instead of the end of the process.
 * Node exits on one by default; in a shell that holds the core (and with it the local service and
 * the user's open work) one forgotten `await` must not stop the terminal. A thrown exception that
 * nothing catches stays fatal: the state it leaves is unknown. Returns the uninstaller.
 */
export function logUnhandledRejections(
  target: Pick<NodeJS.Process, 'on' | 'off'> = process,
  log: (message: string, reason: unknown) => void = (message, reason) => console.error(message, reason),
): () => void {
  const onRejection = (reason: unknown) => log('[copydesk] a promise failed and nothing handled it:', reason);
  target.on('unhandledRejection', onRejection);
  return () => void target.off('unhandledRejection', onRejection);
}
