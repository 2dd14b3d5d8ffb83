// The copy-trade form as the user types it, and its translation to the create and update bodies.
// Every value rule comes from the shared contract (copyTradeCreateSchema runs copyTradeRuleIssues),
// so the form says exactly what the service would refuse, before anything is sent (docs/api.md).
import type { AmountType, CopyTrade, CopyTradeCreateInput, CopyTradeSide } from '@shared/api/copy-trades';
import { COPY_TRADE_DEFAULTS, COPY_TRADE_TYPE, copyTradeCreateSchema } from '@shared/api/copy-trades';
import type { CopyTradeUpdateInput } from '@shared/api/copy-trades';

/** Every option of the create body; numbers stay text while typed so "1." or "" are allowed. */
export interface CopyTradeFormValues {
  title: string;
  account: string;
  protocol: string;
  copyWalletId: string;
  /** The exchange of the chosen copy wallet (the service checks it against its venue). */
  exchange: string;
  volume: string;
  leverage: string;
  side: CopyTradeSide;
  reverseCopy: boolean;
  multipleCopy: boolean;
  accounts: string[];
  copyAll: boolean;
  tokenAddresses: string[];
  hasExclude: boolean;
  excludingTokenAddresses: string[];
  enableStopLoss: boolean;
  stopLossType: AmountType;
  stopLossAmount: string;
  enableTakeProfit: boolean;
  takeProfitType: AmountType;
  takeProfitAmount: string;
  volumeProtection: boolean;
  lookBackOrders: string;
  maxVolMultiplier: string;
  skipLowLeverage: boolean;
  lowLeverage: string;
  skipLowCollateral: boolean;
  lowCollateral: string;
  skipLowSize: boolean;
  lowSize: string;
}

export type CopyTradeField = keyof CopyTradeFormValues;

/** What a user reads for each field, in labels and inside rule messages. */
const FIELD_LABELS: Record<CopyTradeField, string> = {
  title: 'Title',
  account: 'Trader',
  protocol: 'Protocol',
  copyWalletId: 'Copy wallet',
  exchange: 'Exchange',
  volume: 'Margin per position',
  leverage: 'Leverage',
  side: 'Sides',
  reverseCopy: 'Reverse copy',
  multipleCopy: 'Copy several traders',
  accounts: 'Other traders',
  copyAll: 'All tokens',
  tokenAddresses: 'Tokens to copy',
  hasExclude: 'Exclude tokens',
  excludingTokenAddresses: 'Tokens to exclude',
  enableStopLoss: 'Stop loss',
  stopLossType: 'Stop-loss unit',
  stopLossAmount: 'Stop-loss amount',
  enableTakeProfit: 'Take profit',
  takeProfitType: 'Take-profit unit',
  takeProfitAmount: 'Take-profit amount',
  volumeProtection: 'Volume protection',
  lookBackOrders: 'Look-back orders',
  maxVolMultiplier: 'Max volume multiplier',
  skipLowLeverage: 'Skip low leverage',
  lowLeverage: 'Minimum leverage',
  skipLowCollateral: 'Skip low collateral',
  lowCollateral: 'Minimum collateral',
  skipLowSize: 'Skip low size',
  lowSize: 'Minimum size',
};

const isField = (name: string): name is CopyTradeField => name in FIELD_LABELS;

/** The form of a new copy trade: the contract's defaults, nothing chosen yet. */
export function emptyCopyTradeForm(prefill: Partial<CopyTradeFormValues> = {}): CopyTradeFormValues {
  const d = COPY_TRADE_DEFAULTS;
  return {
    title: '',
    account: '',
    protocol: '',
    copyWalletId: '',
    exchange: '',
    volume: '',
    leverage: '',
    side: d.side,
    reverseCopy: d.reverseCopy,
    multipleCopy: d.multipleCopy,
    accounts: [],
    copyAll: d.copyAll,
    tokenAddresses: [],
    hasExclude: d.hasExclude,
    excludingTokenAddresses: [],
    enableStopLoss: d.enableStopLoss,
    stopLossType: d.stopLossType,
    stopLossAmount: '',
    enableTakeProfit: d.enableTakeProfit,
    takeProfitType: d.takeProfitType,
    takeProfitAmount: '',
    volumeProtection: d.volumeProtection,
    lookBackOrders: '',
    maxVolMultiplier: '',
    skipLowLeverage: d.skipLowLeverage,
    lowLeverage: '',
    skipLowCollateral: d.skipLowCollateral,
    lowCollateral: '',
    skipLowSize: d.skipLowSize,
    lowSize: '',
    ...prefill,
  };
}

