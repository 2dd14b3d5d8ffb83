import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import { DebugLogger } from 'builder-util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ICNS_TYPES,
  ICON_SIZES,
  ICO_SIZES,
  encodeIcns,
  encodeIco,
  pngSize,
  readIcns,
  readIco,
} from '../../../../scripts/icons/formats';

vi.mock('electron', () => ({}));
const { APP_ID, LINUX_DESKTOP_FILE, PRODUCT_NAME } =
  await import('../../../../src/main/electron/app-identity');

// The installers cannot be built here (electron-builder downloads Electron's builds from GitHub), so
// these tests check what can be checked without them: the configuration, as electron-builder itself
// loads and validates it; the icons; and that the build makes every file the packaged app loads.

const ROOT = resolve('.');
const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
  main: string;
  dependencies: Record<string, string>;
};

interface Target {
  target: string;
}
interface BuilderConfig {
  appId?: string;
  productName?: string;
  files?: (string | { filter?: string[] })[];
  asar?: boolean;
  npmRebuild?: boolean;
  electronFuses?: { runAsNode?: boolean };
  linux?: { target?: (string | Target)[]; icon?: string; executableName?: string };
  mac?: { target?: (string | Target)[]; icon?: string };
  win?: { target?: (string | Target)[]; icon?: string };
}
const targetNames = (targets: (string | Target)[] | undefined) =>
  (targets ?? []).map((target) => (typeof target === 'string' ? target : target.target));

const quiet = () => new DebugLogger(false);
let config: BuilderConfig;
beforeAll(async () => {
  config = (await getConfig(ROOT, null, null)) as BuilderConfig;
});

describe('electron-builder configuration', () => {
  it("is valid for electron-builder's schema, checked by electron-builder's own validation", async () => {
    await expect(validateConfiguration(config as never, quiet())).resolves.toBeUndefined();
  });

  it('that validation refuses a configuration with a misspelt key or a wrong type', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'copydesk-builder-'));
    try {
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', version: '1.0.0' }));
      for (const yaml of ['appId: a.b.c\nproductNmae: Copydesk\n', 'linux:\n  executableName: [1, 2]\n']) {
        writeFileSync(join(dir, 'electron-builder.yml'), yaml);
        const wrong = await getConfig(dir, null, null);
        await expect(validateConfiguration(wrong, quiet())).rejects.toThrow(/configuration/i);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the app as the shell does: app id, product name, the Linux desktop file', () => {
    expect(config.appId).toBe(APP_ID);
    expect(config.productName).toBe(PRODUCT_NAME);
    expect(`${config.linux?.executableName}.desktop`).toBe(LINUX_DESKTOP_FILE);
  });

  it('makes an AppImage and a deb, a dmg, and an NSIS installer', () => {
    expect(targetNames(config.linux?.target)).toEqual(['AppImage', 'deb']);
    expect(targetNames(config.mac?.target)).toEqual(['dmg']);
    expect(targetNames(config.win?.target)).toEqual(['nsis']);
  });

  it('rebuilds the native modules, and keeps Electron runnable as Node for the local service', () => {
    expect(config.npmRebuild).not.toBe(false);
    expect(config.electronFuses?.runAsNode).toBe(true);
    expect(Object.keys(manifest.dependencies)).toEqual(expect.arrayContaining(['better-sqlite3', 'keytar']));
  });
});

describe('icons', () => {
  const pngs = new Map(
    ICON_SIZES.map((size) => [size, readFileSync(join('build', 'icons', `${size}x${size}.png`))] as const),
  );

  it('has a PNG of every size, each of that size, from build/icon.svg', () => {
    expect(readFileSync('build/icon.svg', 'utf8')).toContain('<svg');
    for (const [size, png] of pngs) expect(pngSize(png)).toEqual({ width: size, height: size });
    expect(config.linux?.icon).toBe('build/icons');
  });

  it('has a .ico with every Windows size up to 256, made from those PNGs', () => {
    expect(config.win?.icon).toBe('build/icon.ico');
    const ico = readFileSync('build/icon.ico');
    const images = readIco(ico);
    expect(images.map(({ size }) => size)).toEqual([...ICO_SIZES]);
    for (const { size, png } of images) expect(pngSize(png)).toEqual({ width: size, height: size });
    expect(ico.equals(encodeIco(pngs))).toBe(true);
  });

  it('has a .icns with every macOS size from 16 to 1024, made from those PNGs', () => {
    expect(config.mac?.icon).toBe('build/icon.icns');
    const icns = readFileSync('build/icon.icns');
    const entries = readIcns(icns);
    expect(entries.map(({ type }) => type)).toEqual(ICNS_TYPES.map(([type]) => type));
    entries.forEach(({ data }, index) => {
      const size = ICNS_TYPES[index]![1];
      expect(pngSize(data)).toEqual({ width: size, height: size });
    });
    expect(icns.equals(encodeIcns(pngs))).toBe(true);
  });

  it('refuses to pack an image of the wrong size', () => {
    const wrong = new Map(pngs);
    wrong.set(48, pngs.get(64)!);
    expect(() => encodeIco(wrong)).toThrow('the 48px image is 64x64');
  });
});

