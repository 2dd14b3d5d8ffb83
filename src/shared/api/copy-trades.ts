// Copy-trade configurations (docs/api.md, Copy trade; docs/api.md, Copy trading).
//
// Field schemas check types and formats only. Every value rule lives in copyTradeRuleIssues, so
// the same rules validate a create body (copyTradeCreateSchema) and the merge of a stored copy
// trade with a partial update (mergeCopyTradeUpdate): "the merged result is validated as a whole".
import { z } from 'zod';
import {
  addressSchema,
  expected,
  isoTimestampSchema,
  protocolIdSchema,
  zBool,
  zList,
  zNonEmpty,
  zNumber,
  zObject,
  zOneOf,
  zStrict,
  zText,
} from './common';

/** Sides a copy trade copies; ONLY_LONG/ONLY_SHORT are accepted aliases, output as LONG/SHORT. */
export const COPY_TRADE_SIDES = ['BOTH', 'LONG', 'SHORT'] as const;
export type CopyTradeSide = (typeof COPY_TRADE_SIDES)[number];
export const copyTradeSideSchema = zOneOf([...COPY_TRADE_SIDES, 'ONLY_LONG', 'ONLY_SHORT']).transform(
  (side): CopyTradeSide => (side === 'ONLY_LONG' ? 'LONG' : side === 'ONLY_SHORT' ? 'SHORT' : side),
);

/** Stop-loss / take-profit amount unit. */
export const AMOUNT_TYPES = ['PERCENT', 'USD'] as const;
export const amountTypeSchema = zOneOf(AMOUNT_TYPES);
export type AmountType = z.infer<typeof amountTypeSchema>;

/** Copy trade states: RUNNING ⇄ STOPPED. */
export const COPY_TRADE_STATUSES = ['RUNNING', 'STOPPED'] as const;
export const copyTradeStatusSchema = zOneOf(COPY_TRADE_STATUSES);
export type CopyTradeStatus = z.infer<typeof copyTradeStatusSchema>;

/** The only type the local service runs (docs/api.md); other values answer 400. */
export const COPY_TRADE_TYPE = 'COPY_TRADER';

/** Defaults of the optional create fields (docs/api.md, Copy trade create body). */
export const COPY_TRADE_DEFAULTS = {
  reverseCopy: false,
  enableStopLoss: false,
  stopLossType: 'USD',
  volumeProtection: true,
  enableTakeProfit: false,
  takeProfitType: 'USD',
  skipLowLeverage: false,
  skipLowCollateral: false,
  skipLowSize: false,
  copyAll: true,
  hasExclude: false,
  multipleCopy: false,
  side: 'BOTH',
} as const;

/**
 * The bounds of every number and list of a copy trade (docs/copy-trading-api.md, Bounds): the
 * terminal's form and the service check the same values, and the engine refuses to copy for a
 * stored copy trade outside them (a FAILED activity log) instead of failing the source order.
 */
export const COPY_TRADE_BOUNDS = {
  /** Margin per copied position, USD. */
  volume: { max: 1_000_000 },
  leverage: { min: 2, max: 50 },
  /** Take profit: PERCENT is ROI on margin, USD the unrealised PnL. */
  takeProfitPercent: { max: 10_000 },
  takeProfitUsd: { max: 1_000_000_000 },
  lookBackOrders: { min: 1, max: 1_000 },
  maxVolMultiplier: { max: 1_000 },
  lowLeverage: { min: 1, max: 150 },
  lowCollateral: { min: 1, max: 1_000_000_000 },
  lowSize: { min: 1, max: 1_000_000_000 },
  /** `tokenAddresses` and `excludingTokenAddresses`. */
  tokenList: { max: 500 },
  accounts: { max: 100 },
  /** Each filter list of `POST /copy-trades/list`. */
  listFilter: { max: 1_000 },
} as const;
const B = COPY_TRADE_BOUNDS;

/** A list of at most `max` items; the message names the bound. */
const boundedList = <T extends z.ZodType>(item: T, max: number) =>
  zList(item).max(max, { error: `must have at most ${max} items` });

// Optional numbers may be null so that an update can clear them.
const optionalAmount = () => zNumber().nullable().optional();

