// The rebalance fault end to end: windows mode strikes it exactly where a broker delivers to a
// member of a group of two or more and nowhere else, explore generates it only there and shrinks
// a check-then-insert counterexample down to it, replay's --plan accepts it there and refuses it
// anywhere else with a line naming what the point can suffer, and every report words it.
import { describe, expect, it } from 'vitest';
import { explore, explorationSpace } from '../../src/modes/explore.ts';
import { faultSpace } from '../../src/modes/faultSpace.ts';
import { InputError } from '../../src/base/inputError.ts';
import { checkPlan, replay } from '../../src/modes/replay.ts';
import { describePlan } from '../../src/report/describePlan.ts';
import { windowCells } from '../../src/report/windowCells.ts';
import { runScenario } from '../../src/run/runScenario.ts';
import { runWindows } from '../../src/modes/windows.ts';
import checkThenInsert from '../../scenarios/group-check-then-insert.ts';
import oneMember from '../../scenarios/group-check-then-insert-one-member.ts';
import outbox from '../../scenarios/mercury-outbox.ts';

const MEMBER_DELIVERIES = ['broker->consumer1:broker.deliver', 'broker->consumer2:broker.deliver'];

describe('windows mode', () => {
  it('offers rebalance on each member’s deliveries, up to the occurrence bound, and on no other point', () => {
    const reference = runScenario(checkThenInsert, { seed: 1, plan: [] });
    const space = faultSpace(reference, { maxOccurrence: 2 });
    const struck = space.singles.filter((f) => f.kind === 'rebalance');
    expect([...new Set(struck.map((f) => (f.kind === 'rebalance' ? f.point : '')))]).toEqual(MEMBER_DELIVERIES);
    // Orders o-1 and o-3 share partition 0 (consumer1's), o-2 is alone on partition 1 (consumer2's).
    expect(struck.map((f) => f.occurrence)).toEqual([1, 2, 1]);
    expect(space.kinds).toContain('rebalance');
  });

  it('offers it nowhere in a group of one or in a design without groups, and does not list it as covered there', () => {
    for (const s of [oneMember, outbox]) {
      const space = faultSpace(runScenario(s, { seed: 1, plan: [] }), { maxOccurrence: 2 });
      expect(space.singles.some((f) => f.kind === 'rebalance'), s.name).toBe(false);
      expect(space.kinds, s.name).toEqual(['crash', 'lose', 'duplicate', 'delay', 'reorder']);
    }
  });

  it('a rebalance row of the check-then-insert design is a duplicate reservation, and replays by its plan', () => {
    const w = runWindows(checkThenInsert);
    const rows = w.rows.filter((r) => r.fault === 'rebalance');
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.outcome === 'duplicate effect' && r.struck === r.runs)).toBe(true);
    expect(w.rows.filter((r) => r.fault !== 'rebalance').every((r) => r.outcome === 'holds')).toBe(true);
    const ce = w.counterexamples.find((c) => c.violation === 'duplicate effect')!;
    expect(ce.plan.map((f) => f.kind)).toEqual(['rebalance']);
    expect(ce.trace.some((e) => e.kind === 'rebalance')).toBe(true);
  });
});

describe('explore', () => {
  it('generates rebalance only on member deliveries', () => {
    const space = explorationSpace(checkThenInsert);
    expect(space.points.filter((p) => p.kinds.includes('rebalance')).map((p) => p.point)).toEqual(MEMBER_DELIVERIES);
    expect(explorationSpace(oneMember).points.some((p) => p.kinds.includes('rebalance'))).toBe(false);
  });

  it('finds the check-then-insert duplicate and shrinks it to one rebalance of one order', () => {
    const r = explore(checkThenInsert, { runs: 300, seed: 1 });
    expect(r.search.status).toBe('failed');
    if (r.search.status !== 'failed') return;
    expect(r.search.counterexample.plan).toEqual([{ kind: 'rebalance', point: 'broker->consumer1:broker.deliver', occurrence: 1 }]);
    expect(r.search.counterexample.size).toBe(1);
    expect(r.coverage.kinds).toContain('rebalance');
    expect(explore(oneMember, { runs: 20, seed: 1 }).coverage.kinds).not.toContain('rebalance');
  });
});

describe('replay --plan', () => {
  const plan = [{ kind: 'rebalance', point: 'broker->consumer1:broker.deliver', occurrence: 1 }] as const;

  it('accepts a rebalance of a member’s delivery and reproduces the duplicate', () => {
    expect(() => checkPlan(checkThenInsert, [...plan], undefined)).not.toThrow();
    const r = replay(checkThenInsert, { kind: 'plan', seed: 1, plan: [...plan] });
    expect(r.outcome).toBe('duplicate effect');
    expect(r.unstruck).toEqual([]);
    expect(r.coverage.kinds).toEqual(['rebalance']);
  });

  it.each([
    [checkThenInsert, 'consumer1->broker:broker.commit', '--plan: consumer1->broker:broker.commit cannot suffer rebalance (it can: lose, duplicate, delay, reorder)'],
    [checkThenInsert, 'broker->consumer1:broker.subscribed', '--plan: broker->consumer1:broker.subscribed cannot suffer rebalance (it can: lose, duplicate, delay, reorder)'],
    [oneMember, 'broker->consumer1:broker.deliver', '--plan: broker->consumer1:broker.deliver cannot suffer rebalance (it can: lose, duplicate, delay, reorder)'],
    [checkThenInsert, 'inventoryDb->consumer1:db.result', '--plan: inventoryDb->consumer1:db.result cannot suffer rebalance (it can: lose, delay)'],
  ])('refuses a rebalance where it makes no sense: %#', (scenario, point, message) => {
    const bad = () => checkPlan(scenario, [{ kind: 'rebalance', point, occurrence: 1 }], undefined);
    expect(bad).toThrow(InputError);
    expect(bad).toThrow(message);
  });
});

describe('reports', () => {
  it('name who takes a rebalanced record up, and for check-then-insert the window where both readers saw nothing', () => {
    const w = runWindows(checkThenInsert);
    const rebalanced = w.rows.find((r) => r.fault === 'rebalance')!;
    // The broker hands the record to the other member: its delivery there is the re-send the run shows.
    const point = rebalanced.place.kind === 'point' ? rebalanced.place : undefined;
    expect(rebalanced.retry).toMatchObject({ kind: 'resent', component: 'broker', message: 'broker.deliver' });
    expect(rebalanced.retry?.kind === 'resent' && rebalanced.retry.to).not.toBe(point?.to);
    expect(windowCells(rebalanced).repairQuery).toMatch(/^SELECT order_id, reservation_version, count\(\*\) FROM reservations GROUP BY order_id, reservation_version HAVING count\(\*\) > 1; -- finds o-\d\|1$/);
    const window = w.rows.find((r) => r.fault === 'crash' && r.place.kind === 'window' && r.place.state === 'afterEffectCheck')!;
    // A crash there repeats nothing, so the check is for a loss: a request with no reservation.
    expect(windowCells(window).repairQuery).toBe(
      'check: SELECT DISTINCT s.order_id, s.reservation_version FROM reservation_requests s WHERE NOT EXISTS (SELECT 1 FROM reservations e WHERE e.order_id = s.order_id AND e.reservation_version = s.reservation_version);',
    );
  });

  it('word a rebalance as the work moving while the message is on its way', () => {
    expect(describePlan([{ kind: 'rebalance', point: 'broker->consumer1:broker.deliver', occurrence: 2 }])).toBe(
      'rebalance broker->consumer1:broker.deliver (occurrence 2): its work moves to another receiver while it is on its way',
    );
  });
});
