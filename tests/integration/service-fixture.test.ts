import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADDRESS, DEMO_PRIVATE_KEY } from '../../src/service/fixture/seed';
import { postJson, startTestService, type RunningService } from '../support/service';
import { loginAs } from '../support/credentials';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ seedFixture: true });
});
afterAll(() => svc.close());

describe('the fixture world', () => {
  it('has a few hundred traders on eight protocols, with statistics for every one', () => {
    const db = svc.service.db;
    const traders = db.prepare('SELECT COUNT(DISTINCT account) FROM positions').pluck().get() as number;
    expect(traders).toBeGreaterThanOrEqual(300);
    expect(db.prepare('SELECT COUNT(DISTINCT protocol) FROM positions').pluck().get()).toBe(8);
    const withFull = db
      .prepare("SELECT COUNT(DISTINCT account) FROM statistics WHERE type = 'FULL' AND gen_to IS NULL")
      .pluck()
      .get();
    const withClosed = db
      .prepare("SELECT COUNT(DISTINCT account) FROM positions WHERE status = 'CLOSE'")
      .pluck()
      .get();
    expect(withFull).toBe(withClosed);
    expect(db.prepare('SELECT COUNT(*) FROM orders').pluck().get()).toBeGreaterThan(traders);
  });

  it('has nothing happen after its moment: no close and no order in the future', () => {
    const db = svc.service.db;
    const now = svc.clock.ms;
    expect(db.prepare('SELECT COUNT(*) FROM positions WHERE close_time_ms > ?').pluck().get(now)).toBe(0);
    expect(db.prepare('SELECT COUNT(*) FROM orders WHERE block_time_ms > ?').pluck().get(now)).toBe(0);
    // Some positions did close today, before the moment.
    const todayStart = now - (now % 86_400_000);
    expect(
      db.prepare('SELECT COUNT(*) FROM positions WHERE close_time_ms >= ?').pluck().get(todayStart),
    ).toBeGreaterThan(0);
  });

  it('lets the demo key log in as the owner of the fixture copy trades', async () => {
    const { token, address } = await loginAs(svc, DEMO_PRIVATE_KEY);
    expect(address).toBe(DEMO_ADDRESS);
    const trades = await postJson(`${svc.url}/copy-trades/list`, {}, { authorization: token });
    expect(trades.status).toBe(200);
    expect((trades.body as unknown as unknown[]).length).toBeGreaterThanOrEqual(3);
    const positions = await postJson(`${svc.url}/copy-positions/page?limit=50`, {}, { authorization: token });
    expect((positions.body.data as unknown[]).length).toBeGreaterThan(0);
  });

  it('is the same world on a second seed: deterministic', async () => {
    const again = await startTestService({ seedFixture: true, now: svc.clock.now });
    try {
      const digest = (s: RunningService) =>
        s.service.db
          .prepare('SELECT account, protocol, size, realised_pnl, fee FROM positions ORDER BY id')
          .all();
      expect(digest(again)).toEqual(digest(svc));
    } finally {
      await again.close();
    }
  });
});
