// The copy book: each fill of a copy position written in full — the position, its copy order, its
// activity log and the wallet's balance — returning the events for the user's terminal.
import type { ActivityType } from '../../shared/api/activity-logs';
import type { CloseType } from '../../shared/api/copy-positions';
import { activityLogOf, type ActivityLogInsert } from '../copy-trading/activity-logs';
import { copyPositionOf } from '../copy-trading/copy-positions';
import { roundUsd } from '../copy-trading/money';
import type { ExitSettings } from './exits';
import type { CopyFees } from './fills';
import {
  applyClose,
  applyForceClose,
  applyIncrease,
  applyReduce,
  copySide,
  openedPosition,
} from './position-fills';
import type { FollowedTrade } from './followers';
import { engineId, engineTxHash, fillIds, type FillIds } from './ids';
import type { OpenSize } from './sizing';
import type { EnginePosition } from './position-rows';
import type { EngineStore } from './store';
import type { TokenInfo } from './token-catalogue';
import type { CopyEvent, SourceOrder } from './types';

/** What caused a fill: `label` (unique per fill) seeds its ids; `order` is null for exits and users. */
export interface Cause {
  label: string;
  atMs: number;
  order: SourceOrder | null;
}

/** Whose action a log records and on what. */
export type LogParty = Pick<
  ActivityLogInsert,
  | 'userId'
  | 'copyTradeId'
  | 'copyWalletId'
  | 'copyTradeTitle'
  | 'copyWalletName'
  | 'protocol'
  | 'exchange'
  | 'sourceAccount'
  | 'indexToken'
  | 'pair'
  | 'isLong'
  | 'isReverse'
  | 'leverage'
>;

/** An OPEN the engine decided to copy. */
export interface OpenInput {
  followed: FollowedTrade;
  account: string;
  token: TokenInfo;
  sourceKey: string;
  price: number;
  size: OpenSize;
  cause: Cause & { order: SourceOrder };
}

type PositionEventKind = 'copyPositionOpened' | 'copyPositionUpdated' | 'copyPositionClosed';

/** The activity type of a close: the exits name themselves, every other close is a CLOSE. */
const closeActivity = (closeType: CloseType): ActivityType =>
  closeType === 'LIQUIDATE' || closeType === 'STOP_LOSS' || closeType === 'TAKE_PROFIT' ? closeType : 'CLOSE';

/** Writes fills through the engine's store; every method runs inside the caller's transaction. */
export class CopyBook {
  constructor(
    private readonly store: EngineStore,
    private readonly fees: CopyFees,
    private readonly titleOf: (copyTradeId: string) => string,
  ) {}

  /** Opens a copy position; the open fee leaves the balance, the margin is held. */
  open(input: OpenInput): CopyEvent[] {
    const { followed, token, price, size, cause } = input;
    const trade = followed.trade;
    const isLong = copySide(cause.order.isLong, trade.reverseCopy);
    const money = openedPosition(trade, isLong, size, price, this.fees);
    const fee = money.openFee;
    const index = this.store.nextPositionIndex(trade.id);
    const ids = fillIds(cause.label, cause.atMs);
    // Literal fields, no spreads: V8 (Node 20) builds a spread object this wide ~100× slower.
    const p: EnginePosition = {
      id: ids.positionId,
      userId: trade.userId,
      copyTradeId: trade.id,
      copyWalletId: trade.copyWalletId,
      copyAccount: input.account,
      sourcePositionId: input.sourceKey,
      positionIndex: index,
      copyPositionIndex: index,
      indexToken: token.indexToken,
      identifyKey: `${trade.id}:${input.account}:${token.indexToken}:${isLong ? 'LONG' : 'SHORT'}`,
      pair: token.pair,
      key: engineTxHash(`key:${cause.label}`),
      sourceOrderTxHashes: [cause.order.txHash],
      sourceSizeDelta: String(cause.order.sizeDeltaUsd),
      sizeDelta: String(size.tokens),
      sourceInitialVol: String(cause.order.collateralDeltaUsd),
      totalSizeDelta: money.totalSizeDelta,
      initialVol: size.margin,
      margin: money.margin,
      isReverse: trade.reverseCopy,
      isLong,
      entryPrice: money.entryPrice,
      sizeTokens: money.sizeTokens,
      leverage: money.leverage,
      stopLossPrice: money.stopLossPrice,
      stopLossAmount: money.stopLossAmount,
      takeProfitPrice: money.takeProfitPrice,
      takeProfitAmount: money.takeProfitAmount,
      pnl: money.pnl,
      realisedPnl: money.realisedPnl,
      funding: money.funding,
      fee,
      closeType: null,
      status: 'OPEN',
      protocol: trade.protocol,
      exchange: trade.exchange,
      lastOrderAtMs: cause.atMs,
      closedAtMs: null,
      createdAtMs: cause.atMs,
    };
    this.store.insertPosition(p);
    this.store.adjustBalance(trade.copyWalletId, -fee);
    const party = this.partyOfOpen(followed, input.account, token, cause.order, size.leverage);
    return this.fill(
      'copyPositionOpened',
      party,
      p,
      'OPEN',
      cause,
      { price, notional: size.notional, fee },
      ids,
    );
  }

