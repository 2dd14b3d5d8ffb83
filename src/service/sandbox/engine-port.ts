import type { CopyEvent, PriceTick, SourceOrder } from '../copy-engine/types';

/** What the sandbox and the live market need of the copy engine. */
export interface CopyEnginePort {
  processSourceOrder(order: SourceOrder): CopyEvent[];
  processPrices(ticks: PriceTick[]): CopyEvent[];
}
