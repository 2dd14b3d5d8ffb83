const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** `12500` → `12,500`. */
export const formatInteger = (value: number): string => integer.format(value);
