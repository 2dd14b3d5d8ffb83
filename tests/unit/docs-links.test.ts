// The repository explains itself (issue #18): nothing points at spec files outside it, and every
// link or `docs/x.md` mention lands on a file, and on a heading when it names a section. Sections
// are named as `docs/api.md, Errors`, `docs/api.md (Errors)` or `docs/api.md#errors` in code, and
// as `[text](api.md#errors)` in markdown (docs/style.md, Comments).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SELF = relative(ROOT, fileURLToPath(import.meta.url));
const SCANNED = ['src', 'tests', 'docs', 'scripts', 'README.md'];
const TEXT_EXTENSIONS = new Set(['.ts', '.tsx', '.js', '.mjs', '.cjs', '.md', '.sh', '.css', '.html']);
const SKIPPED_DIRS = new Set(['node_modules', 'out', 'dist']);

// The files that used to be cited: the spec's three files, its ARCHITECTURE and STYLE, and the
// folder they lived in. `semantics.md` is also ours (docs/semantics.md): only a bare mention, not
// under docs/ and not a markdown link's text or target, is the outside one.
const OUTSIDE = new RegExp(
  [
    String.raw`(?<![\w/\[-])(?<!\]\()(?:decisions|service-api|semantics)\.md`,
    String.raw`\bspec/(?:decisions|service-api|semantics)\.md`,
    'ARCHITECTURE' + String.raw`\.md`,
    'STYLE' + String.raw`\.md`,
    '/work/' + 'shared',
    String.raw`(?:\.\./)+shared/(?:spec|venues|ARCHITECTURE|STYLE)`,
  ].join('|'),
  'g',
);
const MARKDOWN_LINK = /\[[^\]]*\]\(([^)\s]+)\)/g;
// `docs/x.md`, then maybe `#anchor`, or a section: ", Name" / " (Name" starting with a capital.
const DOCS_MENTION = /(?<![\w./-])docs\/([\w-]+\.md)(#[\w-]+)?(?:(?:, | \()([A-Z`][^,;:.)"\n]*))?/g;

/** Every text file under the scanned roots, relative to the repository. */
function scannedFiles(): string[] {
  const found: string[] = [];
  const walk = (rel: string): void => {
    const full = join(ROOT, rel);
    if (statSync(full).isDirectory()) {
      for (const name of readdirSync(full).sort()) if (!SKIPPED_DIRS.has(name)) walk(join(rel, name));
    } else if (TEXT_EXTENSIONS.has(extname(rel))) found.push(rel);
  };
  for (const root of SCANNED) walk(root);
  return found.filter((f) => f !== SELF);
}

const read = (rel: string): string => readFileSync(join(ROOT, rel), 'utf8');
const lineOf = (text: string, index: number): number => text.slice(0, index).split('\n').length;

/** The text with fenced code blocks blanked (line numbers kept): links do not render there. */
function withoutFences(markdown: string): string {
  return markdown.replace(/^[ \t]*```[\s\S]*?^[ \t]*```/gm, (block) => block.replace(/[^\n]/g, ' '));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/[`*_]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- ]/gu, '')
    .replace(/ /g, '-');
}

/**
 * The sections of a markdown file: its headings' and bold lead-ins' texts (lower case, no
 * backticks; a lead-in is a paragraph or list item opening with `**Name.**`), and its anchors.
 */
function sectionsOf(rel: string): { texts: string[]; anchors: Set<string> } {
  const text = withoutFences(read(rel));
  const texts: string[] = [];
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of text.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    texts.push(m[1]!.replace(/`/g, '').trim().toLowerCase());
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of text.matchAll(/^[ \t]*(?:[-*][ \t]+)?\*\*([^*\n]+)\*\*/gm))
    texts.push(m[1]!.replace(/`/g, '').trim().toLowerCase());
  return { texts, anchors };
}

/** A section cited by name lands on one whose text is that name, or starts with it as words. */
function hasSection(texts: readonly string[], name: string): boolean {
  const wanted = name.replace(/`/g, '').trim().toLowerCase();
  return texts.some(
    (t) => t === wanted || (t.startsWith(wanted) && !/[\p{L}\p{N}]/u.test(t[wanted.length]!)),
  );
}

const exists = (rel: string): boolean => {
  try {
    statSync(join(ROOT, rel));
    return true;
  } catch {
    return false;
  }
};

/** What is wrong with a reference to `target` (a repository path) with `anchor` or `section`, or null. */
function problemWith(target: string, anchor: string | undefined, section: string | undefined): string | null {
  if (!exists(target)) return `${target} does not exist`;
  if (!target.endsWith('.md') || (anchor === undefined && section === undefined)) return null;
  const { texts, anchors } = sectionsOf(target);
  if (anchor !== undefined && !anchors.has(anchor.toLowerCase()))
    return `${target} has no heading #${anchor}`;
  if (section !== undefined && !hasSection(texts, section))
    return `${target} has no section "${section.trim()}"`;
  return null;
}

