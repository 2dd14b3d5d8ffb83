/**
 * The folder the core and the local service write their rotating logs to: `logs` in the data
 * folder (src/node/data-dir.ts `logDirOf`, written out here: the renderer has no `node:path`).
 */
export function logFolderOf(dataDir: string): string {
  const windows = /^[A-Za-z]:\\/.test(dataDir) || (dataDir.includes('\\') && !dataDir.includes('/'));
  const sep = windows ? '\\' : '/';
  return `${dataDir.replace(/[\\/]+$/, '')}${sep}logs`;
}
