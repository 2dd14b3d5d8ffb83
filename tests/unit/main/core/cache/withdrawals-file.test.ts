import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCacheDatabase } from '../../../../../src/main/core/cache/cache-db';
import { openWithdrawalsDatabase } from '../../../../../src/main/core/cache/withdrawals-file';

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

const insert = (db: ReturnType<typeof openCacheDatabase>, id: string) =>
  db
    .prepare(
      "INSERT INTO withdrawals (profile_id, id, user_id, created_at, json) VALUES ('local', ?, 'u1', '2026-03-02T12:00:00.000Z', '{}')",
    )
    .run(id);
const ids = (db: ReturnType<typeof openCacheDatabase>) =>
  db.prepare('SELECT id FROM withdrawals ORDER BY seq').pluck().all();

describe('the withdrawals file', () => {
  it('takes the records an older Copydesk kept in the cache, once and in order', () => {
    dir = mkdtempSync(join(tmpdir(), 'copydesk-withdrawals-'));
    const cache = openCacheDatabase(join(dir, 'cache', 'core.db'));
    for (const id of ['k1', 'k2', 'k3']) insert(cache, id);

    const file = openWithdrawalsDatabase(join(dir, 'withdrawals.db'), cache);
    expect(ids(file)).toEqual(['k1', 'k2', 'k3']);
    expect(ids(cache)).toEqual([]);
    file.close();

    // Copied once: what the cache holds later is not the record (nothing writes it there now).
    insert(cache, 'stray');
    const again = openWithdrawalsDatabase(join(dir, 'withdrawals.db'), cache);
    expect(ids(again)).toEqual(['k1', 'k2', 'k3']);
    again.close();
    cache.close();
  });
});