/** References to the files outside the repository, as `file:line: text`. */
export function outsideReferences(rel: string, text: string): string[] {
  return [...text.matchAll(OUTSIDE)].map((m) => `${rel}:${lineOf(text, m.index)}: ${m[0]}`);
}

/** Relative links of a markdown file that do not land, as `file:line: link: why`. */
export function brokenLinks(rel: string, text: string): { checked: number; broken: string[] } {
  const broken: string[] = [];
  let checked = 0;
  const prose = withoutFences(text).replace(/`[^`\n]*`/g, (code) => ' '.repeat(code.length));
  for (const m of prose.matchAll(MARKDOWN_LINK)) {
    const href = m[1]!;
    if (/^[a-z][a-z+.-]*:/i.test(href)) continue; // http:, https:, mailto:
    const [path, anchor] = href.split('#') as [string, string | undefined];
    const target = path === '' ? rel : relative(ROOT, resolve(ROOT, dirname(rel), decodeURI(path)));
    checked += 1;
    const why = problemWith(target, anchor, undefined);
    if (why !== null) broken.push(`${rel}:${lineOf(text, m.index)}: ${href}: ${why}`);
  }
  return { checked, broken };
}

/** `docs/x.md` mentions (with their anchor or section) that do not land, as `file:line: why`. */
export function brokenMentions(rel: string, text: string): { checked: number; broken: string[] } {
  const broken: string[] = [];
  let checked = 0;
  for (const m of text.matchAll(DOCS_MENTION)) {
    checked += 1;
    const why = problemWith(`docs/${m[1]!}`, m[2]?.slice(1), m[3]);
    if (why !== null) broken.push(`${rel}:${lineOf(text, m.index)}: ${m[0]}: ${why}`);
  }
  return { checked, broken };
}

describe('the repository explains itself', () => {
  const files = scannedFiles();
  const markdown = files.filter((f) => f.endsWith('.md') && (f === 'README.md' || f.startsWith('docs/')));

  it('scans the source, the tests, the scripts and the docs', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(markdown).toContain('README.md');
    expect(markdown).toContain('docs/api.md');
    expect(markdown).toContain('docs/semantics.md');
  });

  it('points at no file outside the repository', () => {
    expect(files.flatMap((f) => outsideReferences(f, read(f)))).toEqual([]);
  });

  it('has no relative link in README.md or docs/ that misses its file or heading', () => {
    const results = markdown.map((f) => brokenLinks(f, read(f)));
    expect(results.reduce((n, r) => n + r.checked, 0)).toBeGreaterThan(50);
    expect(results.flatMap((r) => r.broken)).toEqual([]);
  });

  it('mentions no docs/ page, anchor or section that does not exist', () => {
    const results = files.map((f) => brokenMentions(f, read(f)));
    expect(results.reduce((n, r) => n + r.checked, 0)).toBeGreaterThan(100);
    expect(results.flatMap((r) => r.broken)).toEqual([]);
  });
});

describe('the rules behind those checks', () => {
  it('tell the outside files from our own', () => {
    const outside = [
      '(decisions.md, Errors)',
      'see `spec/semantics.md`',
      'semantics.md "Ranking"',
      '../shared/venues/x/README.md',
      'the ' + 'ARCHITECTURE.md rules',
    ];
    for (const text of outside) expect(outsideReferences('x.ts', text), text).toHaveLength(1);
    const ours = [
      'docs/semantics.md, Ranking',
      '[semantics.md, Ranking](semantics.md#ranking)',
      "'../../shared/api'",
    ];
    for (const text of ours) expect(outsideReferences('x.ts', text), text).toEqual([]);
  });

  it('find a missing page, anchor or section, and accept the real ones', () => {
    expect(brokenMentions('x.ts', 'docs/api.md, Errors').broken).toEqual([]);
    expect(brokenMentions('x.ts', 'docs/api.md (Errors)').broken).toEqual([]);
    expect(brokenMentions('x.ts', 'docs/api.md#errors').broken).toEqual([]);
    expect(brokenMentions('x.ts', 'docs/api.md, No such heading').broken).toHaveLength(1);
    expect(brokenMentions('x.ts', 'docs/api.md#no-such-heading').broken).toHaveLength(1);
    expect(brokenMentions('x.ts', 'docs/no-such-page.md').broken).toHaveLength(1);
    expect(brokenLinks('docs/x.md', '[a](api.md#errors) [b](semantics.md#nowhere)').broken).toHaveLength(1);
  });

  it('make anchors as GitHub does', () => {
    expect(slug("JSON: the venue's `userFills` answer")).toBe('json-the-venues-userfills-answer');
    expect(slug('Copy wallets and withdrawal')).toBe('copy-wallets-and-withdrawal');
  });
});
