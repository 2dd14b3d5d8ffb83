import { SideTag } from '@renderer/components/SideTag';
import {
  formatLeverage,
  formatPercent,
  formatPrice,
  formatUsd,
  formatUsdCompact,
  signClass,
} from '@renderer/format/number';
import type { Column } from './DataTable';

/**
 * Widths (pixels, the cell's 20 px of padding included) of columns whose texts are of one kind,
 * each holding that kind's widest text in the widest UI font Copydesk meets (DejaVu Sans, the
 * Linux default) with a few pixels to spare: a cell hides what does not fit, so a narrower column
 * showed `Nov 25, 04:31 F` or `§2,854.83`. The e2e tests fail on any clipped cell (docs/ui.md,
 * "Column widths").
 */
export const COLUMN_WIDTHS = {
  /** `Nov 25, 04:31 PM` (126 px of text). */
  dateTime: 150,
  /** `Nov 22, 04:27:01 AM` (149). */
  dateTimeSeconds: 172,
  /** The `SHORT` tag (56). */
  side: 80,
  /** `SHORT ⇄`, a reverse copy's tag (~66). */
  sideReversed: 92,
  /** `MATIC/USD` (81). */
  pair: 112,
  /** `SUMMIT_BLAST` (100). */
  protocol: 132,
  /** `100.00×` (~56). */
  leverage: 80,
  /** The `DECREASE` tag (82). */
  orderType: 108,
} as const;

/** What every figure column is told: where it stands in the table and how to read its number. */
export interface FigureColumnSpec<Row> {
  id: string;
  label: string;
  title?: string;
  width: number;
  sortable?: boolean;
  /** The figure of a row; missing values show as an em dash and sort as null. */
  get: (row: Row) => number | null | undefined;
}

// Only the keys a caller gave, so a built column is the same object as one written out by hand.
function figureColumn<Row>(spec: FigureColumnSpec<Row>, render: Column<Row>['render']): Column<Row> {
  return {
    id: spec.id,
    label: spec.label,
    ...(spec.title !== undefined && { title: spec.title }),
    align: 'right',
    width: spec.width,
    ...(spec.sortable !== undefined && { sortable: spec.sortable }),
    value: (row) => spec.get(row) ?? null,
    render,
  };
}

/** A right-aligned USD figure (`num`); `signed` adds `+` and the gain/loss colour, `compact` abbreviates. */
export function usdColumn<Row>(
  spec: FigureColumnSpec<Row> & { signed?: boolean; compact?: boolean; testId?: string },
): Column<Row> {
  // A compact column writes two decimals always, as the others do (`$691.70K` over `$196.48K`).
  const format = (v: number | null | undefined, signed?: boolean): string =>
    spec.compact ? formatUsdCompact(v, { signed, fixed: true }) : formatUsd(v, { signed });
  return figureColumn(spec, (row) => {
    const v = spec.get(row);
    return spec.signed ? (
      <span className={`num ${signClass(v)}`} data-testid={spec.testId}>
        {format(v, true)}
      </span>
    ) : (
      <span className="num" data-testid={spec.testId}>
        {format(v)}
      </span>
    );
  });
}

/** A right-aligned price with six significant digits (`num`). */
export function priceColumn<Row>(spec: FigureColumnSpec<Row>): Column<Row> {
  return figureColumn(spec, (row) => <span className="num">{formatPrice(spec.get(row))}</span>);
}

/** A right-aligned leverage such as `12.50×` (`num`), two decimals always. */
export function leverageColumn<Row>(spec: FigureColumnSpec<Row>): Column<Row> {
  return figureColumn(spec, (row) => (
    <span className="num">{formatLeverage(spec.get(row), { fixed: true })}</span>
  ));
}

/** A right-aligned signed percentage (`+12.30%`) in the gain/loss colour, two decimals always. */
export function signedPercentColumn<Row>(spec: FigureColumnSpec<Row>): Column<Row> {
  return figureColumn(spec, (row) => {
    const v = spec.get(row);
    return <span className={`num ${signClass(v)}`}>{formatPercent(v, { signed: true, fixed: true })}</span>;
  });
}

/** The LONG/SHORT tag of a position or order (`side`); `reversed` marks a reverse copy. */
export function sideColumn<Row>(spec: {
  width: number;
  isLong: (row: Row) => boolean | null | undefined;
  reversed?: (row: Row) => boolean;
}): Column<Row> {
  return {
    id: 'side',
    label: 'Side',
    width: spec.width,
    value: (row) => {
      const isLong = spec.isLong(row);
      return isLong === null || isLong === undefined ? null : isLong ? 'LONG' : 'SHORT';
    },
    render: (row) => <SideTag isLong={spec.isLong(row)} reversed={spec.reversed?.(row)} />,
  };
}

/**
 * A text of any length the user or the service wrote (a wallet's name, a run's settings):
 * shortened with an ellipsis to its column, the whole of it in the tooltip.
 */
export function shortenedTextColumn<Row>(spec: {
  id: string;
  label: string;
  width: number;
  get: (row: Row) => string;
}): Column<Row> {
  return {
    id: spec.id,
    label: spec.label,
    width: spec.width,
    value: spec.get,
    render: (row) => (
      <span className="cell-ellipsis" title={spec.get(row)}>
        {spec.get(row)}
      </span>
    ),
  };
}

/** The market symbol (`pair`) in its `symbol` style, sortable. */
export function symbolColumn<Row>(spec: { width: number; get: (row: Row) => string }): Column<Row> {
  return {
    id: 'pair',
    label: 'Pair',
    width: spec.width,
    sortable: true,
    value: spec.get,
    render: (row) => <span className="symbol">{spec.get(row)}</span>,
  };
}
