import { prepareCached } from '../../node/sqlite';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { ServiceDb } from '../store/database';

const hash = (key: string): string => createHash('sha256').update(key).digest('hex');

/** Creates an API key; only its hash is stored, so the key is shown once. */
export function createApiKey(db: ServiceDb, now: Date, label = ''): string {
  const key = `cdk_${randomBytes(24).toString('base64url')}`;
  prepareCached(db, 'INSERT INTO api_keys (id, key_hash, label, created_at) VALUES (?, ?, ?, ?)').run(
    randomUUID(),
    hash(key),
    label,
    now.toISOString(),
  );
  return key;
}

/** True when `key` is one this service issued. */
export const isKnownApiKey = (db: ServiceDb, key: string): boolean => apiKeyId(db, key) !== null;

/**
 * The stored id of the API key `key`, or null when this service never issued it.
 *
 * A key found once is remembered by its text, in memory only: the service has no way to revoke a
 * key nor an expiry (`create-api-key` only adds one), so it stays valid, and a repeat costs a map
 * lookup instead of a SHA-256 (the rate limit and the route each ask, every request:
 * docs/statistics.md, "The columnar index", Around the query). An unknown key is looked up every
 * time, so a key created meanwhile by another process is accepted at once.
 */
export function apiKeyId(db: ServiceDb, key: string): string | null {
  let known = knownKeys.get(db);
  if (!known) knownKeys.set(db, (known = new Map()));
  const remembered = known.get(key);
  if (remembered !== undefined) return remembered;
  const row = prepareCached(db, 'SELECT id FROM api_keys WHERE key_hash = ?').get(hash(key)) as
    { id: string } | undefined;
  if (row === undefined) return null;
  known.set(key, row.id);
  // Bounded, though only issued keys are ever kept: the oldest remembered is forgotten first.
  if (known.size > KNOWN_KEYS_MAX) known.delete(known.keys().next().value as string);
  return row.id;
}

const knownKeys = new WeakMap<ServiceDb, Map<string, string>>();
const KNOWN_KEYS_MAX = 10_000;
