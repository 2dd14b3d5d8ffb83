// Creating and updating copy trades: the contract's rules, the service's own checks (wallet,
// protocol, exchange) and the quota, which is checked and used in one transaction.
import { randomUUID } from 'node:crypto';
import {
  copyTradeCreateSchema,
  copyTradeUpdateSchema,
  mergeCopyTradeUpdate,
  type CopyTrade,
  type CopyTradeRuleIssue,
} from '../../shared/api/copy-trades';
import { exchangeOf } from '../../shared/profile';
import type { ServiceContext } from '../http/context';
import { ServiceError } from '../http/errors';
import { validate } from '../http/validate';
import { storedProtocols } from '../market/token-listing';
import type { UserRecord } from '../users/users';
import { findUserWallet } from './copy-wallets';
import {
  countRunningCopyTrades,
  findCopyTrade,
  insertCopyTrade,
  saveCopyTrade,
  shapeCopyTrade,
} from './copy-trades';

/** The rules the contract cannot check: they need the store and the configuration. */
function serviceIssues(ctx: ServiceContext, userId: string, trade: CopyTrade): CopyTradeRuleIssue[] {
  const issues: CopyTradeRuleIssue[] = [];
  if (!findUserWallet(ctx.db, userId, trade.copyWalletId)) {
    issues.push({
      path: 'copyWalletId',
      message: `must be one of your copy wallets, not "${trade.copyWalletId.slice(0, 60)}"`,
    });
  }
  const protocols = [...storedProtocols(ctx.db)].sort();
  if (!protocols.includes(trade.protocol)) {
    issues.push({ path: 'protocol', message: `must be a known protocol (${protocols.join(', ')})` });
  }
  const exchange = exchangeOf(ctx.config.venue);
  if (trade.exchange !== exchange) issues.push({ path: 'exchange', message: `must be ${exchange}` });
  return issues;
}

function throwIssues(issues: readonly CopyTradeRuleIssue[]): void {
  if (issues.length === 0) return;
  throw new ServiceError('VALIDATION_FAILED', issues.map((i) => `${i.path} ${i.message}`).join('; '));
}

/** 409 when one more RUNNING copy trade would exceed the user's quota. Call inside the writing transaction. */
function assertQuotaRoom(ctx: ServiceContext, user: UserRecord): void {
  const running = countRunningCopyTrades(ctx.db, user.id);
  if (running + 1 > user.copyTradeQuota) {
    throw new ServiceError(
      'QUOTA_EXCEEDED',
      `status RUNNING would exceed your copyTradeQuota: you may run at most ${user.copyTradeQuota} copy trades at once and run ${running}; stop one first`,
    );
  }
}

/** `POST /copy-trades`: validates `body`, then stores a RUNNING copy trade if the quota has room. */
export function createCopyTrade(ctx: ServiceContext, user: UserRecord, body: unknown): CopyTrade {
  const input = validate(copyTradeCreateSchema, body);
  const trade = shapeCopyTrade({
    ...input,
    id: randomUUID(),
    userId: user.id,
    status: 'RUNNING',
    createdAt: ctx.config.now().toISOString(),
  });
  throwIssues(serviceIssues(ctx, user.id, trade));
  // better-sqlite3 is synchronous: count and insert run with nothing interleaved.
  ctx.db.transaction(() => {
    assertQuotaRoom(ctx, user);
    insertCopyTrade(ctx.db, trade);
  })();
  return trade;
}

/**
 * `PUT /copy-trades/{id}`: merges the partial `body` into the stored trade and validates the
 * whole; STOPPED→RUNNING needs quota room. Open copy positions are left as they are.
 */
export function updateCopyTrade(ctx: ServiceContext, user: UserRecord, id: string, body: unknown): CopyTrade {
  const existing = findCopyTrade(ctx.db, user.id, id);
  if (!existing) throw new ServiceError('NOT_FOUND', `copy trade ${id.slice(0, 60)} does not exist`);
  const update = validate(copyTradeUpdateSchema, body);
  const { merged, issues } = mergeCopyTradeUpdate(existing, update);
  throwIssues(issues);
  const trade = shapeCopyTrade(merged);
  throwIssues(serviceIssues(ctx, user.id, trade));
  // Nothing is awaited between the read above and this write, so `existing` is still current.
  ctx.db.transaction(() => {
    if (existing.status === 'STOPPED' && trade.status === 'RUNNING') assertQuotaRoom(ctx, user);
    saveCopyTrade(ctx.db, trade, ctx.config.now().getTime());
  })();
  return trade;
}
