import { randomInt } from 'node:crypto';
import type { ServiceDb } from '../store/database';

/** Codes live 5 minutes and serve one login (docs/api.md, Auth). */
export const LOGIN_CODE_TTL_MS = 5 * 60_000;
/**
 * Outstanding codes per address: asking for a code adds one and drops the oldest past this
 * many, so a stranger asking for codes for your address does not replace the one you sign.
 */
export const LOGIN_CODES_PER_ADDRESS = 5;
/** How often the service deletes expired codes besides on every issue. */
export const LOGIN_CODE_PURGE_MS = 60_000;

/** An outstanding code. */
export interface LoginCode {
  id: number;
  code: string;
}

/** Issues a fresh 6-digit code for `address`; earlier codes stay valid up to the cap. */
export function issueLoginCode(db: ServiceDb, address: string, nowMs: number): string {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  db.transaction(() => {
    purgeExpiredLoginCodes(db, nowMs);
    db.prepare('INSERT INTO login_codes (address, code, expires_at_ms) VALUES (?, ?, ?)').run(
      address,
      code,
      nowMs + LOGIN_CODE_TTL_MS,
    );
    db.prepare(
      `DELETE FROM login_codes WHERE address = ? AND id NOT IN
         (SELECT id FROM login_codes WHERE address = ? ORDER BY id DESC LIMIT ?)`,
    ).run(address, address, LOGIN_CODES_PER_ADDRESS);
  })();
  return code;
}

/** The address's codes that have not expired, newest first. Reading one burns nothing. */
export function outstandingLoginCodes(db: ServiceDb, address: string, nowMs: number): LoginCode[] {
  return db
    .prepare('SELECT id, code FROM login_codes WHERE address = ? AND expires_at_ms > ? ORDER BY id DESC')
    .all(address, nowMs) as unknown as LoginCode[];
}

/**
 * Takes a code whose signature verified out of the store; false when a concurrent login took it
 * first. Only a verified signature takes a code: a wrong one leaves every code in place.
 */
export function consumeLoginCode(db: ServiceDb, id: number): boolean {
  return db.prepare('DELETE FROM login_codes WHERE id = ?').run(id).changes === 1;
}

/** Deletes every expired code. */
export function purgeExpiredLoginCodes(db: ServiceDb, nowMs: number): void {
  db.prepare('DELETE FROM login_codes WHERE expires_at_ms <= ?').run(nowMs);
}
