// The engine proves each of its fault kinds matters: for every kind there is a catalogue design
// whose verdict depends on that kind alone. Struck with that kind only, it is violated; struck
// with every other kind, it holds. A fault kind that silently did nothing would fail here.
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/catalogue.ts';
import { FAULT_KINDS, type FaultKind } from '../../src/faults/faults.ts';
import { runWindows } from '../../src/modes/windows.ts';

const DEPENDS_ON: readonly (readonly [FaultKind, string])[] = [
  ['crash', 'inventory-ack-before-commit'],
  ['lose', 'inventory-broker-without-redelivery-timeout'],
  ['duplicate', 'carrier-lookup-without-key-dedup'],
  ['delay', 'carrier-key-expires-before-a-delayed-call'],
  ['reorder', 'flow-rating-changed-fire-and-forget'],
  ['rebalance', 'group-check-then-insert'],
  ['restore', 'mercury-outbox-restore-database'],
  ['skew', 'stream-clock-skew'],
];

describe('every fault kind decides some verdict of the catalogue', () => {
  it('names a design for every kind', () => {
    expect(DEPENDS_ON.map(([k]) => k)).toEqual([...FAULT_KINDS]);
  });

  it.each(DEPENDS_ON)('%s: %s is violated with that kind alone and holds without it', async (kind, name) => {
    const { scenario } = await loadScenario(name);
    const only = runWindows({ ...scenario, windows: { ...scenario.windows, kinds: [kind] } });
    const without = runWindows({ ...scenario, windows: { ...scenario.windows, kinds: FAULT_KINDS.filter((k) => k !== kind) } });
    expect(only.judgement.verdict, `${name} with ${kind} only`).toBe('violated');
    expect(without.judgement.verdict, `${name} without ${kind}`).toBe('holds');
    // The fault-free run holds too: the violation needs the fault, not just the workload.
    expect(only.distinctOutcomes).toContain('holds');
  });
});
