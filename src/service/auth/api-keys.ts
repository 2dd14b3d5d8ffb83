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
export function isKnownApiKey(db: ServiceDb, key: string): boolean {
  let known = knownKeys.get(db);
  if (!known) knownKeys.set(db, (known = new Set()));
  const h = hash(key);
  if (known.has(h)) return true;
  const found = prepareCached(db, 'SELECT 1 FROM api_keys WHERE key_hash = ?').get(h) !== undefined;
  // Keys are never revoked, so a key found once stays valid; unknown ones are asked again.
  if (found) known.add(h);
  return found;
}

const knownKeys = new WeakMap<ServiceDb, Set<string>>();