describe('the build makes every file the packaged app loads', () => {
  // electron-vite builds into a folder of this test's own, so the test neither needs nor disturbs out/.
  const out = mkdtempSync(join(tmpdir(), 'copydesk-build-'));
  const files: string[] = [];
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
  beforeAll(() => {
    execFileSync(
      join('node_modules', '.bin', 'electron-vite'),
      ['build', '--outDir', out, '--logLevel', 'error'],
      {
        stdio: 'pipe',
      },
    );
    files.push(...walk(out));
  }, 120_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  const mainProcessFiles = () =>
    files.filter((file) => /\.(c?js)$/.test(file) && !file.includes('/renderer/'));

  it('is all inside what electron-builder packs (out/ and package.json)', () => {
    // electron-builder's loader turns the list of patterns into one file set.
    const patterns = (config.files ?? []).flatMap((set) =>
      typeof set === 'string' ? [set] : (set.filter ?? []),
    );
    expect(patterns).toEqual(expect.arrayContaining(['out/**/*', 'package.json']));
  });

  it("has package.json's main, the preload, the renderer, the service, the web shell and the workers", () => {
    const expected = [
      manifest.main.replace(/^\.\/out\//, ''),
      'main/web.js',
      'main/service.js',
      'main/dataset-worker.js',
      'main/sweep-worker.js',
      'main/prepare-worker.js',
      'preload/index.cjs',
      'renderer/index.html',
    ];
    for (const file of expected) expect(existsSync(join(out, file)), file).toBe(true);
  });

  it('has every script and stylesheet the renderer page names', () => {
    const html = readFileSync(join(out, 'renderer', 'index.html'), 'utf8');
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)]
      .map((match) => match[1]!)
      .filter((url) => !url.startsWith('data:'));
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) expect(existsSync(join(out, 'renderer', asset)), asset).toBe(true);
  });

  it('has every file the main-process code loads by path (preload, page, service, workers)', () => {
    // Files are found at run time with path.join(<a folder>, '<name>.js' …): each such name must be built.
    const loaded = new Set<string>();
    for (const file of mainProcessFiles())
      for (const match of readFileSync(file, 'utf8').matchAll(/\bjoin\(\s*\w+((?:\s*,\s*"[^"]*")+)\s*\)/g)) {
        const segments = [...match[1]!.matchAll(/"([^"]*)"/g)].map((segment) => segment[1]!);
        if (/\.(c?js|html)$/.test(segments.at(-1)!)) loaded.add(segments.filter((s) => s !== '..').join('/'));
      }
    expect([...loaded]).toEqual(
      expect.arrayContaining([
        'preload/index.cjs',
        'renderer/index.html',
        'service.js',
        'dataset-worker.js',
        'sweep-worker.js',
        'prepare-worker.js',
      ]),
    );
    for (const name of loaded)
      expect(
        files.some((file) => file.endsWith(`/${name}`)),
        `${name} is loaded at run time but not built`,
      ).toBe(true);
  });

  it('resolves every import between the built files, and imports only packed packages', () => {
    const packed = new Set([...Object.keys(manifest.dependencies), 'electron']);
    const seen = new Set<string>();
    for (const file of mainProcessFiles()) {
      const code = readFileSync(file, 'utf8');
      const specifiers = [
        // Bundles keep one import or export per line; string literals elsewhere are not imports.
        ...code.matchAll(/^(?:import|export)\b[^;"]*?\bfrom\s*"([^"]+)"/gm),
        ...code.matchAll(/^import\s*"([^"]+)"/gm),
        ...code.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g),
        ...code.matchAll(/\brequire\(\s*"([^"]+)"\s*\)/g),
      ].map((match) => match[1]!);
      for (const specifier of specifiers) {
        const where = `${relative(out, file)} imports ${specifier}`;
        seen.add(specifier.startsWith('.') ? 'a built file' : specifier);
        if (specifier.startsWith('.'))
          expect(existsSync(resolve(dirname(file), specifier)), where).toBe(true);
        else if (specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
        else {
          const name = specifier.startsWith('@')
            ? specifier.split('/').slice(0, 2).join('/')
            : specifier.split('/')[0]!;
          expect(packed.has(name), `${where}, which is not a production dependency`).toBe(true);
        }
      }
    }
    // The scan saw the imports that matter: the chunks, the native modules, Electron.
    expect([...seen]).toEqual(
      expect.arrayContaining(['a built file', 'better-sqlite3', 'keytar', 'electron']),
    );
  });
});
