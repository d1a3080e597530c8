// A dedup store of bounded size in a design: an outbox pipeline whose consumer keeps its inbox in
// the effect's transaction, in a table that holds one key (`capacity: 1`). One fault redelivers
// at most the last event taken, whose key the inbox still holds, so the design holds under every
// single fault. Two faults can bring an older event back after a newer one pushed its key out:
// that run duplicates the reservation, and its trace shows the eviction that let it through. A
// table that keeps both orders' keys holds under the same plan.
import { describe, expect, it } from 'vitest';
import { defineScenario } from '../../src/index.ts';
import { replay } from '../../src/modes/replay.ts';
import { runWindows } from '../../src/modes/windows.ts';
import { counterexampleSteps } from '../../src/report/sequenceSteps.ts';
import { markedLines } from '../../src/report/keyStory.ts';
import { orderPipeline, reservationClaim } from '../../models/designs/orderPipeline.ts';
import type { EvictedRow } from '../../models/database.ts';

function boundedInbox(capacity: number) {
  return defineScenario({
    name: `inbox-capacity-${capacity}`,
    title: `Outbox pipeline whose inbox keeps ${capacity} keys`,
    source: 'test',
    lesson: 'A bounded inbox that evicts a key before its redelivery comes lets the repeat through.',
    build: orderPipeline({ design: 'outbox', consumer: { inbox: 'sameTx' }, effectKey: 'none', inventoryDb: { tables: { inbox: { capacity } } } }),
    workload: { size: 2 },
    claims: [reservationClaim],
    expect: { verdict: 'holds' },
  });
}

// A delayed subscription, then the third delivery reordered behind a later one.
const PAIR = [
  { kind: 'delay', point: 'consumer->broker:broker.subscribe', occurrence: 1 },
  { kind: 'reorder', point: 'broker->consumer:broker.deliver', occurrence: 3 },
] as const;

describe('a dedup table of bounded capacity', () => {
  it('holds under every single fault when it keeps one key, since one fault repeats only the last event taken', () => {
    const r = runWindows(boundedInbox(1));
    expect(r.judgement.verdict).toBe('holds');
    expect(r.rows.length).toBeGreaterThan(30);
    expect(r.rows.every((row) => row.outcome === 'holds')).toBe(true);
    // The bound is exercised even without a fault: the second order's key pushes the first's out.
    const plain = replay(boundedInbox(1), { kind: 'plan', seed: 1, plan: [] });
    expect(plain.trace.filter((e) => e.kind === 'note' && (e.data as { kind?: string }).kind === 'evicted')).toHaveLength(1);
  });

  it('lets an evicted key through under two faults, and the trace and the diagram show the eviction', () => {
    const r = replay(boundedInbox(1), { kind: 'plan', seed: 1, plan: PAIR.map((f) => ({ ...f })) });
    expect(r.outcome).toBe('duplicate effect');
    const evicted = r.trace.filter((e) => e.kind === 'note' && (e.data as { kind?: string }).kind === 'evicted').map((e) => (e.data as { data: EvictedRow }).data);
    expect(evicted.length).toBeGreaterThan(0);
    expect(evicted.every((v) => v.table === 'inbox' && v.capacity === 1)).toBe(true);
    // The first order's key was pushed out before its repeat arrived.
    expect(evicted.map((v) => v.row['event_id'])).toContain('evt-o-1-v1');
    const steps = counterexampleSteps({ trace: r.trace, findings: r.findings, violation: 'duplicate effect' }).steps;
    const at = (match: (s: (typeof steps)[number]) => boolean) => steps.findIndex(match);
    const eviction = at((s) => s.kind === 'note' && /^inbox row evicted \(committed at t=\d+, the table keeps 1\) event=evt-o-1-v1$/.test(s.label));
    expect(eviction).toBeGreaterThanOrEqual(0);
    // Drawn between the first order's two reservations: after its first, before its repeat.
    const effects = steps.flatMap((s, i) => (s.kind === 'note' && s.label.startsWith('effect committed') ? [i] : []));
    expect(effects[0]).toBeLessThan(eviction);
    expect(eviction).toBeLessThan(effects[effects.length - 1]!);
    // Among the few steps a page opens with, since it is why the repeat got through.
    expect(markedLines(counterexampleSteps({ trace: r.trace, findings: r.findings, violation: 'duplicate effect' }))).toContainEqual(expect.stringMatching(/inventoryDb: inbox row evicted \(committed at t=\d+, the table keeps 1\) event=evt-o-1-v1$/));
  });

  it('holds under the same two faults when it keeps every key the workload makes', () => {
    const r = replay(boundedInbox(2), { kind: 'plan', seed: 1, plan: PAIR.map((f) => ({ ...f })) });
    expect(r.outcome).toBe('holds');
    expect(r.trace.some((e) => e.kind === 'note' && (e.data as { kind?: string }).kind === 'evicted')).toBe(false);
  });
});