  /** A copy the engine could not make (`type` OPEN or INCREASE): a failed log with the reason, nothing else. */
  fail(party: LogParty, type: ActivityType, cause: Cause, price: number, notional: number, reason: string) {
    return [this.log(party, type, cause, { price, notional, orderId: null, positionId: null, reason })];
  }

  /** Adds `marginDelta` of margin at the position's leverage; the entry becomes the size-weighted mean. */
  increase(
    p: EnginePosition,
    settings: ExitSettings | null,
    marginDelta: number,
    price: number,
    cause: Cause,
  ) {
    const f = applyIncrease(p, settings, marginDelta, price, this.fees);
    this.store.adjustBalance(p.copyWalletId, f.balanceDelta);
    this.touch(p, cause);
    return this.fill('copyPositionUpdated', this.partyOfPosition(p), p, 'INCREASE', cause, {
      price,
      notional: f.notional,
      fee: f.fee,
    });
  }

  /** Closes `fraction` (< 1) of the position at `price`, releasing that fraction of its margin. */
  reduce(p: EnginePosition, settings: ExitSettings | null, fraction: number, price: number, cause: Cause) {
    const f = applyReduce(p, settings, fraction, price, this.fees);
    this.store.adjustBalance(p.copyWalletId, f.balanceDelta);
    this.touch(p, cause);
    return this.fill('copyPositionUpdated', this.partyOfPosition(p), p, 'DECREASE', cause, {
      price,
      notional: f.notional,
      fee: f.fee,
      realised: f.realised,
    });
  }

  /**
   * Closes the rest of the position at `price` with `closeType`. A price at or past the
   * liquidation price liquidates it instead: realised PnL is then minus its margin.
   */
  close(p: EnginePosition, price: number, closeType: CloseType, cause: Cause): CopyEvent[] {
    const f = applyClose(p, price, closeType, this.fees);
    this.store.adjustBalance(p.copyWalletId, f.balanceDelta);
    this.settle(p, f.closeType, cause.atMs);
    this.touch(p, cause);
    return this.fill('copyPositionClosed', this.partyOfPosition(p), p, closeActivity(f.closeType), cause, {
      price,
      notional: f.notional,
      fee: f.fee,
      realised: f.realised,
    });
  }

  /** FORCE_CLOSE: the position leaves the engine at `price` without trading: no order, no fee, no log. */
  forceClose(p: EnginePosition, price: number, atMs: number): CopyEvent[] {
    const f = applyForceClose(p, price);
    this.store.adjustBalance(p.copyWalletId, f.balanceDelta);
    this.settle(p, 'FORCE_CLOSE', atMs);
    this.touch(p, { label: '', atMs, order: null });
    return [this.positionEvent('copyPositionClosed', p)];
  }

  /** The log party of a copy the engine is about to open for `followed` from `order`. */
  partyOfOpen(
    followed: FollowedTrade,
    account: string,
    token: TokenInfo,
    order: SourceOrder,
    leverage: number,
  ) {
    const t = followed.trade;
    return {
      userId: t.userId,
      copyTradeId: t.id,
      copyWalletId: t.copyWalletId,
      copyTradeTitle: t.title,
      copyWalletName: this.store.walletName(t.copyWalletId),
      protocol: t.protocol,
      exchange: t.exchange,
      sourceAccount: account,
      indexToken: token.indexToken,
      pair: token.pair,
      isLong: copySide(order.isLong, t.reverseCopy),
      isReverse: t.reverseCopy,
      leverage,
    } satisfies LogParty;
  }

