import { describe, expect, it } from 'vitest';
import { toCsvRows } from '@renderer/components/table/csv-rows';

describe('a table as CSV rows', () => {
  it('keeps raw numbers and text, and empties what a spreadsheet cannot read', () => {
    const rows = [
      { name: 'Zürich, “fund”', pnl: -1234.5, roi: Number.NaN, open: true },
      { name: '=cmd', pnl: Number.POSITIVE_INFINITY, roi: null, open: false },
    ];
    const table = toCsvRows(
      [
        { label: 'Name', value: (r: (typeof rows)[number]) => r.name },
        { label: 'PnL', value: (r: (typeof rows)[number]) => r.pnl },
        { label: 'ROI', value: (r: (typeof rows)[number]) => r.roi },
        { label: 'Open', value: (r: (typeof rows)[number]) => r.open },
      ],
      rows,
    );
    expect(table).toEqual({
      columns: ['Name', 'PnL', 'ROI', 'Open'],
      rows: [
        // Escaping and the formula guard are the core's (tests/unit/main/csv-export.test.ts).
        ['Zürich, “fund”', -1234.5, null, true],
        ['=cmd', null, null, false],
      ],
    });
  });
});