/** A stored copy trade or a list item (which may omit lowCollateral and lowSize). */
export type EditableCopyTrade = Omit<CopyTrade, 'lowCollateral' | 'lowSize'> & {
  lowCollateral?: number | null;
  lowSize?: number | null;
};

const text = (n: number | null | undefined): string => (n === null || n === undefined ? '' : String(n));

/** The form of an existing copy trade, to edit it. */
export function copyTradeToForm(trade: EditableCopyTrade): CopyTradeFormValues {
  return {
    title: trade.title,
    account: trade.account,
    protocol: trade.protocol,
    copyWalletId: trade.copyWalletId,
    exchange: trade.exchange,
    volume: text(trade.volume),
    leverage: text(trade.leverage),
    side: trade.side,
    reverseCopy: trade.reverseCopy,
    multipleCopy: trade.multipleCopy,
    accounts: [...trade.accounts],
    copyAll: trade.copyAll,
    tokenAddresses: [...trade.tokenAddresses],
    hasExclude: trade.hasExclude,
    excludingTokenAddresses: [...trade.excludingTokenAddresses],
    enableStopLoss: trade.enableStopLoss,
    stopLossType: trade.stopLossType,
    stopLossAmount: text(trade.stopLossAmount),
    enableTakeProfit: trade.enableTakeProfit,
    takeProfitType: trade.takeProfitType,
    takeProfitAmount: text(trade.takeProfitAmount),
    volumeProtection: trade.volumeProtection,
    lookBackOrders: text(trade.lookBackOrders),
    maxVolMultiplier: text(trade.maxVolMultiplier),
    skipLowLeverage: trade.skipLowLeverage,
    lowLeverage: text(trade.lowLeverage),
    skipLowCollateral: trade.skipLowCollateral,
    lowCollateral: text(trade.lowCollateral),
    skipLowSize: trade.skipLowSize,
    lowSize: text(trade.lowSize),
  };
}

/**
 * Text → number for the body: "" is absent, anything else is Number() of it (NaN when it is not
 * a number, which the contract then refuses with "must be a number").
 */
export function parseAmount(value: string): number | undefined {
  const t = value.trim().replace(/,/g, '');
  if (t === '') return undefined;
  return /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t) ? Number(t) : Number.NaN;
}

const ADDRESS_SEPARATOR = /[\s,;]+/;

