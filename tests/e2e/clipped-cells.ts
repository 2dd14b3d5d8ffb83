import type { BrowserContext } from '@playwright/test';

/**
 * A table cell whose text is wider than its column: the cell hides the overflow, so a trader
 * reads `Nov 25, 04:31 F` for a time or `§2,854.83` for a fee (a right-aligned figure loses its
 * left end). docs/testing.md, "Clipped cells".
 */
export interface ClippedCell {
  table: string;
  column: string;
  text: string;
  /** Pixels the cell's content takes, and the room its column leaves it (padding excluded). */
  needs: number;
  room: number;
}

// The watch runs in the page; these files are typed without the DOM (tsconfig.node.json), so
// what it uses of the page is written out here, as the other specs' page scripts do.
interface Box {
  left: number;
  right: number;
  width: number;
  height: number;
}
interface PageElement {
  parentElement: PageElement | null;
  children: ArrayLike<PageElement>;
  textContent: string | null;
  getBoundingClientRect(): Box;
  closest(selector: string): PageElement | null;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
  getAttribute(name: string): string | null;
}
interface PageText {
  textContent: string | null;
  parentElement: PageElement | null;
}
interface Page {
  document: {
    querySelectorAll(selector: string): Iterable<PageElement>;
    createTreeWalker(root: PageElement, show: number): { nextNode(): PageText | null };
    createRange(): { selectNodeContents(node: PageText): void; getBoundingClientRect(): Box };
  };
  getComputedStyle(element: PageElement): {
    paddingLeft: string;
    paddingRight: string;
    textOverflow: string;
    overflowX: string;
  };
  MutationObserver: new (callback: () => void) => { observe(target: PageElement, options: object): void };
  addEventListener(type: string, listener: () => void): void;
  setTimeout(callback: () => void, ms: number): unknown;
  __copydeskClipped?: Record<string, ClippedCell>;
  __copydeskScanClipped?: () => void;
}

/**
 * Installed in every page of the context before its scripts: watches the DOM and, at most every
 * 250 ms after a change, measures every body cell of every DataTable (`.dt-body .dt-cell`),
 * recording each (table, column) found clipped once, with its first text: content that starts
 * before the cell's padding or ends after it. A text shortened on purpose (`text-overflow:
 * ellipsis` on an inner element) counts as that element's box, which must fit. Self-contained:
 * Playwright sends its source to the page.
 */
function installClipWatch(): void {
  const page = globalThis as unknown as Page;
  const { document } = page;
  const SHOW_TEXT = 4; // NodeFilter.SHOW_TEXT
  const found: Record<string, ClippedCell> = {};
  page.__copydeskClipped = found;
  let scheduled = false;
  /**
   * Where the cell's content starts and ends on screen: each text's own extent, except a text
   * inside an element that shortens it on purpose (`text-overflow: ellipsis` with its overflow
   * hidden), which counts as that element's box; icons and controls by their boxes.
   */
  const contentExtent = (cell: PageElement): { left: number; right: number } | null => {
    let left = Infinity;
    let right = -Infinity;
    const add = (r: Box): void => {
      if (r.width === 0 && r.height === 0) return;
      left = Math.min(left, r.left);
      right = Math.max(right, r.right);
    };
    const texts = document.createTreeWalker(cell, SHOW_TEXT);
    for (let node = texts.nextNode(); node; node = texts.nextNode()) {
      if (!node.textContent?.trim()) continue;
      let shortened: PageElement | null = null;
      for (let el = node.parentElement; el && el !== cell; el = el.parentElement) {
        const style = page.getComputedStyle(el);
        if (style.textOverflow === 'ellipsis' && style.overflowX !== 'visible') {
          shortened = el;
          break;
        }
      }
      if (shortened) add(shortened.getBoundingClientRect());
      else {
        const range = document.createRange();
        range.selectNodeContents(node);
        add(range.getBoundingClientRect());
      }
    }
    for (const el of cell.querySelectorAll('svg, img, button, input, select'))
      add(el.getBoundingClientRect());
    return left === Infinity ? null : { left, right };
  };
  const scan = (): void => {
    scheduled = false;
    for (const cell of document.querySelectorAll('.dt-body .dt-cell')) {
      const style = page.getComputedStyle(cell);
      const box = cell.getBoundingClientRect();
      const from = box.left + parseFloat(style.paddingLeft);
      const to = box.right - parseFloat(style.paddingRight);
      const room = to - from;
      const content = contentExtent(cell);
      // Half a pixel: sub-pixel text layout rounds either way.
      if (room <= 0 || !content || (content.left >= from - 0.5 && content.right <= to + 0.5)) continue;
      const row = cell.parentElement;
      const index = row ? Array.prototype.indexOf.call(row.children, cell) : -1;
      const header =
        cell.closest('.dt-grid')?.querySelector('.dt-header-row')?.children[index]?.textContent ??
        `column ${index}`;
      const table =
        cell.closest('[data-testid]:not([data-testid="table-row"])')?.getAttribute('data-testid') ?? '?';
      found[`${table}/${header}`] ??= {
        table,
        column: header,
        text: cell.textContent ?? '',
        needs: Math.ceil(content.right - content.left),
        room: Math.floor(room),
      };
    }
  };
  page.__copydeskScanClipped = scan;
  const schedule = (): void => {
    if (scheduled) return;
    scheduled = true;
    page.setTimeout(scan, 250);
  };
  const start = (): void => {
    // The document itself, not its root element: a page that rewrites the whole document
    // (Playwright's setContent does) keeps being watched.
    new page.MutationObserver(schedule).observe(document as unknown as PageElement, {
      childList: true,
      subtree: true,
      characterData: true,
    });
    page.addEventListener('resize', schedule);
    schedule();
  };
  start();
}

/** Watches `context`'s pages for clipped table cells; `clipped()` answers what they saw. */
export async function watchClippedCells(
  context: BrowserContext,
): Promise<{ clipped(): Promise<ClippedCell[]> }> {
  await context.addInitScript(installClipWatch);
  return {
    clipped: async () => {
      const all: ClippedCell[] = [];
      for (const page of context.pages()) {
        if (page.isClosed()) continue;
        // A last scan of what the page shows now, then what it saw along the way.
        const seen = await page
          .evaluate(() => {
            const here = globalThis as unknown as Page;
            here.__copydeskScanClipped?.();
            return Object.values(here.__copydeskClipped ?? {});
          })
          .catch(() => [] as ClippedCell[]);
        all.push(...seen);
      }
      return all;
    },
  };
}
