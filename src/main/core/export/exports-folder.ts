import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';

/** Where an export goes: a path the user chose, or null when they cancelled. */
export type PickSavePath = (suggestedName: string) => Promise<string | null>;

/**
 * Saves every export under `<dataDir>/exports/` with the suggested name, made unique with
 * ` (2)`, ` (3)`… when taken: what the web shell does, having no save dialog.
 */
export function exportsFolderPicker(dataDir: string): PickSavePath {
  return async (suggestedName) => {
    const folder = join(dataDir, 'exports');
    await mkdir(folder, { recursive: true });
    // The name is checked by the contract; basename() keeps it in the folder whatever it holds.
    const name = basename(suggestedName);
    const extension = extname(name);
    const stem = name.slice(0, name.length - extension.length);
    for (let n = 1; ; n += 1) {
      const candidate = join(folder, n === 1 ? name : `${stem} (${n})${extension}`);
      if (!existsSync(candidate) && !existsSync(`${candidate}.partial`)) return candidate;
    }
  };
}