/** Create fields without defaults or value rules: the base of both create and update. */
export const copyTradeBaseSchema = zStrict({
  title: zText().trim(),
  volume: zNumber(),
  account: addressSchema,
  // Extra source accounts, used when multipleCopy is true.
  accounts: boundedList(addressSchema, B.accounts.max).optional(),
  leverage: zNumber(),
  protocol: protocolIdSchema,
  exchange: zNonEmpty(64),
  copyWalletId: zNonEmpty(),
  type: z.literal(COPY_TRADE_TYPE, { error: expected(COPY_TRADE_TYPE) }),
  excludingTokenAddresses: boundedList(zNonEmpty(), B.tokenList.max),
  tokenAddresses: boundedList(zNonEmpty(), B.tokenList.max),
  reverseCopy: zBool().optional(),
  enableStopLoss: zBool().optional(),
  stopLossType: amountTypeSchema.optional(),
  stopLossAmount: optionalAmount(),
  volumeProtection: zBool().optional(),
  lookBackOrders: optionalAmount(),
  enableTakeProfit: zBool().optional(),
  takeProfitType: amountTypeSchema.optional(),
  takeProfitAmount: optionalAmount(),
  maxVolMultiplier: optionalAmount(),
  skipLowLeverage: zBool().optional(),
  lowLeverage: optionalAmount(),
  skipLowCollateral: zBool().optional(),
  lowCollateral: optionalAmount(),
  skipLowSize: zBool().optional(),
  lowSize: optionalAmount(),
  copyAll: zBool().optional(),
  hasExclude: zBool().optional(),
  multipleCopy: zBool().optional(),
  side: copyTradeSideSchema.optional(),
});
export type CopyTradeBase = z.infer<typeof copyTradeBaseSchema>;

/** What the rules read: a create body, or a stored copy trade merged with an update. */
export type CopyTradeRuleSubject = Partial<Omit<CopyTradeBase, 'type'>>;

/** One broken rule: `path` names the field, `message` completes the sentence. */
export interface CopyTradeRuleIssue {
  path: string;
  message: string;
}

