/**
 * Where `/` goes on the current page, first match wins: a filter bar (`role="search"`), the
 * leaderboard's open filter panel, a search box, a control marked `data-page-filter` (the
 * leaderboard's Filters button, the trader picker's address), then a toolbar's first select.
 */
const FILTER_SELECTORS = [
  '[role="search"] input, [role="search"] select',
  '.filter-panel input, .filter-panel select',
  'input[type="search"]',
  '[data-page-filter]',
  '.toolbar select, .toolbar input:not([type="checkbox"]):not([type="radio"])',
];

const usable = (element: Element): element is HTMLElement =>
  element instanceof HTMLElement &&
  !(element as HTMLInputElement).disabled &&
  element.getClientRects().length > 0;

/** The current page's filter or search control, or null when the page has none. */
export function findPageFilter(root: ParentNode = document): HTMLElement | null {
  const main = root.querySelector('main') ?? root;
  for (const selector of FILTER_SELECTORS) {
    const found = Array.from(main.querySelectorAll(selector)).find(usable);
    if (found) return found;
  }
  return null;
}

/** Focuses the page's filter (and selects its text, to type over it); false when there is none. */
export function focusPageFilter(): boolean {
  const target = findPageFilter();
  if (!target) return false;
  target.focus();
  if (target instanceof HTMLInputElement) target.select();
  return true;
}
