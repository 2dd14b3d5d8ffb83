// npm run bench:start — the local service's start (issue #20 item 1; docs/service.md, Listening
// while preparing), both ways it can run:
//   before: the data prepared before listening (what every start did until now; createLocalService's
//           default, which tests use);
//   now:    listening first, the data prepared after in a worker thread (`npm run service`).
// A first start on an empty file (the demo world, 5,000 traders): how long until the first answer,
// how long until everything answers, the latency of tokens and logins meanwhile, the CPU spent.
// A second start on the prepared file, 15 times each way, the two ways alternating (this machine is
// shared: alternating spreads its load over both): time to the first answer and CPU per start.
// Goals: a first start answers tokens within 1 s of starting; a second start is no slower than
// before (ratio of medians at most 1.10). Last line: one JSON object.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalService } from '../../src/service/app';
import { defaultConfig } from '../../src/service/config';

const dir = mkdtempSync(join(tmpdir(), 'copydesk-start-bench-'));
const SECOND_STARTS = 15;

const configOf = (dbPath: string) =>
  defaultConfig({
    dbPath,
    port: 0,
    demo: true,
    seedFixture: true,
    rateLimit: { perSecond: 1e6, burst: 1e6 },
  });

const cpuMs = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const round = (value: number, digits = 1): number => Math.round(value * 10 ** digits) / 10 ** digits;

/** One request's latency in ms, failing on anything but 200. */
async function timed(url: string, init?: RequestInit): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, init);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return performance.now() - started;
}

async function firstStartBefore(dbPath: string) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const service = createLocalService(configOf(dbPath));
  const url = await service.listen();
  await timed(`${url}/pairs/tokens`);
  const firstAnswerMs = performance.now() - started;
  await service.close();
  return { firstAnswerMs, preparedMs: firstAnswerMs, cpuMs: cpuMs(cpu) };
}

async function firstStartNow(dbPath: string) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const service = createLocalService(configOf(dbPath), { prepareAfterListen: true });
  const url = await service.listen();
  await timed(`${url}/pairs/tokens`);
  const firstAnswerMs = performance.now() - started;
  let done = false;
  const prepared = service.prepared.then(() => (done = true));
  const tokens: number[] = [];
  const logins: number[] = [];
  /** The slowest login code, and the step the preparation was at when it was asked for. */
  let slowest = { ms: 0, step: '' };
  /** The slowest login code of each step it was asked in. */
  const slowestByStep: Record<string, number> = {};
  const login = {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ address: '0x0000000000000000000000000000000000000001' }),
  };
  while (!done) {
    tokens.push(await timed(`${url}/pairs/tokens`));
    const step = service.preparing()?.step ?? 'done';
    logins.push(await timed(`${url}/auth/web3/login`, login));
    if (logins.at(-1)! > slowest.ms) slowest = { ms: logins.at(-1)!, step };
    slowestByStep[step] = Math.max(slowestByStep[step] ?? 0, logins.at(-1)!);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await prepared;
  const preparedMs = performance.now() - started;
  await service.close();
  return { firstAnswerMs, preparedMs, cpuMs: cpuMs(cpu), tokens, logins, slowest, slowestByStep };
}

/** One second start: ms to its first answer and the CPU ms it took. */
async function secondStart(dbPath: string, prepareAfterListen: boolean) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const service = createLocalService(configOf(dbPath), { prepareAfterListen });
  const url = await service.listen();
  await timed(`${url}/pairs/tokens`);
  const ms = performance.now() - started;
  if (service.preparing() !== null) throw new Error('a second start had data to prepare');
  const cpuUsed = cpuMs(cpu);
  await service.close();
  return { ms, cpuMs: cpuUsed };
}

