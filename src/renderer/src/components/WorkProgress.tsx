import type { ReactElement } from 'react';
import { formatInteger } from '@renderer/format/number';
import { useExportProgress } from '@renderer/stores/export-progress';
import { selectServiceBadge, selectServiceMessage, useService } from '@renderer/stores/service';
import { ProgressBar } from './ProgressBar';

// "Preparing the market world: positions 42%" (local-service/service-process.ts).
const SEEDING = /:\s*(\w+)\s+(\d+)%/;

/** The step and percent of a seeding message, or null for any other message. */
export function seedingOf(message: string | null): { step: string; percent: number } | null {
  const match = message ? SEEDING.exec(message) : null;
  return match?.[1] && match[2] ? { step: match[1], percent: Number(match[2]) } : null;
}

/** The first start's seeding of the demo world, as a bar in the top bar. */
export function SeedingProgress(): ReactElement | null {
  const badge = useService(selectServiceBadge);
  const message = useService(selectServiceMessage);
  const seeding = badge === 'starting' ? seedingOf(message) : null;
  if (!seeding) return null;
  return (
    <ProgressBar
      className="topbar-progress"
      value={seeding.percent / 100}
      label="Preparing the market world"
      detail={`Preparing ${seeding.step} ${seeding.percent}%`}
      testId="seeding-progress"
    />
  );
}

/** A CSV export writing its rows. */
export function ExportProgress(): ReactElement | null {
  const progress = useExportProgress((s) => s.progress);
  if (!progress) return null;
  const value = progress.total > 0 ? progress.done / progress.total : null;
  return (
    <ProgressBar
      className="topbar-progress"
      value={value}
      label="Exporting rows"
      detail={`Export ${formatInteger(progress.done)} / ${formatInteger(progress.total)}`}
      testId="export-progress"
    />
  );
}
