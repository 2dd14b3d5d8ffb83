import { existsSync, renameSync } from 'node:fs';
import { basename } from 'node:path';

/** A database file that could not be opened and was moved aside. */
export interface DamagedFile {
  /** The file Copydesk uses, rebuilt empty. */
  file: string;
  /** Where the damaged bytes are kept (never deleted: the user may want them back). */
  movedTo: string;
  at: string;
}

/** SQLite's answers for a file that is not a database or whose pages are damaged. */
const DAMAGE_CODES = /^SQLITE_(NOTADB|CORRUPT)/;

/** Whether `error` says the file itself is damaged (not busy, not locked, not from a newer Copydesk). */
export function isDamage(error: unknown): boolean {
  return DAMAGE_CODES.test(String((error as { code?: unknown } | null)?.code ?? ''));
}

/**
 * Opens a database file that Copydesk can rebuild (a cache, a download) with `open`. When the
 * file cannot be opened because it is damaged, it is renamed `<name>.damaged-<time>` (with its
 * journal files) and `open` runs again on a new, empty file; `damaged` says where it went. Any
 * other failure (a newer schema, a full disk, a permission) is thrown as it is: moving the file
 * would not help, and the data in it may be fine.
 */
export function openRebuildable<T>(
  path: string,
  open: (path: string) => T,
  now: () => Date = () => new Date(),
): { value: T; damaged: DamagedFile | null } {
  try {
    return { value: open(path), damaged: null };
  } catch (error) {
    if (!isDamage(error)) throw error;
    const at = now().toISOString();
    const movedTo = `${path}.damaged-${at.replace(/[:.]/g, '-')}`;
    for (const suffix of ['', '-wal', '-shm', '-journal'])
      if (existsSync(path + suffix)) renameSync(path + suffix, movedTo + suffix);
    console.error(
      `[copydesk] ${basename(path)} could not be opened (${(error as Error).message}); ` +
        `it was moved to ${movedTo} and a new one was started.`,
    );
    return { value: open(path), damaged: { file: path, movedTo, at } };
  }
}
