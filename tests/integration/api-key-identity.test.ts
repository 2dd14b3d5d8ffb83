// API keys are remembered once verified (auth/api-keys.ts; docs/statistics.md, "The columnar
// index", Around the query). What must not change: an unknown key is refused every time, a key
// issued while the service runs is accepted at once, and each key has its own rate-limit bucket.
import { describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/service/auth/api-keys';
import { openServiceDatabase } from '../../src/service/store/database';
import { postJson, startTestService } from '../support/service';

const PUBLIC = '/public/NOVA_ARB/position/statistic/filter';

describe('verified API keys', () => {
  it('refuses an unknown key every time, and accepts a key issued meanwhile by another process at once', async () => {
    const svc = await startTestService({ seedFixture: true });
    try {
      const ask = (key: string) => postJson(`${svc.url}${PUBLIC}`, {}, { 'x-api-key': key });
      const first = createApiKey(svc.service.db, svc.clock.now());
      expect((await ask(first)).status).toBe(200);
      expect((await ask(first)).status).toBe(200);
      const unknown = `${first.slice(0, -2)}zz`;
      for (let i = 0; i < 3; i += 1) {
        const answer = await ask(unknown);
        expect(answer.status).toBe(401);
        expect(JSON.stringify(answer.body)).toContain('unknown API key');
      }
      // The command line's create-api-key writes through its own connection.
      const other = openServiceDatabase(svc.service.config.dbPath);
      const later = createApiKey(other, new Date());
      other.close();
      expect((await ask(later)).status).toBe(200);
    } finally {
      await svc.close();
    }
  });

  it('gives each key its own rate-limit bucket, the same one on every request', async () => {
    const svc = await startTestService({ seedFixture: true, rateLimit: { perSecond: 1, burst: 2 } });
    try {
      const ask = (key: string) => postJson(`${svc.url}${PUBLIC}`, {}, { 'x-api-key': key });
      const a = createApiKey(svc.service.db, svc.clock.now());
      const b = createApiKey(svc.service.db, svc.clock.now());
      const statuses = [await ask(a), await ask(a), await ask(a), await ask(b), await ask(b), await ask(b)];
      expect(statuses.map((s) => s.status)).toEqual([200, 200, 429, 200, 200, 429]);
    } finally {
      await svc.close();
    }
  });
});
