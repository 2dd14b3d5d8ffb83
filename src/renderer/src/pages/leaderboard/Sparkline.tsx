import type { ReactElement } from 'react';
import { useEffect } from 'react';
import type { Window } from '@shared/api/common';
import {
  SPARK_HEIGHT,
  SPARK_WIDTH,
  releaseSparkline,
  sparkKey,
  useSparklines,
  wantSparkline,
} from '@renderer/stores/sparklines';

/**
 * A row's cumulative daily PnL as a tiny line (green when the window ends up, red when down).
 * Mounting asks for the series; the store batches the rows in view into `statistics:pnl` calls.
 */
export function Sparkline({
  protocol,
  account,
  window,
}: {
  protocol: string;
  account: string;
  window: Window;
}): ReactElement {
  const key = sparkKey(protocol, account, window);
  const shape = useSparklines((s) => s.shapes[key]);
  useEffect(() => {
    wantSparkline(key);
    return () => releaseSparkline(key);
  }, [key]);

  if (shape === undefined) return <span className="sparkline sparkline-loading" aria-hidden="true" />;
  if (shape === null) return <span className="sparkline muted">—</span>;
  const tone = shape.last >= 0 ? 'up' : 'down';
  return (
    <svg
      className={`sparkline sparkline-${tone}`}
      width={SPARK_WIDTH}
      height={SPARK_HEIGHT}
      viewBox={`0 0 ${SPARK_WIDTH} ${SPARK_HEIGHT}`}
      role="img"
      aria-label={`PnL trend, ${tone === 'up' ? 'up' : 'down'} over the window`}
    >
      {shape.zeroY !== null ? (
        <line className="sparkline-zero" x1="0" x2={SPARK_WIDTH} y1={shape.zeroY} y2={shape.zeroY} />
      ) : null}
      <path d={shape.path} />
    </svg>
  );
}
