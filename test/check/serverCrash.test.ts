// Servers crashing in the exhaustive search: where a design sets crashes, a step to the server is
// also offered crashed at each window mark it reaches, so the power-loss broker is violated by
// check as by windows mode, its windows are struck rather than reported unreachable, its
// counterexample replays from its choice path to the same trace, a crash at a mark that undoes
// its step leaves the server's durable state as before the step, and a restarted database is
// given the sessions its crash broke.
import { describe, expect, it } from 'vitest';
import { check, checkSetup, runChoices } from '../../src/modes/check/check.ts';
import { decodeChoices } from '../../src/modes/check/choicePath.ts';
import type { KernelState as CheckState } from '../../src/kernel/draft.ts';
import type { Kernel as CheckWorld, Choice } from '../../src/kernel/kernel.ts';
import { loadScenario } from '../../src/scenario/catalogue.ts';

const load = async (name: string) => (await loadScenario(name)).scenario;

/** Follows the first choice that is not a fault until a state offers a server crash `pick` accepts. */
function walkTo(world: CheckWorld, pick: (c: Choice) => boolean): { s: CheckState; c: Choice } {
  let s = world.initial();
  for (let step = 0; step < 10_000; step++) {
    const offered = world.choices(s);
    const c = offered.find(pick);
    if (c) return { s, c };
    const plain = offered.find((o) => o.kind !== 'crash' && !['lose', 'duplicate', 'delay', 'reorder', 'rebalance'].includes(o.kind));
    if (!plain) break;
    s = world.apply(s, plain);
  }
  throw new Error('no such server crash on the first path');
}

const at = (window: string) => (c: Choice) => c.kind === 'crash' && c.at?.window === window;

describe('check with crashing servers', () => {
  it('finds the lost effect of a broker that acks before it syncs, at broker.beforeSync, and replays it', async () => {
    const scenario = await load('outbox-broker-acks-before-sync');
    const r = check(scenario, { faults: 1 });
    expect(r.judgement.verdict).toBe('violated');
    expect(r.judgement.found).toEqual(['lost effect']);
    const broker = r.failureWindows.filter((w) => w.startsWith('broker.'));
    expect(broker).toContain('broker.beforeSync');
    for (const w of broker) {
      expect(r.unreachedWindows).not.toContain(w);
      expect(r.check.unstruckWindows).not.toContain(w);
    }
    const struck = r.rows.filter((row) => row.fault === 'crash' && row.place.kind === 'window' && row.place.component === 'broker');
    expect(struck.length).toBe(broker.length);
    const ce = r.counterexamples.find((c) => c.violation === 'lost effect')!;
    expect(ce.plan).toEqual([{ kind: 'crash', window: 'broker.beforeSync', occurrence: expect.any(Number) }]);
    const again = runChoices(scenario, checkSetup(scenario, { faults: 1 }), decodeChoices(ce.replay.kind === 'choices' ? ce.replay.choices : ''));
    expect(again.traceHash).toBe(ce.traceHash);
    expect(again.plan).toEqual(ce.plan);
    expect(again.trace).toContainEqual(expect.objectContaining({ component: 'broker', kind: 'crash', data: { window: 'broker.beforeSync' } }));
    // The fault itself is traced as the world's, just before the crash it causes.
    const crashAt = again.trace.findIndex((e) => e.component === 'broker' && e.kind === 'crash');
    expect(again.trace[crashAt - 1]).toMatchObject({ component: 'world', kind: 'fault', data: { kind: 'crash', window: 'broker.beforeSync' } });
  }, 120_000);

  it('finds nothing to break when the broker syncs before it acks, with every broker window struck', async () => {
    const r = check(await load('outbox-broker-syncs-before-ack'), { faults: 1 });
    expect(r.judgement.verdict).toBe('holds');
    const broker = r.failureWindows.filter((w) => w.startsWith('broker.'));
    expect(broker.length).toBeGreaterThan(0);
    for (const w of broker) expect([...r.unreachedWindows, ...r.check.unstruckWindows]).not.toContain(w);
  }, 120_000);

  it('offers no server crash where the design does not let the server crash', async () => {
    const { world } = checkSetup(await load('mercury-outbox'), { faults: 1 });
    let s = world.initial();
    for (let step = 0; step < 300; step++) {
      const offered = world.choices(s);
      expect(offered.filter((c) => c.kind === 'crash' && c.at !== undefined)).toEqual([]);
      const plain = offered.find((o) => o.kind === 'deliver' || o.kind === 'timer' || o.kind === 'advance' || o.kind === 'restart');
      if (!plain) break;
      s = world.apply(s, plain);
    }
  });

  it('puts back the durable state before the step when the mark it crashes at undoes the step', async () => {
    const { world } = checkSetup(await load('outbox-broker-acks-before-sync'), { faults: 1 });
    const { s, c } = walkTo(world, at('broker.beforeAppend'));
    const before = world.durable(s).broker;
    const t = world.apply(s, c);
    expect(t.faults).toBe(1);
    const i = world.names.indexOf('broker');
    expect(t.comps[i]!.down).toBe(true);
    expect(world.durable(t).broker).toEqual(before);
    // The same step taken without the crash does change the broker's log.
    const plain = c.kind === 'crash' && c.at!.step.kind === 'deliver' ? world.apply(s, { kind: 'deliver', link: c.at!.step.link }) : undefined;
    expect(plain && world.durable(plain).broker).not.toEqual(before);
  });

  it('restarts a crashed database with the sessions its crash broke', async () => {
    const { world } = checkSetup(await load('checkout-stable-key-database-crash'), { faults: 1 });
    const { s, c } = walkTo(world, at('ordersDb.afterStatement'));
    let t = world.apply(s, c);
    const i = world.names.indexOf('ordersDb');
    expect(t.comps[i]!.down).toBe(true);
    for (let step = 0; step < 100 && t.comps[i]!.down; step++) {
      const offered = world.choices(t);
      t = world.apply(t, offered.find((o) => o.kind === 'restart' && o.comp === i) ?? offered.find((o) => o.kind === 'deliver' || o.kind === 'timer' || o.kind === 'advance')!);
    }
    expect(t.comps[i]!.down).toBe(false);
    const broken = (t.comps[i]!.snapshot.context as { broken?: readonly string[] }).broken;
    expect(broken?.length).toBeGreaterThan(0);
  });
});
