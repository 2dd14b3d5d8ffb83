import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { validate } from '../validate';
import { prepareCached } from '../../../node/sqlite';
import type { LiveStatistics } from '../../statistics/live-statistics';
import type { CopyEnginePort } from '../../sandbox/engine-port';
import {
  sandboxDepositBodySchema,
  sandboxOrdersBodySchema,
  sandboxPricesBodySchema,
} from '../../sandbox/schemas';
import { applySandboxOrder } from '../../sandbox/source-positions';

/**
 * The sandbox (outside the spec), for tests and for users who feed their own data: trader
 * orders, mark prices and deposits, guarded by the admin key (`x-admin-key`). Each order is
 * applied, copied and marked in one transaction, so a retry or a crash never applies it twice.
 */
export function sandboxRoutes(
  app: FastifyInstance,
  ctx: ServiceContext,
  deps: { engine: CopyEnginePort; statistics: LiveStatistics },
): void {
  const admin = (request: FastifyRequest) =>
    requireAdmin(ctx.config.adminKey, request.headers['x-admin-key']);

  app.post('/sandbox/orders', async (request) => {
    admin(request);
    const { orders } = validate(sandboxOrdersBodySchema, request.body);
    const seen = prepareCached(ctx.db, 'SELECT 1 FROM sandbox_orders WHERE id = ?');
    const remember = prepareCached(
      ctx.db,
      'INSERT INTO sandbox_orders (id, body, received_at_ms) VALUES (?, ?, ?)',
    );
    const data = orders.map((order, i) => {
      if (seen.get(order.id)) return { id: order.id, status: 'duplicate', copyEvents: 0 };
      const events = ctx.db.transaction(() => {
        remember.run(order.id, JSON.stringify(order), ctx.config.now().getTime());
        const applied = applySandboxOrder(ctx.db, order, `orders[${i}]`);
        const copied = deps.engine.processSourceOrder(applied.source);
        deps.statistics.traderChanged(applied.source.protocol, applied.source.account);
        return copied;
      })();
      ctx.events.publish(events);
      return { id: order.id, status: 'applied', copyEvents: events.length };
    });
    return { data };
  });

  app.post('/sandbox/prices', async (request) => {
    admin(request);
    const { prices } = validate(sandboxPricesBodySchema, request.body);
    const events = deps.engine.processPrices(
      prices.map((p) => ({ indexToken: p.indexToken, price: p.price, timeMs: p.time })),
    );
    ctx.events.publish(events);
    return { data: { prices: prices.length, copyEvents: events.length } };
  });

  app.post('/sandbox/deposit', async (request) => {
    admin(request);
    const { address, amount } = validate(sandboxDepositBodySchema, request.body);
    const wallet = prepareCached(
      ctx.db,
      'UPDATE copy_wallets SET balance = balance + ? WHERE embedded_wallet = ? COLLATE NOCASE AND is_embedded = 1 RETURNING id, balance',
    ).get(amount, address) as { id: string; balance: number } | undefined;
    if (!wallet)
      throw new ServiceError('NOT_FOUND', `address ${address} is not an embedded wallet of this service`);
    return { data: { copyWalletId: wallet.id, balance: wallet.balance } };
  });
}

function requireAdmin(adminKey: string | null, given: string | string[] | undefined): void {
  if (adminKey === null)
    throw new ServiceError(
      'FORBIDDEN',
      'the sandbox is off: start the service with --admin-key KEY (or COPYDESK_ADMIN_KEY)',
    );
  const value = Array.isArray(given) ? given[0] : given;
  const a = Buffer.from(value ?? '');
  const b = Buffer.from(adminKey);
  if (a.length !== b.length || !timingSafeEqual(a, b))
    throw new ServiceError('UNAUTHORIZED', 'the sandbox needs the admin key in the x-admin-key header');
}
