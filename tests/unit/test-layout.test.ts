// Tests mirror the source tree (issue #18 item 7; docs/testing.md): a folder under tests/unit names
// the folder of the code its tests exercise, so a unit's tests are found where the unit is and a
// renamed source folder cannot leave its tests behind under the old name. The renderer's sources
// live under src/renderer/src, so tests/unit/renderer/<x> may stand for either; tests of the test
// tooling (tests/support, tests/bench, tests/soak) mirror those folders.
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const UNIT = join(ROOT, 'tests', 'unit');

const isFolder = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** Every folder under tests/unit that holds a file (git keeps no empty folder), relative to it. */
function testFolders(rel = ''): string[] {
  return readdirSync(join(UNIT, rel), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      const below = testFolders(path);
      const holdsFile = readdirSync(join(UNIT, path), { withFileTypes: true }).some((e) => e.isFile());
      return holdsFile || below.length > 0 ? [path, ...below] : [];
    });
}

/** The source folders a test folder may stand for. */
function sourcesOf(folder: string): string[] {
  const candidates = [join('src', folder), join('tests', folder)];
  if (folder.startsWith('renderer/'))
    candidates.push(join('src/renderer/src', folder.slice('renderer/'.length)));
  return candidates;
}

const mirrors = (folder: string): boolean => sourcesOf(folder).some((source) => isFolder(join(ROOT, source)));

describe('the unit tests mirror the source tree', () => {
  it('names, in every folder under tests/unit, a folder that exists in src (or in tests, for its tooling)', () => {
    const folders = testFolders();
    expect(folders.length, 'a check over no folders proves nothing').toBeGreaterThan(10);
    expect(folders.filter((folder) => !mirrors(folder))).toEqual([]);
  });

  it('tells a folder that mirrors nothing from one that does', () => {
    expect(mirrors('service/copy-engine')).toBe(true);
    expect(mirrors('support')).toBe(true);
    expect(mirrors('service/copy')).toBe(false);
    expect(mirrors('core-cache')).toBe(false);
  });
});