/** Every value and cross-field rule of docs/api.md; absent flags count as their defaults. */
export function copyTradeRuleIssues(t: CopyTradeRuleSubject): CopyTradeRuleIssue[] {
  const issues: CopyTradeRuleIssue[] = [];
  const fail = (path: string, message: string) => issues.push({ path, message });
  const d = COPY_TRADE_DEFAULTS;

  if (t.title !== undefined && ([...t.title].length < 1 || [...t.title].length > 40)) {
    fail('title', 'must be between 1 and 40 characters');
  }
  if (t.volume !== undefined && !(t.volume > 0 && t.volume <= B.volume.max))
    fail('volume', `must be greater than 0 and at most ${B.volume.max}`);
  if (t.leverage !== undefined && !(t.leverage >= B.leverage.min && t.leverage <= B.leverage.max))
    fail('leverage', `must be between ${B.leverage.min} and ${B.leverage.max}`);

  const stopLossType = t.stopLossType ?? d.stopLossType;
  if (t.stopLossAmount == null) {
    if (t.enableStopLoss) fail('stopLossAmount', 'is required when enableStopLoss is true');
  } else if (!(t.stopLossAmount > 0)) {
    fail('stopLossAmount', 'must be greater than 0');
  } else if (stopLossType === 'PERCENT' && t.stopLossAmount > 100) {
    fail('stopLossAmount', 'must be at most 100 when stopLossType is PERCENT');
  } else if (stopLossType === 'USD' && t.volume !== undefined && t.stopLossAmount > t.volume) {
    fail('stopLossAmount', 'must be at most volume when stopLossType is USD');
  }

  const takeProfitType = t.takeProfitType ?? d.takeProfitType;
  if (t.takeProfitAmount == null) {
    if (t.enableTakeProfit) fail('takeProfitAmount', 'is required when enableTakeProfit is true');
  } else if (!(t.takeProfitAmount > 0)) {
    fail('takeProfitAmount', 'must be greater than 0');
  } else if (takeProfitType === 'PERCENT' && t.takeProfitAmount > B.takeProfitPercent.max) {
    fail('takeProfitAmount', `must be at most ${B.takeProfitPercent.max} when takeProfitType is PERCENT`);
  } else if (takeProfitType === 'USD' && t.takeProfitAmount > B.takeProfitUsd.max) {
    fail('takeProfitAmount', `must be at most ${B.takeProfitUsd.max} when takeProfitType is USD`);
  }

  const lookBack = B.lookBackOrders;
  if (
    t.lookBackOrders != null &&
    !(
      Number.isInteger(t.lookBackOrders) &&
      t.lookBackOrders >= lookBack.min &&
      t.lookBackOrders <= lookBack.max
    )
  ) {
    fail('lookBackOrders', `must be an integer of at least ${lookBack.min} and at most ${lookBack.max}`);
  }
  if (t.maxVolMultiplier != null && !(t.maxVolMultiplier > 0 && t.maxVolMultiplier <= B.maxVolMultiplier.max))
    fail('maxVolMultiplier', `must be greater than 0 and at most ${B.maxVolMultiplier.max}`);

  // The thresholds only matter, and are only checked, when their skip flag is set.
  const threshold = (path: 'lowLeverage' | 'lowCollateral' | 'lowSize', flag: string, skip?: boolean) => {
    const value = t[path];
    const { min, max } = B[path];
    if (!skip) return;
    if (value == null) fail(path, `is required when ${flag} is true`);
    else if (!(value >= min && value <= max))
      fail(
        path,
        path === 'lowLeverage'
          ? `must be between ${min} and ${max}`
          : `must be at least ${min} and at most ${max}`,
      );
  };
  threshold('lowLeverage', 'skipLowLeverage', t.skipLowLeverage);
  threshold('lowCollateral', 'skipLowCollateral', t.skipLowCollateral);
  threshold('lowSize', 'skipLowSize', t.skipLowSize);
  // Lists are bounded by the body schema; a stored trade is checked here too (the engine's guard).
  if ((t.tokenAddresses ?? []).length > B.tokenList.max)
    fail('tokenAddresses', `must have at most ${B.tokenList.max} items`);
  if ((t.excludingTokenAddresses ?? []).length > B.tokenList.max)
    fail('excludingTokenAddresses', `must have at most ${B.tokenList.max} items`);
  if ((t.accounts ?? []).length > B.accounts.max)
    fail('accounts', `must have at most ${B.accounts.max} items`);

  if (!(t.copyAll ?? d.copyAll) && (t.tokenAddresses ?? []).length === 0) {
    fail('tokenAddresses', 'must not be empty when copyAll is false');
  }
  if ((t.hasExclude ?? d.hasExclude) && (t.excludingTokenAddresses ?? []).length === 0) {
    fail('excludingTokenAddresses', 'must not be empty when hasExclude is true');
  }
  if ((t.multipleCopy ?? d.multipleCopy) && (t.accounts ?? []).length === 0) {
    fail('accounts', 'must not be empty when multipleCopy is true');
  }
  return issues;
}

/** Reports rule issues as zod issues at their field. */
function applyRules(value: CopyTradeRuleSubject, ctx: z.RefinementCtx): void {
  for (const issue of copyTradeRuleIssues(value)) {
    ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
  }
}

/** `POST /copy-trades` body: defaults applied, every rule checked. */
export const copyTradeCreateSchema = copyTradeBaseSchema
  .extend({
    accounts: boundedList(addressSchema, B.accounts.max).default([]),
    reverseCopy: zBool().default(COPY_TRADE_DEFAULTS.reverseCopy),
    enableStopLoss: zBool().default(COPY_TRADE_DEFAULTS.enableStopLoss),
    stopLossType: amountTypeSchema.default(COPY_TRADE_DEFAULTS.stopLossType),
    volumeProtection: zBool().default(COPY_TRADE_DEFAULTS.volumeProtection),
    enableTakeProfit: zBool().default(COPY_TRADE_DEFAULTS.enableTakeProfit),
    takeProfitType: amountTypeSchema.default(COPY_TRADE_DEFAULTS.takeProfitType),
    skipLowLeverage: zBool().default(COPY_TRADE_DEFAULTS.skipLowLeverage),
    skipLowCollateral: zBool().default(COPY_TRADE_DEFAULTS.skipLowCollateral),
    skipLowSize: zBool().default(COPY_TRADE_DEFAULTS.skipLowSize),
    copyAll: zBool().default(COPY_TRADE_DEFAULTS.copyAll),
    hasExclude: zBool().default(COPY_TRADE_DEFAULTS.hasExclude),
    multipleCopy: zBool().default(COPY_TRADE_DEFAULTS.multipleCopy),
    side: copyTradeSideSchema.default(COPY_TRADE_DEFAULTS.side),
  })
  .superRefine(applyRules);
