// The benchmark's plain baseline (bench/plainOutbox.ts) runs the Mercury outbox protocol as the
// models do, run for run: inside the real World its hand-written steppers leave the compiled
// models' trace hash (and outcome, steps, ticks and durable end state) on every windows-mode plan
// at seeds 1..10 and on 300 sampled explore cases, and they step without XState. Those runs
// rarely make two transactions wait for each other, so the plain database is also held to the
// database model alone, event for event, on generated sequences of statements from several
// connections: waits, wake order, deadlocks, crashes and the idle-in-transaction timeout.
import fc from 'fast-check';
import type { EventObject } from 'xstate';
import { timeScaleOf, type DesignComponent } from '../../src/scenario/scenario.ts';
import { describe, expect, it, vi } from 'vitest';
import { comparePlainOutbox, plainComparisonCases } from '../../bench/plainComparison.ts';
import { plainOutboxComponents, plainStepperFor, runPlainOutbox } from '../../bench/plainOutbox.ts';
import { CompiledMachine } from '../../src/kernel/compiledMachine.ts';
import { loadScenario } from '../../src/scenario/catalogue.ts';
import { runScenario } from '../../src/run/runScenario.ts';
import { stepperFor, type MachineSnapshot, type Stepper } from '../../src/kernel/stepper.ts';
import type { ExecutedAction } from '../../src/kernel/compiledMachine.ts';
import { stableJson } from '../../src/kernel/trace.ts';
import { databaseMachine, type DbOp, type TableSpec } from '../../models/database.ts';
import mercuryOutbox from '../../scenarios/mercury-outbox.ts';