  /** The log party of an existing position. */
  partyOfPosition(p: EnginePosition): LogParty {
    return {
      userId: p.userId,
      copyTradeId: p.copyTradeId,
      copyWalletId: p.copyWalletId,
      copyTradeTitle: this.titleOf(p.copyTradeId),
      copyWalletName: this.store.walletName(p.copyWalletId),
      protocol: p.protocol,
      exchange: p.exchange,
      sourceAccount: p.copyAccount,
      indexToken: p.indexToken,
      pair: p.pair,
      isLong: p.isLong,
      isReverse: p.isReverse,
      leverage: p.leverage,
    };
  }

  /** A closed position holds nothing. */
  private settle(p: EnginePosition, closeType: CloseType, atMs: number): void {
    p.margin = 0;
    p.sizeTokens = 0;
    p.status = 'CLOSE';
    p.closeType = closeType;
    p.closedAtMs = atMs;
  }

  /** Stamps the fill on the position (its time, the source order's hash) and saves it. */
  private touch(p: EnginePosition, cause: Cause): void {
    p.lastOrderAtMs = cause.atMs;
    if (cause.order) p.sourceOrderTxHashes.push(cause.order.txHash);
    this.store.save(p);
  }

  /** Writes the fill's copy order and activity log; returns the position event and the log event. */
  private fill(
    kind: PositionEventKind,
    party: LogParty,
    p: EnginePosition,
    type: ActivityType,
    cause: Cause,
    f: { price: number; notional: number; fee: number; realised?: number },
    ids: FillIds = fillIds(cause.label, cause.atMs),
  ): CopyEvent[] {
    const orderId = ids.orderId;
    const realised = f.realised ?? 0;
    this.store.insertOrder({
      id: orderId,
      copyPositionId: p.id,
      userId: party.userId,
      price: f.price,
      size: f.notional,
      pnl: roundUsd(realised - f.fee),
      realisedPnl: realised,
      fee: f.fee,
      isLong: party.isLong,
      isIncrease: type === 'OPEN' || type === 'INCREASE',
      protocol: party.protocol,
      txHash: ids.txHash,
      createdAtMs: cause.atMs,
    });
    const log = this.log(party, type, cause, {
      price: f.price,
      notional: f.notional,
      orderId,
      positionId: p.id,
      logId: ids.logId,
    });
    return [this.positionEvent(kind, p), log];
  }

  private log(
    party: LogParty,
    type: ActivityType,
    cause: Cause,
    a: {
      price: number;
      notional: number;
      orderId: string | null;
      positionId: string | null;
      reason?: string;
      /** A fill's log id (fillIds); a failed copy's is derived here. */
      logId?: string;
    },
  ): CopyEvent {
    const row: ActivityLogInsert = {
      userId: party.userId,
      copyTradeId: party.copyTradeId,
      copyWalletId: party.copyWalletId,
      copyTradeTitle: party.copyTradeTitle,
      copyWalletName: party.copyWalletName,
      protocol: party.protocol,
      exchange: party.exchange,
      sourceAccount: party.sourceAccount,
      indexToken: party.indexToken,
      pair: party.pair,
      isLong: party.isLong,
      isReverse: party.isReverse,
      leverage: party.leverage,
      id: a.logId ?? engineId(`log:${cause.label}`, cause.atMs),
      copyPositionId: a.positionId,
      copyOrderId: a.orderId,
      sourceTxHash: cause.order?.txHash ?? '',
      cexOrderId: null,
      price: a.price,
      sourcePrice: cause.order?.price ?? a.price,
      volume: a.notional,
      isSuccess: a.reason === undefined,
      type,
      reason: a.reason ?? '',
      createdAtMs: cause.atMs,
    };
    this.store.insertLog(row);
    return { kind: 'activityLog', userId: party.userId, activityLog: activityLogOf(row) };
  }

  private positionEvent(kind: PositionEventKind, p: EnginePosition): CopyEvent {
    return { kind, userId: p.userId, copyPosition: copyPositionOf(p, this.titleOf(p.copyTradeId)) };
  }
}
