import { describe, expect, it } from 'vitest';

// The renderer's imports run one way: pages → stores → the shared layers below them, never back
// up into a page (docs/ui.md, "Imports"). A module a store needs lives in one of these folders.
// Read through Vite (this file typechecks with the renderer, which has no Node types).
const BELOW_PAGES = ['stores', 'statistics', 'filters', 'copy-trades', 'ipc', 'format', 'hooks', 'theme'];
const RENDERER = '/src/renderer/src/';
const sources = import.meta.glob<string>('/src/renderer/src/*/**/*.{ts,tsx}', {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** The module specifiers of a file's static imports, re-exports and dynamic imports. */
function importSpecifiers(source: string): string[] {
  const pattern = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g;
  return [...source.matchAll(pattern)].map((match) => match[1] ?? '');
}

/** `a/b/c.ts` + `../d` → `a/d`: a relative specifier resolved against its file's folder. */
function resolveRelative(fromFile: string, specifier: string): string {
  const parts = fromFile.split('/').slice(0, -1);
  for (const part of specifier.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  return parts.join('/');
}

/**
 * Where a specifier of `fromFile` (a path under the renderer's src) points, under the renderer's
 * src; null for a package, src/shared or anything outside the renderer.
 */
function rendererTarget(fromFile: string, specifier: string): string | null {
  if (specifier.startsWith('@renderer/')) return specifier.slice('@renderer/'.length);
  if (!specifier.startsWith('.')) return null;
  const target = resolveRelative(`src/renderer/src/${fromFile}`, specifier);
  return target.startsWith('src/renderer/src/') ? target.slice('src/renderer/src/'.length) : null;
}

describe('renderer import direction', () => {
  it('reads every import form a page import could take', () => {
    const file = 'stores/example.ts';
    const specs = importSpecifiers(
      [
        "import { a } from '@renderer/pages/live/LivePage';",
        "import type { B } from '../pages/copy/CopyPage';",
        "export { c } from './navigation';",
        "const d = lazy(() => import('../pages/trader/TraderPage'));",
        "import '../styles/index.css';",
        "import { z } from 'zod';",
        "import type { E } from '../../../shared/api/common';",
      ].join('\n'),
    );
    expect(specs.map((s) => rendererTarget(file, s))).toEqual([
      'pages/live/LivePage',
      'pages/copy/CopyPage',
      'stores/navigation',
      'pages/trader/TraderPage',
      'styles/index.css',
      null,
      null,
    ]);
  });

  it('no store or shared renderer module imports a page', () => {
    const files = Object.keys(sources)
      .map((path) => path.slice(RENDERER.length))
      .filter((file) => BELOW_PAGES.includes(file.split('/')[0] ?? ''));
    // Every folder is read: a renamed folder must not leave the rule checking nothing.
    expect(new Set(files.map((file) => file.split('/')[0]))).toEqual(new Set(BELOW_PAGES));
    const upward = files.flatMap((file) =>
      importSpecifiers(sources[RENDERER + file] ?? '')
        .filter((spec) => rendererTarget(file, spec)?.startsWith('pages/'))
        .map((spec) => `${file} imports ${spec}`),
    );
    expect(upward).toEqual([]);
  });
});
