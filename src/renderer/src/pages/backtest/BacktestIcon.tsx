import type { ReactElement } from 'react';

/** The rail's Backtest icon: a curve replayed over a clock hand, on the rail's 16×16 grid. */
export const BacktestIcon = (): ReactElement => (
  <svg
    className="icon"
    width={16}
    height={16}
    viewBox="0 0 16 16"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.4"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
  >
    <path d="M2.5 2.5v11h11M4.5 10.5l2.5-3 2 2 4-5M11 4.5h2.5V7" />
  </svg>
);
