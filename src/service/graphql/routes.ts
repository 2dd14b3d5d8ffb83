import type { FastifyInstance } from 'fastify';
import { authenticate } from '../auth/credentials';
import type { ServiceContext } from '../http/context';
import { LiveProtocols } from '../market/token-listing';
import { answerGraphqlText } from './execute';
import { graphqlOperationOf } from './request';
import type { GraphqlContext } from './resolvers';
import { graphqlSchema } from './schema';

/**
 * `POST /graphql` (JWT or API key). Credentials and the envelope are checked first and fail with
 * the decided error body (401, 400). Everything GraphQL reports itself (syntax, unknown fields,
 * variables, a bad index or body, limits) answers **200** with GraphQL's `errors` array: the
 * GraphQL-over-HTTP spec recommends 200 for every well-formed request when the answer is
 * `application/json`, and docs/api.md reserves non-2xx answers for the `{statusCode, error,
 * message, code}` body, which has no room for GraphQL's `errors` and `data`.
 */
export function graphqlRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const protocols = new LiveProtocols(ctx.db);
  const context: GraphqlContext = {
    db: ctx.db,
    namespace: ctx.config.graphqlNamespace,
    get knownProtocols() {
      return protocols.current();
    },
  };
  app.post('/graphql', async (request, reply) => {
    await authenticate(ctx, request, 'jwtOrApiKey');
    const operation = graphqlOperationOf(request.body);
    // The answer's text: Fastify would write an object with JSON.stringify, as this does.
    // Every operation is charged to the caller's search budget: searchPositionStatistic is what
    // costs, and any query may hold one.
    const answer = await ctx.searchBudget.runAsync(request, () =>
      answerGraphqlText(graphqlSchema, operation, context, (error) =>
        request.log.error({ err: error.originalError ?? error }, 'graphql field failed'),
      ),
    );
    return reply.code(200).type('application/json; charset=utf-8').send(answer);
  });
}
