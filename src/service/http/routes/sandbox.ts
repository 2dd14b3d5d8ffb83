import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { validate } from '../validate';
import { prepareCached } from '../../../node/sqlite';
import type { LiveStatistics } from '../../statistics/compute/live-statistics';
import type { CopyEnginePort } from '../../sandbox/engine-port';
import {
  sandboxDepositBodySchema,
  sandboxOrdersBodySchema,
  sandboxPricesBodySchema,
  type SandboxOrder,
} from '../../sandbox/schemas';
import type { CopyEvent } from '../../copy-engine/types';
import { applySandboxOrder } from '../../sandbox/source-positions';

/** What `POST /sandbox/orders` answers for each order. */
interface SandboxOrderResult {
  id: string;
  status: 'applied' | 'duplicate';
  copyEvents: number;
}

/**
 * The sandbox (outside the spec), for tests and for users who feed their own data: trader
 * orders, mark prices and deposits, guarded by the admin key (`x-admin-key`). A request's orders
 * are applied, copied and marked in one transaction, so a retry or a crash never applies one
 * twice, and a bad one changes nothing.
 */
export function sandboxRoutes(
  app: FastifyInstance,
  ctx: ServiceContext,
  deps: { engine: CopyEnginePort; statistics: LiveStatistics },
): void {
  const admin = (request: FastifyRequest) =>
    requireAdmin(ctx.config.adminKey, request.headers['x-admin-key']);
  const seen = prepareCached(ctx.db, 'SELECT 1 FROM sandbox_orders WHERE id = ?');
  const remember = prepareCached(
    ctx.db,
    'INSERT INTO sandbox_orders (id, body, received_at_ms) VALUES (?, ?, ?)',
  );
  // A request is one transaction, all or nothing: an order that does not fit refuses the whole
  // request with nothing applied (and a sender can fix it and send it all again), and the request
  // pays for one commit rather than one per order. Each order is still applied, then copied, in
  // turn (the engine's own transaction nests as a savepoint), as if sent one by one.
  const ingest = ctx.db.transaction((orders: readonly SandboxOrder[]) => {
    const data: SandboxOrderResult[] = [];
    const events: CopyEvent[] = [];
    orders.forEach((order, i) => {
      if (seen.get(order.id)) {
        data.push({ id: order.id, status: 'duplicate', copyEvents: 0 });
        return;
      }
      remember.run(order.id, JSON.stringify(order), ctx.config.now().getTime());
      const applied = applySandboxOrder(ctx.db, order, `orders[${i}]`);
      const copied = deps.engine.processSourceOrder(applied.source);
      deps.statistics.traderChanged(applied.source.protocol, applied.source.account);
      events.push(...copied);
      data.push({ id: order.id, status: 'applied', copyEvents: copied.length });
    });
    return { data, events };
  });

  app.post('/sandbox/orders', async (request) => {
    admin(request);
    const { orders } = validate(sandboxOrdersBodySchema, request.body);
    let ingested: { data: SandboxOrderResult[]; events: CopyEvent[] };
    try {
      ingested = ingest(orders);
    } catch (error) {
      // The rollback undid the statistics stored for the orders applied before the bad one; the
      // index in memory forgets them too, and is rebuilt from what is stored when next used.
      deps.statistics.forget();
      throw error;
    }
    ctx.events.publish(ingested.events);
    return { data: ingested.data };
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
