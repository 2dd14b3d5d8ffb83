import { randomInt } from 'node:crypto';
import type { ServiceDb } from '../store/database';

/** Codes live 5 minutes and serve one verification (decisions.md, Auth). */
export const LOGIN_CODE_TTL_MS = 5 * 60_000;

/** Issues a fresh 6-digit code for `address`, replacing any earlier one. */
export function issueLoginCode(db: ServiceDb, address: string, nowMs: number): string {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  db.prepare(
    `INSERT INTO login_codes (address, code, expires_at_ms) VALUES (?, ?, ?)
     ON CONFLICT(address) DO UPDATE SET code = excluded.code, expires_at_ms = excluded.expires_at_ms`,
  ).run(address, code, nowMs + LOGIN_CODE_TTL_MS);
  return code;
}

/**
 * Takes the address's code out of the store and returns it if it had not expired. Taking it
 * on every attempt, right or wrong, makes each code good for exactly one try.
 */
export function takeLoginCode(db: ServiceDb, address: string, nowMs: number): string | null {
  const row = db
    .prepare('DELETE FROM login_codes WHERE address = ? RETURNING code, expires_at_ms')
    .get(address) as { code: string; expires_at_ms: number } | undefined;
  if (!row || row.expires_at_ms <= nowMs) return null;
  return row.code;
}