/** Addresses pasted or typed in one box, one per line or separated by commas or spaces. */
export function splitAddresses(value: string): string[] {
  return [
    ...new Set(
      value
        .split(ADDRESS_SEPARATOR)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

const OPTIONAL_AMOUNTS = [
  'stopLossAmount',
  'takeProfitAmount',
  'lookBackOrders',
  'maxVolMultiplier',
  'lowLeverage',
  'lowCollateral',
  'lowSize',
] as const;

/** The create body of the form: every option, optional amounts left out when empty. */
export function formToCreateBody(v: CopyTradeFormValues): CopyTradeCreateInput {
  const body: Record<string, unknown> = {
    title: v.title,
    volume: parseAmount(v.volume),
    account: v.account.trim(),
    accounts: v.multipleCopy ? v.accounts : [],
    leverage: parseAmount(v.leverage),
    protocol: v.protocol,
    exchange: v.exchange,
    copyWalletId: v.copyWalletId,
    type: COPY_TRADE_TYPE,
    // Lists that their switch turns off are sent empty: the engine ignores them anyway, and an
    // empty list is what the user sees.
    tokenAddresses: v.copyAll ? [] : v.tokenAddresses,
    excludingTokenAddresses: v.copyAll && v.hasExclude ? v.excludingTokenAddresses : [],
    reverseCopy: v.reverseCopy,
    enableStopLoss: v.enableStopLoss,
    stopLossType: v.stopLossType,
    volumeProtection: v.volumeProtection,
    enableTakeProfit: v.enableTakeProfit,
    takeProfitType: v.takeProfitType,
    skipLowLeverage: v.skipLowLeverage,
    skipLowCollateral: v.skipLowCollateral,
    skipLowSize: v.skipLowSize,
    copyAll: v.copyAll,
    hasExclude: v.copyAll && v.hasExclude,
    multipleCopy: v.multipleCopy,
    side: v.side,
  };
  // An amount whose switch is off is not sent: its value would be checked but never used.
  const active: Record<(typeof OPTIONAL_AMOUNTS)[number], boolean> = {
    stopLossAmount: v.enableStopLoss,
    takeProfitAmount: v.enableTakeProfit,
    lookBackOrders: v.volumeProtection,
    maxVolMultiplier: true,
    lowLeverage: v.skipLowLeverage,
    lowCollateral: v.skipLowCollateral,
    lowSize: v.skipLowSize,
  };
  for (const field of OPTIONAL_AMOUNTS) {
    const n = active[field] ? parseAmount(v[field]) : undefined;
    if (n !== undefined) body[field] = n;
  }
  return body as CopyTradeCreateInput;
}

/** Field → the sentence under it. Only the first problem of a field is kept. */
export type FormIssues = Partial<Record<CopyTradeField, string>>;

const IDENTIFIER = /\b([a-z]+[A-Z][A-Za-z]*|volume|leverage|title|accounts)\b/g;

/** "must be at most volume when stopLossType is USD" → "must be at most Margin per position when Stop-loss unit is USD". */
export function humanizeRule(message: string): string {
  return message
    .replace(IDENTIFIER, (word) => (isField(word) ? FIELD_LABELS[word] : word))
    .replace(/ is true\b/g, ' is on')
    .replace(/ is false\b/g, ' is off');
}

/**
 * Every problem of the form, by field, from the shared create schema (types, formats and the
 * value and cross-field rules of docs/api.md). Empty when the body may be sent.
 */
export function copyTradeFormIssues(v: CopyTradeFormValues): FormIssues {
  const parsed = copyTradeCreateSchema.safeParse(formToCreateBody(v));
  const issues: FormIssues = {};
  if (parsed.success) return issues;
  for (const issue of parsed.error.issues) {
    const head = issue.path[0];
    const field: CopyTradeField | null = typeof head === 'string' && isField(head) ? head : null;
    if (!field || issues[field]) continue;
    const index = typeof issue.path[1] === 'number' ? `entry ${issue.path[1] + 1} ` : '';
    issues[field] = `${index}${humanizeRule(issue.message)}`;
  }
  return issues;
}

const sameList = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The update body: only what changed between `original` and the edited form. A cleared amount
 * is sent as null so the service forgets it; the service validates the merge as a whole.
 */
export function formToUpdateChanges(
  original: CopyTradeFormValues,
  edited: CopyTradeFormValues,
): CopyTradeUpdateInput {
  const before = formToCreateBody(original) as Record<string, unknown>;
  const after = formToCreateBody(edited) as Record<string, unknown>;
  const changes: Record<string, unknown> = {};
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  keys.delete('type');
  for (const key of keys) {
    const a = before[key];
    const b = after[key];
    if (Array.isArray(a) && Array.isArray(b)) {
      if (!sameList(a as string[], b as string[])) changes[key] = b;
    } else if (a !== b) {
      changes[key] = b === undefined ? null : b;
    }
  }
  return changes as CopyTradeUpdateInput;
}