export type CopyTradeCreateInput = z.input<typeof copyTradeCreateSchema>;
export type CopyTradeCreate = z.infer<typeof copyTradeCreateSchema>;

/**
 * `PUT /copy-trades/{id}` body: any create field, plus `status`. No defaults, no value rules:
 * validate the merge with mergeCopyTradeUpdate (or copyTradeRuleIssues).
 */
export const copyTradeUpdateSchema = copyTradeBaseSchema.partial().extend({
  status: copyTradeStatusSchema.optional(),
});
export type CopyTradeUpdateInput = z.input<typeof copyTradeUpdateSchema>;
export type CopyTradeUpdate = z.infer<typeof copyTradeUpdateSchema>;

/**
 * `existing` with the fields `update` sets (an explicit undefined keeps the stored value),
 * and the rules the merged result breaks.
 */
export function mergeCopyTradeUpdate<T extends CopyTradeRuleSubject>(
  existing: T,
  update: CopyTradeUpdate,
): { merged: T & CopyTradeUpdate; issues: CopyTradeRuleIssue[] } {
  const set = Object.fromEntries(Object.entries(update).filter(([, v]) => v !== undefined));
  const merged = { ...existing, ...set } as T & CopyTradeUpdate;
  return { merged, issues: copyTradeRuleIssues(merged) };
}

const storedAmount = () => zNumber().nullable();

/** A copy trade as the service answers it. */
export const copyTradeSchema = zObject({
  id: zNonEmpty(),
  userId: zNonEmpty(),
  title: zText(),
  account: addressSchema,
  accounts: zList(addressSchema),
  copyWalletId: zNonEmpty(),
  protocol: protocolIdSchema,
  exchange: zText(),
  // Tolerant: the spec shows only COPY_TRADER and says other values exist.
  type: zText(),
  // Tolerant: other deployments may still answer the ONLY_* aliases.
  side: copyTradeSideSchema,
  volume: zNumber(),
  leverage: zNumber(),
  tokenAddresses: zList(zText()),
  excludingTokenAddresses: zList(zText()),
  copyAll: zBool(),
  hasExclude: zBool(),
  multipleCopy: zBool(),
  reverseCopy: zBool(),
  enableStopLoss: zBool(),
  stopLossType: amountTypeSchema,
  stopLossAmount: storedAmount(),
  enableTakeProfit: zBool(),
  takeProfitType: amountTypeSchema,
  takeProfitAmount: storedAmount(),
  volumeProtection: zBool(),
  lookBackOrders: storedAmount(),
  maxVolMultiplier: storedAmount(),
  skipLowLeverage: zBool(),
  lowLeverage: storedAmount(),
  skipLowCollateral: zBool(),
  lowCollateral: storedAmount(),
  skipLowSize: zBool(),
  lowSize: storedAmount(),
  status: copyTradeStatusSchema,
  createdAt: isoTimestampSchema,
});
export type CopyTrade = z.infer<typeof copyTradeSchema>;

/** `/copy-trades/list` item: adds pnl (ever, with unrealised), pnl7D, pnl30D; the spec omits lowCollateral/lowSize. */
export const copyTradeListItemSchema = copyTradeSchema
  .extend({ pnl: zNumber(), pnl7D: zNumber(), pnl30D: zNumber() })
  .partial({ lowCollateral: true, lowSize: true });
export type CopyTradeListItem = z.infer<typeof copyTradeListItemSchema>;

/** `POST /copy-trades/list` body; every filter optional (`copyWalletId` is one wallet). */
export const copyTradeListBodySchema = zStrict({
  ids: boundedList(zNonEmpty(), B.listFilter.max).optional(),
  copyWalletId: zNonEmpty().optional(),
  accounts: boundedList(addressSchema, B.listFilter.max).optional(),
  status: copyTradeStatusSchema.optional(),
  protocols: boundedList(protocolIdSchema, B.listFilter.max).optional(),
});
export type CopyTradeListBody = z.infer<typeof copyTradeListBodySchema>;
