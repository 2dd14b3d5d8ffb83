import type { FastifyInstance } from 'fastify';
import { withdrawFeesPath, type WithdrawFees } from '../../../shared/profile';
import type { ServiceContext } from '../context';
import { minimumWithdrawal } from '../../copy-trading/withdrawals';

/**
 * `GET /embedded-wallets/<venue>/withdraw-fees` (outside the spec; docs/copy-trading-api.md): the
 * configured withdrawal fees and minimum, so a terminal can show the breakdown before it sends
 * anything. Read-only configuration, no credentials.
 */
export function withdrawFeeRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.get(withdrawFeesPath(ctx.config.venue), async (): Promise<WithdrawFees> => {
    const { service, transfer, withdraw } = ctx.config.withdrawFees;
    return {
      feeAmount: service,
      transferFee: transfer,
      withdrawFee: withdraw,
      minimum: minimumWithdrawal(ctx.config),
    };
  });
}
