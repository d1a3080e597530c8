// Issue 7's cross-check: the dedup horizon check agrees with the simulation. A redelivery older
// than the window duplicates the effect in the simulated consumer; one inside it does not.
// The arithmetic (src/capacity/horizon.ts) judges a window against the partner's redelivery
// age; the simulation (models/partner.ts) runs a partner that redelivers its fact after that
// age into a consumer whose inbox row expires after the window. Scale: 1 day = 10 ticks.
// Ages are chosen at least a day away from the window: at equality the simulated age also
// contains a few ticks of message latency, which the arithmetic does not model.
import { describe, expect, it } from 'vitest';
import { dedupHorizon } from '../../src/capacity/horizon.ts';
import { runWindows } from '../../src/modes/windows.ts';
import { counterexampleSteps } from '../../src/report/sequenceSteps.ts';
import sevenDays from '../../scenarios/dedup-horizon-7d-vs-30d.ts';
import { TimeScale } from '../../src/base/duration.ts';
import { World } from '../../src/run/world.ts';
import type { BrokerDurable } from '../../models/broker.ts';
import { rowsOf, type DatabaseDurable, type LapsedRow } from '../../models/database.ts';
import { partnerFeed } from '../../models/designs/partnerFeed.ts';
import type { PartnerDurable } from '../../models/partner.ts';

const DAY_SEC = 86_400;
const TICKS_PER_DAY = 10;

function simulate(windowDays: number, redeliveryDays: number) {
  const build = partnerFeed({ inboxTtl: `${windowDays}d`, redeliverAfter: `${redeliveryDays}d` });
  const world = new World(build({ size: 1 }, new TimeScale(`${24 / TICKS_PER_DAY}h`)), { seed: 1, plan: [] });
  const result = world.run();
  const credits = rowsOf(world.durable<DatabaseDurable>('loyaltyDb'), 'loyalty_credits');
  return { world, result, credits: credits.length };
}

// (window, partner redelivery) in days: seed 003's 7 d vs 30 d, seed 000's 12 h window against
// a 7 d replay, and windows that cover the redelivery.
const PAIRS: readonly (readonly [number, number])[] = [
  [7, 30],
  [0.5, 7],
  [3, 7],
  [40, 30],
  [30, 7],
  [7, 3],
];

describe('dedup horizon: arithmetic and simulation agree', () => {
  for (const [windowDays, redeliveryDays] of PAIRS) {
    const horizon = dedupHorizon({ windowSec: windowDays * DAY_SEC, partnerRedeliverySec: redeliveryDays * DAY_SEC });
    const verdict = horizon.valid ? 'covers' : 'misses';
    it(`a ${windowDays} d window ${verdict} a ${redeliveryDays} d redelivery: ${horizon.valid ? 'one credit' : 'the redelivery is credited again'}`, () => {
      const { world, result, credits } = simulate(windowDays, redeliveryDays);
      expect(result.ending).toEqual({ kind: 'quiescent' });
      // The redelivery happened in every case: the same event_id is in the log twice, and the
      // partner recorded both rounds.
      const log = world.durable<BrokerDurable>('broker').partitions.flat().map((r) => r.payload['event_id']);
      expect(log).toEqual(['evt-partner-1', 'evt-partner-1']);
      expect(world.durable<PartnerDurable>('partner')).toMatchObject({ published: ['evt-partner-1'], redelivered: ['evt-partner-1'] });
      // The second delivery reached the consumer no earlier than the redelivery age.
      expect(result.ticks).toBeGreaterThanOrEqual(redeliveryDays * TICKS_PER_DAY);
      expect(credits).toBe(horizon.valid ? 1 : 2);
      // The inbox row's lapse, which lets the redelivery through, is in the trace, and only then.
      const lapsed = result.notes.filter((n) => n.kind === 'lapsed').map((n) => n.data as LapsedRow);
      expect(lapsed.map((l) => [l.table, l.row['event_id'], l.ttlTicks])).toEqual(horizon.valid ? [] : [['inbox', 'evt-partner-1', windowDays * TICKS_PER_DAY]]);
    });
  }

  it('draws the lapse of the inbox row between the first credit and the duplicate in the counterexample', () => {
    const [ce] = runWindows(sevenDays).counterexamples;
    const steps = counterexampleSteps(ce!).steps;
    const at = (match: (s: (typeof steps)[number]) => boolean) => steps.findIndex(match);
    const lapse = at((s) => s.kind === 'note' && s.label.startsWith('inbox row past its time to live'));
    expect(steps[lapse]).toMatchObject({ component: 'loyaltyDb', label: expect.stringMatching(/^inbox row past its time to live \(committed at t=\d+, kept 70 ticks\) event=evt-partner-1$/) });
    const credits = steps.flatMap((s, i) => (s.kind === 'note' && s.label.startsWith('effect committed') ? [i] : []));
    expect(credits).toHaveLength(2);
    expect(credits[0]).toBeLessThan(lapse);
    expect(lapse).toBeLessThan(credits[1]!);
  });

  it('reports the 23-day interval in which the 30-day partner can turn an old fact into new work', () => {
    const horizon = dedupHorizon({ windowSec: 7 * DAY_SEC, partnerRedeliverySec: 30 * DAY_SEC });
    expect(horizon.valid).toBe(false);
    expect(horizon.exceeding).toEqual(['partner-redelivery']);
    expect(horizon.gapSec?.toFixed()).toBe(String(23 * DAY_SEC));
    // In the simulation, a redelivery anywhere in that interval (8 d … 29 d here) is new work;
    // one that comes before the record expires (5 d) is suppressed.
    expect(simulate(7, 8).credits).toBe(2);
    expect(simulate(7, 29).credits).toBe(2);
    expect(simulate(7, 5).credits).toBe(1);
  });
});
