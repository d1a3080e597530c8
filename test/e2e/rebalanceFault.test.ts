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
import { compose, defineScenario, type DesignComponent } from '../../src/index.ts';
import type { BuildContext } from '../../src/scenario/compose.ts';
import { referenceProblems } from '../../src/run/referenceProbe.ts';
import { linkFaults } from '../../src/faults/linkFaults.ts';
import { SECONDS, type TimeScale } from '../../src/base/duration.ts';
import type { Workload } from '../../src/scenario/scenario.ts';
import { check } from '../../src/modes/check/check.ts';
import { broker } from '../../models/broker.ts';
import { consumer } from '../../models/consumer.ts';
import { database } from '../../models/designs/databaseComponent.ts';
import { publishedFacts, publisher, type PublisherDurable } from '../../models/publisher.ts';
import { rowsOf, type DatabaseDurable } from '../../models/database.ts';

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

/** The check-then-insert group drawn member by member: two consumer parts that name one group. */
function drawnByHand(declares: boolean) {
  const member = (name: string) => {
    const part = consumer({ name, group: 'inventory', db: 'inventoryDb', inbox: 'none', handler: 'checkThenInsert', effect: { op: 'insert', table: 'reservations', columns: { order_id: 'order_id' } } });
    // A member drawn as a component of one's own, which may leave out that it joins a group.
    return (ctx: BuildContext): DesignComponent => {
      const { subscribes, ...rest } = part(ctx) as DesignComponent;
      return declares ? { ...rest, subscribes: subscribes! } : rest;
    };
  };
  return defineScenario({
    name: `two-members-drawn-by-hand${declares ? '' : '-undeclared'}`,
    title: 'Two consumer parts in one group, check-then-insert on a surrogate key',
    source: 'test',
    lesson: 'Two members holding one record race past the lookup, however the members are drawn.',
    build: compose(
      publisher({ records: (n) => Array.from({ length: n }, (_, i) => ({ event_id: `e-${i + 1}`, order_id: `o-${i + 1}` })), keyField: 'order_id' }),
      broker({ partitions: 2 }),
      member('c1'),
      member('c2'),
      database({ name: 'inventoryDb', tables: { reservations: { key: ['id'], autoId: true } } }),
    ),
    workload: { size: 2 },
    claims: [
      {
        effect: 'reservation',
        key: ['order_id'],
        authority: 'a lookup before the insert',
        lifetime: 'the order',
        outcomes: (v) => rowsOf(v.durable<DatabaseDurable>('inventoryDb'), 'reservations').map((r) => ({ key: String(r['order_id']) })),
        facts: (v) => publishedFacts(v.durable<PublisherDurable>('publisher')).map((p) => String(p['order_id'])),
      },
    ],
    expect: { verdict: 'violated', violations: ['duplicate effect'] },
  });
}

describe('members of one group drawn one by one', () => {
  it('are offered a rebalance of their deliveries as a group preset’s are, in windows and check, which find the duplicate', () => {
    const s = drawnByHand(true);
    const space = faultSpace(runScenario(s, { seed: 1, plan: [] }), { maxOccurrence: 2 });
    expect([...new Set(space.singles.filter((f) => f.kind === 'rebalance').map((f) => (f.kind === 'rebalance' ? f.point : '')))]).toEqual(['broker->c1:broker.deliver', 'broker->c2:broker.deliver']);
    const w = runWindows(s);
    expect(w.rows.some((r) => r.fault === 'rebalance' && r.outcome === 'duplicate effect')).toBe(true);
    const c = check(s, { faults: 1, kinds: ['rebalance'] });
    expect(c.judgement.verdict).toBe('violated');
    expect(c.counterexamples[0]!.plan.map((f) => f.kind)).toEqual(['rebalance']);
  });

  it('may belong to groups at two brokers, each declared, and a membership the run never shows is refused', () => {
    const at = (from: string, group: string) => ({ from, group, type: 'broker.deliver' });
    const parts = [{ name: 'x', subscribes: [at('broker', 'g'), at('broker2', 'g')] }, { name: 'c1', subscribes: at('broker', 'g') }, { name: 'c2', subscribes: [at('broker2', 'g')] }, { name: 'c3', subscribes: at('broker2', 'other') }];
    expect(linkFaults(parts, 'broker', 'x', 'broker.deliver')).toContain('rebalance');
    expect(linkFaults(parts, 'broker2', 'x', 'broker.deliver')).toContain('rebalance');
    expect(linkFaults(parts, 'broker2', 'c3', 'broker.deliver')).not.toContain('rebalance');
    // A third member that says it reads in the group but never subscribes would make a rebalance of c1's and c2's deliveries count as covered.
    const ghost: DesignComponent = { ...(consumer({ name: 'ghost', group: 'other', db: 'inventoryDb', inbox: 'none', effect: { op: 'insert', table: 'reservations', columns: { order_id: 'order_id' } } })({ size: 1, time: SECONDS }) as DesignComponent), subscribes: { from: 'broker', group: 'inventory', type: 'broker.deliver' } };
    const s = drawnByHand(true);
    const haunted = { ...s, build: (w: Workload, t: TimeScale) => [...s.build(w, t), ghost] };
    expect(referenceProblems(haunted)).toContain("ghost declares it joins group inventory at broker (subscribes), but in the fault-free run it never subscribes there, so a rebalance of its deliveries would move nothing");
  });

  it('are refused at load when one joins the group without declaring it, naming what to declare', () => {
    expect(referenceProblems(drawnByHand(false))).toEqual([
      "c1 joins group inventory at broker with c2 but does not declare it, so no mode would offer a rebalance of its deliveries: give it subscribes: { from: 'broker', group: 'inventory', type: 'broker.deliver' }",
      "c2 joins group inventory at broker with c1 but does not declare it, so no mode would offer a rebalance of its deliveries: give it subscribes: { from: 'broker', group: 'inventory', type: 'broker.deliver' }",
    ]);
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
