// Tradable tokens grouped by protocol (docs/api.md, Token listing).
import { z } from 'zod';
import { expected, zBool, zList, zObject, zText } from './common';

/** One tradable token: its symbol and the token identifiers that trade it. */
export const tokenEntrySchema = zObject({
  symbol: zText(),
  indexTokens: zList(zText()),
  isForex: zBool(),
});
export type TokenEntry = z.infer<typeof tokenEntrySchema>;

/** `GET /pairs/tokens` answer: `{data: {<PROTOCOL>: [entries]}}`. */
export const tokensResponseSchema = zObject({
  // Tolerant: keys are protocol ids, not checked here so that one odd key does not hide the rest.
  data: z.record(zText(), zList(tokenEntrySchema), { error: expected('an object keyed by protocol') }),
});
export type TokensResponse = z.infer<typeof tokensResponseSchema>;
