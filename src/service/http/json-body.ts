import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError } from './errors';

const RAW_BODY = Symbol('rawBody');
const KNOWN_BODY = Symbol('knownBody');
type WithRawBody = FastifyRequest & {
  [RAW_BODY]?: string;
  [KNOWN_BODY]?: { bodies: KnownBodies<unknown>; value: unknown };
};

/**
 * What a route made of body texts it validated before, by the text (docs/statistics.md, "The
 * columnar index", Around the query): a request that repeats one is answered without parsing and
 * validating it again. Only a body that passed validation is ever remembered, so a bad one is
 * checked, and refused, every time. Each route keeps its own, so a text one route accepts is
 * still checked by another. Bounded: at most `max` texts of at most `maxTextLength` characters,
 * the oldest remembered forgotten first.
 *
 * A text is remembered from its second validation, as the answer cache keeps an answer from its
 * key's second ask: a body sent once (every request of a trader tuning ranges) would only churn
 * the memory. Texts seen once are marked by their hash in a fixed table, which allocates nothing;
 * two texts sharing a slot only make one be remembered a request early.
 */
export class KnownBodies<T> {
  /** Requests answered from a remembered text (tests read it). */
  hits = 0;
  private readonly byText = new Map<string, T>();
  private readonly seenOnce = new Int32Array(SEEN_SLOTS);

  constructor(
    private readonly max = 256,
    private readonly maxTextLength = 4096,
  ) {}

  /** Remembers what `text` validated to, if it was validated before. */
  remember(text: string, value: T): void {
    if (text.length === 0 || text.length > this.maxTextLength || this.byText.has(text)) return;
    const hash = textHash(text);
    const slot = hash & (SEEN_SLOTS - 1);
    if (this.seenOnce[slot] !== hash) {
      this.seenOnce[slot] = hash;
      return;
    }
    this.byText.set(text, value);
    if (this.byText.size > this.max) this.byText.delete(this.byText.keys().next().value as string);
  }

  /** What the request's body text validated to before on this route, or undefined. */
  of(request: FastifyRequest): T | undefined {
    const known = (request as WithRawBody)[KNOWN_BODY];
    if (known === undefined || known.bodies !== this) return undefined;
    this.hits += 1;
    return known.value as T;
  }

  /** For the parser: the value of a remembered text. */
  lookUp(text: string): T | undefined {
    return this.byText.get(text);
  }
}

const SEEN_SLOTS = 4096;

/** FNV-1a over the text's UTF-16 code units; 0 is kept for empty slots. */
function textHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash === 0 ? 1 : hash;
}

/** The route option that lets the JSON parser recognise the route's known body texts. */
export const knownBodiesConfig = (bodies: KnownBodies<unknown>) => ({ [KNOWN_BODIES]: bodies });
const KNOWN_BODIES = 'knownBodies';

/**
 * Parses JSON bodies and keeps their text. On a route with KnownBodies, a text the route
 * validated before is not parsed again: the request carries what it validated to (read with
 * KnownBodies.of), and its body is left undefined.
 */
export function installJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    const withRaw = request as WithRawBody;
    withRaw[RAW_BODY] = text;
    const bodies = (request.routeOptions.config as { [KNOWN_BODIES]?: KnownBodies<unknown> })[KNOWN_BODIES];
    const value = bodies?.lookUp(text);
    // Held on the request: the text may be forgotten before the handler runs.
    if (bodies !== undefined && value !== undefined) {
      withRaw[KNOWN_BODY] = { bodies, value };
      return done(null, undefined);
    }
    if (text.trim() === '')
      return done(
        new ServiceError('VALIDATION_FAILED', 'the request body must not be empty when Content-Type is JSON'),
        undefined,
      );
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new ServiceError('VALIDATION_FAILED', 'the request body is not valid JSON'), undefined);
    }
  });
}

/** The text of the request's JSON body, or '' when it had none. */
export const rawBodyOf = (request: FastifyRequest): string => (request as WithRawBody)[RAW_BODY] ?? '';
