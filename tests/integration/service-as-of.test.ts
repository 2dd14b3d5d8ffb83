import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLocalService } from '../../src/service/app';
import { defaultConfig } from '../../src/service/config';

describe('--now: statistics as of a fixed instant', () => {
  it('computes at that instant, and recomputes at start when another instant is asked for', async () => {
    const dbPath = join(mkdtempSync(join(tmpdir(), 'copydesk-asof-')), 'service.db');
    const first = new Date('2023-05-03T00:00:00.000Z');
    const a = createLocalService(defaultConfig({ dbPath, port: 0, seedFixture: true, asOf: first }));
    const statisticAt = () =>
      a.db.prepare('SELECT DISTINCT statistic_at_ms FROM statistics WHERE gen_to IS NULL').pluck().all();
    expect(statisticAt()).toEqual([first.getTime()]);
    const d7 = a.db
      .prepare("SELECT COUNT(*) FROM statistics WHERE type = 'D7' AND gen_to IS NULL")
      .pluck()
      .get() as number;
    await a.close();

    // The same instant again: nothing to recompute, the same generation is served.
    const again = createLocalService(defaultConfig({ dbPath, port: 0, seedFixture: true, asOf: first }));
    const generation = again.db
      .prepare("SELECT value FROM meta WHERE key = 'statistics_generation'")
      .pluck()
      .get();
    await again.close();

    const later = new Date('2023-05-10T00:00:00.000Z');
    const b = createLocalService(defaultConfig({ dbPath, port: 0, seedFixture: true, asOf: later }));
    expect(
      b.db.prepare('SELECT DISTINCT statistic_at_ms FROM statistics WHERE gen_to IS NULL').pluck().all(),
    ).toEqual([later.getTime()]);
    expect(
      Number(b.db.prepare("SELECT value FROM meta WHERE key = 'statistics_generation'").pluck().get()),
    ).toBe(Number(generation) + 1);
    // A week later, the fixture's last week has moved out of D7.
    expect(
      b.db.prepare("SELECT COUNT(*) FROM statistics WHERE type = 'D7' AND gen_to IS NULL").pluck().get(),
    ).not.toBe(d7);
    await b.close();
  });
});
