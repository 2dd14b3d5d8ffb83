// Lists the service answers bare, which other deployments wrap in {data: [...]}
// (docs/api.md, Response wrapping, Also seen): the client accepts both.
import { z } from 'zod';
import { zList } from './common';

const isWrapped = (v: unknown): v is { data: unknown } =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && 'data' in v;

/** A bare array of `item`, or the same array wrapped in `{data}`; parses to the array. */
export const bareOrWrapped = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (isWrapped(v) ? v.data : v), zList(item)) as unknown as z.ZodType<
    z.output<T>[],
    z.input<T>[] | { data: z.input<T>[] }
  >;
