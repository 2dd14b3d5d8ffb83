import { z } from 'zod';

/**
 * The service profile (docs/api.md): how to reach one deployment and how it names things.
 * This is the one module that spells the default venue; everything else builds venue-specific
 * paths, field names and exchange values from a profile through the functions below.
 */
export const DEFAULT_VENUE = 'perpx';
export const DEFAULT_GRAPHQL_NAMESPACE = 'local';
export const DEFAULT_SERVICE_NAME = 'Copydesk Local';
export const LOCAL_PROFILE_ID = 'local';

const usd = z.number({ message: 'must be a number' }).min(0, { message: 'must be at least 0' });

/**
 * A deployment's withdrawal fees in USD (docs/api.md, Copy wallets and withdrawal): the service
 * fee, the venue's transfer and withdraw fees, and the smallest amount accepted (5 + all fees on
 * the local service).
 */
export const withdrawFeesSchema = z.strictObject({
  feeAmount: usd,
  transferFee: usd,
  withdrawFee: usd,
  minimum: usd,
});
export type WithdrawFees = z.infer<typeof withdrawFeesSchema>;

export const serviceProfileSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[a-z0-9-]{1,40}$/, { message: 'must be 1 to 40 lowercase letters, digits or dashes' }),
  name: z
    .string()
    .min(1, { message: 'must not be empty' })
    .max(60, { message: 'must be at most 60 characters' }),
  kind: z.enum(['local', 'remote'], { message: 'must be local or remote' }),
  baseUrl: z.url({ protocol: /^https?$/, message: 'must be an http or https URL' }),
  serviceName: z.string().min(1, { message: 'must not be empty' }),
  venue: z.string().regex(/^[a-z][a-z0-9]*$/, { message: 'must be lowercase letters and digits' }),
  graphqlNamespace: z
    .string()
    .regex(/^[a-z][a-z0-9_]*$/, { message: 'must be lowercase letters, digits or _' }),
  /**
   * Withdrawal fees to assume when the deployment does not publish them (its
   * `GET /embedded-wallets/<venue>/withdraw-fees` is missing); the service still has the last word.
   */
  withdrawFees: withdrawFeesSchema.optional(),
});
/** One deployment of the service the terminal can talk to. */
export type ServiceProfile = z.infer<typeof serviceProfileSchema>;

/** The `exchange` value of a venue: `perpx` → `PERPX`. */
export const exchangeOf = (venue: string): string => venue.toUpperCase();
/** `/copy-wallets/<venue>-embedded/list`. */
export const embeddedWalletsPath = (venue: string): string => `/copy-wallets/${venue}-embedded/list`;
/** `/embedded-wallets/<venue>/withdraw`. */
export const withdrawPath = (venue: string): string => `/embedded-wallets/${venue}/withdraw`;
/** `/embedded-wallets/<venue>/withdraw-fees` (outside the spec: docs/copy-trading-api.md). */
export const withdrawFeesPath = (venue: string): string => `/embedded-wallets/${venue}/withdraw-fees`;
/** `/public/position/statistic-<venue>/pnl-statistics`. */
export const pnlStatisticsPath = (venue: string): string =>
  `/public/position/statistic-${venue}/pnl-statistics`;
/** Fee field names of the withdrawal record: `<venue>WithdrawFeeAmount`, `<venue>TransferFeeAmount`. */
export const venueFeeFields = (venue: string) =>
  ({ withdrawFee: `${venue}WithdrawFeeAmount`, transferFee: `${venue}TransferFeeAmount` }) as const;
