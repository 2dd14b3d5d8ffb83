export * from './column-budget';
export * from './conditions';
export * from './generation';
export * from './page';
export * from './population';
export * from './radix-sort';
export * from './number-column';
export * from './text-column';
