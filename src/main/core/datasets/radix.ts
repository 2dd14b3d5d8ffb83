// The radix sort is shared with the local service's statistics index: one sort, one NaN rule
// (docs/statistics.md, "The columnar index").
export { countStrictlyBelow, RadixScratch, sortedIndexes } from '../../../shared/statistics-index/radix-sort';