describe('the plain outbox baseline', () => {
  it('gives the compiled models’ trace hash on every windows plan at seeds 1..10 and 300 explore cases', () => {
    const cases = plainComparisonCases();
    const windows = cases.filter((c) => c.mode === 'windows');
    // Every windows plan of mercury-outbox (database links lose or delay only) at ten seeds.
    expect(windows.length).toBeGreaterThan(10 * 130);
    expect(cases.length - windows.length).toBe(300);
    const r = comparePlainOutbox(cases);
    expect(r.divergences.map((d) => `seed ${d.case.seed} size ${d.case.size} ${JSON.stringify(d.case.plan)}: ${d.differs.join('; ')}`)).toEqual([]);
    expect(r.identical).toBe(cases.length);
    // The cases exercise faults, not only fault-free runs.
    expect(r.struck).toBeGreaterThan(cases.length / 2);
  });

  it('a trace hash tells the baseline from a changed protocol', () => {
    // The relay's poll interval is part of the protocol: with another one the plain run's trace
    // differs from the models', so the equality above is not an artefact of the hash.
    const plan = [{ kind: 'crash' as const, window: 'relay.afterBrokerAccept', occurrence: 1 }];
    const model = runScenario(mercuryOutbox, { seed: 3, plan });
    const changed = runScenario(
      {
        ...mercuryOutbox,
        build: ({ size }) =>
          plainOutboxComponents(size).map((c) => (c.name === 'relay' ? { ...c, stepper: plainStepperFor({ ...c, input: { ...c.input, pollTicks: 9 } }) } : c)),
      },
      { seed: 3, plan },
    );
    expect(runPlainOutbox({ seed: 3, plan }).report.traceHash).toBe(model.report.traceHash);
    expect(changed.report.traceHash).not.toBe(model.report.traceHash);
  });

  it('steps every component without XState or the compiled driver', () => {
    const machines = mercuryOutbox.build(mercuryOutbox.workload, timeScaleOf(mercuryOutbox)).map((c) => c.machine);
    const spies = [
      vi.spyOn(CompiledMachine.prototype, 'transition'),
      vi.spyOn(CompiledMachine.prototype, 'initial'),
      ...machines.flatMap((m) => [vi.spyOn(m, 'transition'), vi.spyOn(m, 'getInitialSnapshot')]),
    ];
    try {
      const run = runPlainOutbox({ seed: 1, plan: [{ kind: 'crash', window: 'consumer.afterInboxInsert', occurrence: 1 }] });
      expect(run.report.strikes).toHaveLength(1);
      expect(run.outcome).toBe('holds');
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
      // The same spies see the models' run, so they would catch a plain run that used them.
      runScenario(mercuryOutbox, { seed: 1, plan: [] });
      expect(spies[0]).toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('refuses a component whose design option it does not implement', async () => {
    const { scenario } = await loadScenario('mercury-dual-write-commit-first');
    const source = scenario.build(scenario.workload, timeScaleOf(scenario)).find((c) => c.name === 'source')!;
    expect(() => plainStepperFor(source)()).toThrow('the plain outbox baseline does not implement source with design dualWriteCommitFirst');
  });
});

// The generated sequences: three connections, two transaction names each, and statements over a
// few keys of tables shaped like the outbox design's, so that transactions often want the same
// row or key. Each command comes after a gap, in which the database's own timers fire.

const TABLES: Record<string, TableSpec> = { orders: { key: ['order_id'] }, outbox: { key: ['event_id'] }, inbox: { key: ['consumer_name', 'event_id'] } };
/** Shorter than the default, so that generated gaps let it expire. */
const IDLE_TX_TICKS = 30;

const order = fc.constantFrom('o1', 'o2');
const opArb: fc.Arbitrary<DbOp> = fc.oneof(
  // Most statements want one of two orders, so transactions often wait for each other, in both orders.
  { weight: 3, arbitrary: fc.record({ op: fc.constant('insert' as const), table: fc.constant('orders'), row: fc.record({ order_id: fc.oneof({ weight: 9, arbitrary: order }, { weight: 1, arbitrary: fc.constant(null) }), version: fc.constant(1) }), onConflict: fc.constantFrom('nothing' as const, 'error' as const) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('update' as const), table: fc.constant('orders'), where: fc.record({ order_id: order }), set: fc.record({ version: fc.integer({ min: 2, max: 3 }) }), ifVersion: fc.option(fc.integer({ min: 1, max: 2 }), { nil: undefined }) }, { requiredKeys: ['op', 'table', 'where', 'set'] }) },
  fc.record({ op: fc.constant('insert' as const), table: fc.constant('outbox'), row: fc.record({ event_id: fc.constantFrom('e1', 'e2'), published: fc.constant(false) }), onConflict: fc.constant('error' as const) }),
  fc.record({ op: fc.constant('update' as const), table: fc.constant('outbox'), where: fc.constant({ published: false }), set: fc.constant({ published: true }) }),
  fc.record({ op: fc.constant('insert' as const), table: fc.constant('inbox'), row: fc.record({ consumer_name: fc.constant('c'), event_id: fc.constantFrom('e1', 'e2') }), onConflict: fc.constant('nothing' as const) }),
  fc.record({ op: fc.constant('select' as const), table: fc.constantFrom('orders', 'outbox'), where: fc.constant({ published: false }) }),
);
const conn = fc.constantFrom('a', 'b', 'c');
const txName = fc.constantFrom('t1', 't2');
const commandArb = fc.tuple(
  // Mostly close together, so transactions overlap; now and then long enough for a timer.
  fc.oneof({ weight: 5, arbitrary: fc.nat({ max: 3 }) }, { weight: 1, arbitrary: fc.nat({ max: 40 }) }),
  fc.oneof(
    { weight: 6, arbitrary: fc.record({ type: fc.constant('db.exec'), from: conn, tx: txName, ops: fc.array(opArb, { minLength: 1, maxLength: 2 }), stmt: fc.option(fc.constantFrom('s1', 's2'), { nil: undefined }) }, { requiredKeys: ['type', 'from', 'tx', 'ops'] }) },
    { weight: 3, arbitrary: fc.record({ type: fc.constant('db.commit'), from: conn, tx: txName }) },
    { weight: 1, arbitrary: fc.record({ type: fc.constant('db.abort'), from: conn, tx: txName }) },
    { weight: 2, arbitrary: fc.record({ type: fc.constant('db.run'), from: conn, ref: fc.constantFrom('r1', 'r2'), ops: fc.array(opArb, { minLength: 1, maxLength: 2 }) }) },
    { weight: 1, arbitrary: conn.map((peer) => ({ type: 'sys.peerCrashed', from: peer, peer })) },
  ),
);

/** Two transactions taking two orders in opposite orders: a deadlock, unless something ends one of them first. */
const crossArb = fc
  .tuple(fc.constantFrom(['a', 'b'], ['b', 'c'], ['c', 'a']), txName, txName, fc.constantFrom('insert', 'update'), fc.constantFrom('insert', 'update'), fc.nat({ max: 3 }))
  .map(([[x, y], tx1, tx2, first, second, gap]) => {
    const write = (kind: string, order_id: string): DbOp =>
      kind === 'insert' ? { op: 'insert', table: 'orders', row: { order_id, version: 1 }, onConflict: 'nothing' } : { op: 'update', table: 'orders', where: { order_id }, set: { version: 2 } };
    const exec = (from: string, tx: string, op: DbOp) => [gap, { type: 'db.exec', from, tx, ops: [op] }] as const;
    return [exec(x!, tx1, write(first, 'o1')), exec(y!, tx2, write(second, 'o2')), exec(x!, tx1, write(second, 'o2')), exec(y!, tx2, write(first, 'o1'))];
  });
const commandsArb = fc
  .array(fc.oneof({ weight: 6, arbitrary: commandArb.map((c) => [c]) }, { weight: 1, arbitrary: crossArb }), { minLength: 1, maxLength: 30, size: 'max' })
  .map((parts) => parts.flat());

const INPUT = { tables: TABLES, idleTxTicks: IDLE_TX_TICKS };

/** An event as the World delivers it: its fields, `from` and `at`. */
type Delivered = EventObject & Record<string, unknown>;

/** One event delivered to a database, and what the step asked for, with the durable state after it. */
interface Step {
  readonly event: Delivered;
  readonly line: string;
}

/**
 * Runs one sequence through a database stepper as the World would: each command after its gap,
 * and before it every idle timer that falls due, in the order they fall due.
 */
function drive(stepper: Stepper, commands: readonly (readonly [number, Delivered])[]): Step[] {
  const out: Step[] = [];
  const timers = new Map<string, { at: number; seq: number; event: EventObject }>();
  let seq = 0;
  let now = 0;
  const actions: ExecutedAction[] = [];
  const perform = (event: Delivered, snapshot: MachineSnapshot) => {
    for (const a of actions) {
      const p = a.params as { id?: string; sendId?: string; delay?: number; event?: EventObject };
      if (a.type === 'xstate.raise') timers.set(p.id!, { at: now + p.delay!, seq: seq++, event: p.event! });
      if (a.type === 'xstate.cancel') timers.delete(p.sendId!);
    }
    // A server's window marks where it could crash; the baseline never crashes its servers, so
    // it marks none, and only what each asks for is compared.
    const asked = actions.filter((a) => !(a.type === 'xstate.emit' && (a.params as { event: { type: string } }).event.type === 'window'));
    out.push({ event, line: `${stableJson(asked)} ${stableJson(snapshot.context.durable)}` });
    actions.length = 0;
  };
  let snapshot = stepper.initial(INPUT, actions);
  perform({ type: 'start' }, snapshot);
  for (const [gap, command] of commands) {
    const until = now + gap;
    for (;;) {
      let due: [string, { at: number; seq: number; event: EventObject }] | undefined;
      for (const t of timers) if (t[1].at <= until && (due === undefined || t[1].at < due[1].at || (t[1].at === due[1].at && t[1].seq < due[1].seq))) due = t;
      if (due === undefined) break;
      timers.delete(due[0]);
      now = due[1].at;
      const event: Delivered = { ...due[1].event, at: now };
      snapshot = stepper.transition(snapshot, event, actions);
      perform(event, snapshot);
    }
    now = until;
    const event: Delivered = { ...command, at: now };
    snapshot = stepper.transition(snapshot, event, actions);
    perform(event, snapshot);
  }
  return out;
}

describe('the plain outbox baseline’s database', () => {
  it('asks for what the database model asks for, event for event, on generated sequences with waits, deadlocks and idle timeouts', () => {
    const component = { name: 'db', machine: databaseMachine, input: INPUT } as unknown as DesignComponent;
    const seen = { waits: 0, wakes: 0, deadlocks: 0, idle: 0 };
    fc.assert(
      fc.property(commandsArb, (commands) => {
        const model = drive(stepperFor(databaseMachine, 'db', INPUT, 'compiled').stepper, commands);
        const plain = drive(plainStepperFor(component)(), commands);
        expect(plain.map((s) => s.line)).toEqual(model.map((s) => s.line));
        for (const { event, line } of model) {
          const request = event['type'] === 'db.exec' || event['type'] === 'db.run' || event['type'] === 'db.commit';
          // A request answered in a later step waited; a reply to someone else was a wake-up.
          if (request && !line.includes(`"to":"${String(event['from'])}"`)) seen.waits++;
          if (/"to":"(a|b|c)"/.exec(line.replaceAll(`"to":"${String(event['from'])}"`, '')) !== null) seen.wakes++;
          if (line.includes('"error":"deadlock"')) seen.deadlocks++;
          if (line.includes('idle in transaction timeout')) seen.idle++;
        }
      }),
      { seed: 20_240_611, numRuns: 400 },
    );
    // The sequences reach what the outbox runs seldom do.
    expect(seen.waits).toBeGreaterThan(100);
    expect(seen.wakes).toBeGreaterThan(100);
    expect(seen.deadlocks).toBeGreaterThan(10);
    expect(seen.idle).toBeGreaterThan(10);
  });
});
