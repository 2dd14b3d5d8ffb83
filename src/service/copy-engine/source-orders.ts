// What the engine accepts as a source order: a guard against values that would corrupt the books
// (the ingestion validates its own input; this catches what slips through).
import { ServiceError } from '../http/errors';
import type { SourceOrder } from './types';

const TYPES: readonly string[] = ['OPEN', 'INCREASE', 'DECREASE', 'CLOSE', 'MARGIN_TRANSFERRED'];
const AMOUNTS = ['sizeDeltaUsd', 'collateralDeltaUsd', 'sizeBeforeUsd', 'collateralBeforeUsd'] as const;

const invalid = (message: string) => new ServiceError('VALIDATION_FAILED', `source order ${message}`);

/** @throws ServiceError VALIDATION_FAILED naming the first field that is not what the engine needs. */
export function assertSourceOrder(o: SourceOrder): void {
  for (const field of ['id', 'account', 'protocol', 'indexToken', 'txHash'] as const) {
    if (typeof o[field] !== 'string' || o[field] === '') throw invalid(`${field} must be a non-empty string`);
  }
  if (!TYPES.includes(o.type)) throw invalid(`type must be one of ${TYPES.join(', ')}`);
  for (const field of AMOUNTS) {
    if (!(Number.isFinite(o[field]) && o[field] >= 0)) throw invalid(`${field} must be a number ≥ 0`);
  }
  if (!(Number.isFinite(o.price) && o.price > 0)) throw invalid('price must be a number > 0');
  if (!Number.isFinite(o.blockTimeMs)) throw invalid('blockTimeMs must be epoch milliseconds');
}
