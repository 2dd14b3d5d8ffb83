import { expect, test } from './fixtures';
import { watchClippedCells } from './clipped-cells';

// The clipped-cell guard itself (clipped-cells.ts), on a hand-made table in its own context (the
// fixture's own guard watches the test's context, not this one).

const cell = (style: string, html: string): string =>
  `<div class="dt-cell" style="display:flex;overflow:hidden;white-space:nowrap;padding:0 10px;${style}">${html}</div>`;
const TABLE = `
  <div data-testid="sample-table" class="dt-grid" style="font: 14px sans-serif">
    <div class="dt-header-row" style="display:grid;grid-template-columns:120px 120px 120px 120px">
      <div>Fits</div><div>Cut</div><div>Figure</div><div>Shortened</div>
    </div>
    <div class="dt-body">
      <div class="dt-row" style="display:grid;grid-template-columns:120px 120px 120px 120px">
        ${cell('', 'Nov 25')}
        ${cell('', 'Nov 25, 04:31:12 PM, a long time')}
        ${cell('justify-content:flex-end', '$12,345,678,901.23')}
        ${cell('', '<span style="overflow:hidden;text-overflow:ellipsis" title="a long wallet name">a long wallet name indeed</span>')}
      </div>
    </div>
  </div>`;

test('the guard names a cut text and a figure that loses its left end, not a text shortened on purpose', async ({
  browser,
}) => {
  const context = await browser.newContext();
  try {
    const watch = await watchClippedCells(context);
    const page = await context.newPage();
    await page.setContent('<p>no table yet</p>');
    expect(await watch.clipped()).toEqual([]);
    await page.setContent(TABLE);
    const clipped = await watch.clipped();
    expect(clipped.map((c) => `${c.table} / ${c.column}`).sort()).toEqual([
      'sample-table / Cut',
      'sample-table / Figure',
    ]);
    for (const c of clipped) {
      expect(c.room).toBe(100);
      expect(c.needs).toBeGreaterThan(100);
    }
    // A cell that clipped for a while and then fitted again is still named: the watch follows
    // the DOM as it changes, not only at the end.
    const setFirstCell = (text: string) =>
      page.evaluate((t) => {
        const doc = (
          globalThis as unknown as { document: { querySelector(s: string): { textContent: string } } }
        ).document;
        doc.querySelector('.dt-header-row div').textContent = 'Grown';
        doc.querySelector('.dt-body .dt-cell').textContent = t;
      }, text);
    await setFirstCell('Nov 25, 04:31:12 PM, grown for a while');
    await page.waitForTimeout(600);
    await setFirstCell('Nov 25');
    expect((await watch.clipped()).map((c) => c.column).sort()).toEqual(['Cut', 'Figure', 'Grown']);
  } finally {
    await context.close();
  }
});