async function secondStarts(dbPath: string) {
  const ways = { before: { ms: [] as number[], cpu: 0 }, now: { ms: [] as number[], cpu: 0 } };
  for (let i = 0; i < SECOND_STARTS; i += 1)
    for (const way of ['before', 'now'] as const) {
      const start = await secondStart(dbPath, way === 'now');
      ways[way].ms.push(start.ms);
      ways[way].cpu += start.cpuMs;
    }
  const summary = (way: { ms: number[]; cpu: number }) => ({
    medianMs: percentile(way.ms, 50),
    cpuMsPerStart: way.cpu / SECOND_STARTS,
  });
  return { before: summary(ways.before), now: summary(ways.now) };
}

try {
  const before = await firstStartBefore(join(dir, 'before.db'));
  console.log(
    `first start, before: first answer after ${(before.firstAnswerMs / 1000).toFixed(2)} s (all of it prepared first), CPU ${(before.cpuMs / 1000).toFixed(2)} s`,
  );
  const now = await firstStartNow(join(dir, 'now.db'));
  console.log(
    `first start, now: first answer after ${(now.firstAnswerMs / 1000).toFixed(2)} s, everything after ${(now.preparedMs / 1000).toFixed(2)} s, CPU ${(now.cpuMs / 1000).toFixed(2)} s`,
  );
  console.log(
    `  meanwhile ${now.tokens.length} token reads: p50 ${percentile(now.tokens, 50).toFixed(1)} ms, p99 ${percentile(now.tokens, 99).toFixed(1)} ms, max ${Math.max(...now.tokens).toFixed(1)} ms`,
  );
  console.log(
    `  meanwhile ${now.logins.length} login codes: p50 ${percentile(now.logins, 50).toFixed(1)} ms, p99 ${percentile(now.logins, 99).toFixed(1)} ms, max ${now.slowest.ms.toFixed(1)} ms (asked during step ${now.slowest.step})`,
  );
  console.log(
    `  slowest login code by step asked in: ${Object.entries(now.slowestByStep)
      .map(([step, ms]) => `${step} ${ms.toFixed(1)} ms`)
      .join(', ')}`,
  );
  // On the file the command line prepares (the worker's short transactions).
  const { before: secondBefore, now: secondNow } = await secondStarts(join(dir, 'now.db'));
  const ratio = secondNow.medianMs / secondBefore.medianMs;
  console.log(
    `second start (${SECOND_STARTS} each, alternating): before ${secondBefore.medianMs.toFixed(1)} ms, CPU ${secondBefore.cpuMsPerStart.toFixed(1)} ms per start; now ${secondNow.medianMs.toFixed(1)} ms, CPU ${secondNow.cpuMsPerStart.toFixed(1)} ms per start`,
  );
  const firstGoal = now.firstAnswerMs < 1000;
  const secondGoal = ratio <= 1.1;
  console.log(
    `goal firstAnswerSeconds < 1: ${(now.firstAnswerMs / 1000).toFixed(2)} ${firstGoal ? 'met' : 'NOT met'}`,
  );
  console.log(`goal secondStartRatio <= 1.10: ${ratio.toFixed(2)} ${secondGoal ? 'met' : 'NOT met'}`);
  console.log(
    JSON.stringify({
      firstStartBefore: {
        firstAnswerS: round(before.firstAnswerMs / 1000, 2),
        cpuS: round(before.cpuMs / 1000, 2),
      },
      firstStartNow: {
        firstAnswerS: round(now.firstAnswerMs / 1000, 2),
        preparedS: round(now.preparedMs / 1000, 2),
        cpuS: round(now.cpuMs / 1000, 2),
        tokensP99Ms: round(percentile(now.tokens, 99)),
        loginP99Ms: round(percentile(now.logins, 99)),
        loginMaxMs: round(now.slowest.ms),
        loginMaxStep: now.slowest.step,
      },
      secondStart: {
        beforeMs: round(secondBefore.medianMs),
        nowMs: round(secondNow.medianMs),
        ratio: round(ratio, 2),
        cpuMsPerStartBefore: round(secondBefore.cpuMsPerStart),
        cpuMsPerStartNow: round(secondNow.cpuMsPerStart),
      },
      goals: { firstAnswerUnder1s: firstGoal, secondStartRatioAtMost110: secondGoal },
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
