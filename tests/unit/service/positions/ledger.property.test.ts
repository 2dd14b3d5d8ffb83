// Properties of the ledger over random fill sequences (fast-check), checked against a reference
// written differently: a signed net in integers of 10^-4 token, no position objects.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rebuildSeries, type LedgerFill } from '../../../../src/service/positions/ledger';

const SERIES = {
  account: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
  protocol: 'PROP_VENUE',
  symbol: 'ETH',
};

/** k × 10^-4 tokens as decimal text. */
const tokensText = (k: number): string => {
  const text = String(k).padStart(5, '0');
  return `${text.slice(0, -4)}.${text.slice(-4)}`;
};

interface Step {
  isBuy: boolean;
  /** size in 10^-4 token; the small round values make returns to zero frequent. */
  k: number;
  price: number;
  fee: number;
  gapMs: number;
}

const stepArb: fc.Arbitrary<Step> = fc.record({
  isBuy: fc.boolean(),
  k: fc.oneof(fc.constantFrom(1000, 2000, 3000, 500, 1500), fc.integer({ min: 1, max: 50_000 })),
  price: fc.integer({ min: 1, max: 10_000_000 }).map((c) => c / 100),
  fee: fc.integer({ min: 0, max: 1000 }).map((c) => c / 100),
  gapMs: fc.constantFrom(0, 1, 60_000, 3_600_000),
});

function fillsOf(steps: Step[]): LedgerFill[] {
  let timeMs = Date.UTC(2024, 0, 1);
  return steps.map((s, i) => {
    timeMs += s.gapMs;
    return {
      id: `f${i}`,
      timeMs,
      isBuy: s.isBuy,
      price: s.price,
      amount: { tokens: tokensText(s.k) },
      fee: s.fee,
    };
  });
}

/** Σ realised PnL over the shrinking fills, the number of returns to (or through) zero, the final net. */
function reference(steps: Step[]) {
  let net = 0; // integer of 10^-4 token, exact in a double at these sizes
  let entry = 0;
  let realised = 0;
  let magnitude = 0;
  let closes = 0;
  for (const s of steps) {
    const delta = s.isBuy ? s.k : -s.k;
    if (net === 0 || Math.sign(net) === Math.sign(delta)) {
      entry = (entry * Math.abs(net) + s.price * s.k) / (Math.abs(net) + s.k);
      net += delta;
      continue;
    }
    const closed = Math.min(Math.abs(net), s.k) / 10_000;
    const term = (s.price - entry) * closed * Math.sign(net);
    realised += term;
    // Rounding differs between the two by a few ulps of the notionals involved, not of the PnL.
    magnitude += (s.price + entry) * closed;
    const after = net + delta;
    if (after === 0 || Math.sign(after) !== Math.sign(net)) closes += 1;
    if (after !== 0 && Math.sign(after) !== Math.sign(net)) entry = s.price;
    net = after;
  }
  return { realised, magnitude, closes, finalNet: net };
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('ledger properties', () => {
  it('Σ realisedPnl over positions = Σ over shrinking fills, computed independently', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 40 }), (steps) => {
        const { positions } = rebuildSeries(SERIES, fillsOf(steps));
        const ref = reference(steps);
        const total = sum(positions.map((p) => p.realised_pnl));
        expect(Math.abs(total - ref.realised)).toBeLessThanOrEqual(1e-9 * (1 + ref.magnitude));
      }),
      { numRuns: 500 },
    );
  });

  it('every position whose net returns to 0 is CLOSE, and only the last may stay OPEN', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 40 }), (steps) => {
        const { positions, orders } = rebuildSeries(SERIES, fillsOf(steps));
        const ref = reference(steps);
        const closed = positions.filter((p) => p.status === 'CLOSE');
        expect(closed).toHaveLength(ref.closes);
        expect(positions.filter((p) => p.status === 'OPEN')).toHaveLength(ref.finalNet === 0 ? 0 : 1);
        if (ref.finalNet !== 0) expect(positions.at(-1)?.status).toBe('OPEN');
        for (const p of closed) expect(p.size_in_token).toBe(0);
        expect(orders.filter((o) => o.type === 'CLOSE')).toHaveLength(ref.closes);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps every fee: Σ position fees = Σ fill fees, and one order per fill part', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 40 }), (steps) => {
        const { positions, orders } = rebuildSeries(SERIES, fillsOf(steps));
        const fees = sum(steps.map((s) => s.fee));
        expect(Math.abs(sum(positions.map((p) => p.fee)) - fees)).toBeLessThanOrEqual(1e-9 * (1 + fees));
        const flips = orders.filter((o, i) => o.type === 'OPEN' && orders[i - 1]?.log_id === o.log_id).length;
        expect(orders).toHaveLength(steps.length + flips);
        expect(sum(positions.map((p) => p.order_count))).toBe(orders.length);
      }),
      { numRuns: 300 },
    );
  });
});
