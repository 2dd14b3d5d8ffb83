import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CopyPosition } from '../../../shared/api/copy-positions';
import { authenticate } from '../../auth/credentials';
import type { CopyEngine } from '../../copy-engine/engine';
import type { CopyEvent } from '../../copy-engine/types';
import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';

type IdParams = { Params: { id: string } };

/** The closed position among a close's events (a close always writes one). */
function closedPosition(events: readonly CopyEvent[]): CopyPosition {
  for (const event of events) if (event.kind === 'copyPositionClosed') return event.copyPosition;
  throw new Error('a close wrote no closed copy position');
}

/**
 * `POST /copy-positions/{id}/close` (MANUAL, at the mark) and `POST /copy-positions/{id}/unlink`
 * (FORCE_CLOSE, no trade): JWT, own positions only (another user's or an unknown id answers 404,
 * a closed one 409); each answers the closed copy position and hands the events to `onEvents`.
 */
export function copyPositionActionRoutes(
  app: FastifyInstance,
  ctx: ServiceContext,
  engine: CopyEngine,
  onEvents: (events: CopyEvent[]) => void = (events) => ctx.events.publish(events),
): void {
  const userIdOf = async (request: FastifyRequest): Promise<string> => {
    const caller = await authenticate(ctx, request, 'jwt');
    if (caller.kind !== 'user')
      throw new ServiceError('UNAUTHORIZED', 'this endpoint needs a logged-in user');
    return caller.user.id;
  };
  const act =
    (how: (userId: string, id: string) => CopyEvent[]) => async (request: FastifyRequest<IdParams>) => {
      const events = how(await userIdOf(request), request.params.id);
      onEvents(events);
      return closedPosition(events);
    };
  app.post<IdParams>(
    '/copy-positions/:id/close',
    act((userId, id) => engine.closeManually(userId, id)),
  );
  app.post<IdParams>(
    '/copy-positions/:id/unlink',
    act((userId, id) => engine.unlink(userId, id)),
  );
}
