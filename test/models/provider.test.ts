// The external-call boundary of the seeds, run as small worlds: a broker, a one-shot publisher,
// a caller with its local database, and a provider. Each test pairs a design option with the
// same fault, so an option that did nothing would leave the operation count unchanged.
import { describe, expect, it } from 'vitest';
import { enqueueActions, setup } from 'xstate';
import { send, type Emitted } from '../../src/kernel/emitted.ts';
import type { FaultPlan } from '../../src/faults/faults.ts';
import { World } from '../../src/run/world.ts';
import { type ComponentSpec } from '../../src/kernel/componentSpec.ts';
import { brokerMachine, type Payload } from '../../models/broker.ts';
import { CALLER_TABLES, callerMachine, type CallerInput } from '../../models/caller.ts';
import { databaseMachine, rowsOf, type DatabaseDurable } from '../../models/database.ts';
import { operationsOf, providerMachine, type ProviderDurable, type ProviderInput } from '../../models/provider.ts';

type PublisherInput = { broker: string; records: readonly Payload[] };

// Publishes its records once at start and ignores the acks: these tests fault the external
// call, not the publish.
const publisherMachine = setup({
  types: { context: {} as { durable: Record<string, never>; input: PublisherInput }, input: {} as PublisherInput, emitted: {} as Emitted },
}).createMachine({
  id: 'publisher',
  context: ({ input }) => ({ durable: {}, input }),
  initial: 'done',
  states: {
    done: {
      tags: ['idle'],
      entry: enqueueActions(({ context, enqueue }) => {
        context.input.records.forEach((payload, i) =>
          enqueue.emit(send(context.input.broker, { type: 'broker.publish', ref: `p${i}`, key: String(payload['order_id']), payload })),
        );
      }),
    },
  },
});

const pickup = (address = 'A', event_id = 'e1'): Payload => ({ event_id, order_id: 'o1', pickup_version: 1, address });

interface Setup {
  readonly caller?: Partial<CallerInput>;
  readonly provider?: Partial<ProviderInput>;
  readonly records?: readonly Payload[];
  readonly redeliveryTicks?: number;
  readonly plan?: FaultPlan;
}

const LOSE_RESPONSE: FaultPlan = [{ kind: 'lose', point: 'provider->caller:provider.response', occurrence: 1 }];

function run(s: Setup) {
  const caller: CallerInput = {
    broker: 'broker',
    group: 'fulfillment',
    db: 'db',
    provider: 'provider',
    effectKey: ['order_id', 'pickup_version'],
    sendKey: false,
    statusLookup: false,
    recordIntent: false,
    ...s.caller,
  };
  const provider: ProviderInput = { idempotency: 'none', statusLookup: 'none', ...s.provider };
  const components: ComponentSpec[] = [
    { name: 'broker', machine: brokerMachine, input: s.redeliveryTicks === undefined ? {} : { redeliveryTicks: s.redeliveryTicks }, process: false },
    { name: 'publisher', machine: publisherMachine, input: { broker: 'broker', records: s.records ?? [pickup()] }, process: false },
    { name: 'db', machine: databaseMachine, input: { tables: CALLER_TABLES }, process: false },
    { name: 'caller', machine: callerMachine, input: { ...caller }, process: true },
    { name: 'provider', machine: providerMachine, input: { ...provider }, process: true },
  ];
  const world = new World(components, { seed: 1, plan: s.plan ?? [] });
  const result = world.run();
  const db = world.durable<DatabaseDurable>('db');
  const events = world.trace.events;
  return {
    world,
    result,
    ops: operationsOf(world.durable<ProviderDurable>('provider')),
    outcomes: rowsOf(db, 'effect_outcomes'),
    intents: rowsOf(db, 'effect_intents'),
    notes: events.filter((e) => e.kind === 'note').map((e) => ({ component: e.component, ...(e.data as { kind: string; data?: Record<string, unknown> }) })),
    delivered: (to: string, type: string) => events.filter((e) => e.kind === 'deliver' && e.component === to && (e.data as { event: { type: string } }).event.type === type).length,
  };
}

describe('provider and caller', () => {
  it('a fault-free run passes all four windows of the external call and books one pickup', () => {
    const r = run({ caller: { recordIntent: true, sendKey: true, statusLookup: true }, provider: { idempotency: 'intentBound', statusLookup: 'byKey' } });
    expect(r.result.ending).toEqual({ kind: 'quiescent' });
    for (const w of ['caller.beforeExternalCall', 'provider.afterExternalEffect', 'caller.afterExternalResponse', 'caller.afterLocalCommit']) {
      expect(r.result.windowCounts.get(w), w).toBeGreaterThanOrEqual(1);
    }
    expect(r.ops).toEqual([{ op_id: 'op-1', key: 'o1/1', intent: 'address=A&order_id=o1&pickup_version=1', at: expect.any(Number) }]);
    expect(r.outcomes).toEqual([{ key: 'o1/1', intent: 'address=A&order_id=o1&pickup_version=1', state: 'SUCCEEDED', op_id: 'op-1' }]);
    expect(r.intents.map((row) => row['state'])).toEqual(['SUCCEEDED']);
    expect(r.notes.filter((n) => n.kind === 'effect')).toHaveLength(1);
    expect(r.world.durable<{ offsets: Record<string, number[]> }>('broker').offsets['fulfillment']).toEqual([1]);
  });

  it('without key or status lookup, one lost response gives two operations for one effect key', () => {
    const clean = run({});
    expect(clean.ops).toHaveLength(1);
    const r = run({ plan: LOSE_RESPONSE });
    expect(r.result.ending).toEqual({ kind: 'quiescent' });
    expect(r.result.strikes).toHaveLength(1);
    expect(r.ops.map((o) => o.op_id)).toEqual(['op-1', 'op-2']);
    expect(r.ops.every((o) => o.key === null && o.intent === r.ops[0]!.intent)).toBe(true);
    expect(r.outcomes).toHaveLength(1);
    expect(r.outcomes[0]).toMatchObject({ key: 'o1/1', state: 'SUCCEEDED', op_id: 'op-2' });
  });

  it('with the key honoured and status lookup, the lost response still gives one operation', () => {
    const r = run({ caller: { sendKey: true, statusLookup: true }, provider: { idempotency: 'honoured', statusLookup: 'byKey' }, plan: LOSE_RESPONSE });
    expect(r.result.ending).toEqual({ kind: 'quiescent' });
    expect(r.result.strikes).toHaveLength(1);
    expect(r.ops).toHaveLength(1);
    expect(r.delivered('caller', 'provider.statusResult')).toBe(1);
    expect(r.outcomes[0]).toMatchObject({ state: 'SUCCEEDED', op_id: 'op-1' });
  });

  it('with the key honoured but no lookup, the retry is replayed by the key', () => {
    const r = run({ caller: { sendKey: true }, provider: { idempotency: 'honoured' }, plan: LOSE_RESPONSE });
    expect(r.ops).toHaveLength(1);
    expect(r.notes.some((n) => n.kind === 'guard' && n.data?.['guard'] === 'providerKey' && n.data['key'] === 'o1/1')).toBe(true);
    expect(r.outcomes[0]).toMatchObject({ state: 'SUCCEEDED', op_id: 'op-1' });
  });

  it('a key retained for less than the caller timeout has expired before the retry: two operations', () => {
    const kept = run({ caller: { sendKey: true, timeoutTicks: 20 }, provider: { idempotency: 'honoured', keyRetentionTicks: 100 }, plan: LOSE_RESPONSE });
    expect(kept.ops).toHaveLength(1);
    const r = run({ caller: { sendKey: true, timeoutTicks: 20 }, provider: { idempotency: 'honoured', keyRetentionTicks: 5 }, plan: LOSE_RESPONSE });
    expect(r.result.ending).toEqual({ kind: 'quiescent' });
    expect(r.ops.map((o) => o.key)).toEqual(['o1/1', 'o1/1']);
    expect(r.ops[1]!.at - r.ops[0]!.at).toBeGreaterThanOrEqual(5);
    expect(r.notes.some((n) => n.kind === 'guard' && n.data?.['guard'] === 'providerKey')).toBe(false);
  });

  it('intentBound refuses a different intent under the same key; honoured silently returns the old operation', () => {
    const records = [pickup('A', 'e1'), pickup('B', 'e2')];
    const bound = run({ caller: { sendKey: true }, provider: { idempotency: 'intentBound' }, records });
    expect(bound.result.ending).toEqual({ kind: 'quiescent' });
    expect(bound.ops).toHaveLength(1);
    expect(bound.notes.some((n) => n.kind === 'guard' && n.data?.['guard'] === 'providerIntent' && n.data['key'] === 'o1/1')).toBe(true);
    expect(bound.outcomes.map((o) => [o['intent'], o['state'], o['op_id']])).toEqual([
      ['address=A&order_id=o1&pickup_version=1', 'SUCCEEDED', 'op-1'],
      ['address=B&order_id=o1&pickup_version=1', 'CONFLICT', 'op-1'],
    ]);
    expect(bound.notes.filter((n) => n.kind === 'conflict')).toHaveLength(1);

    const honoured = run({ caller: { sendKey: true }, provider: { idempotency: 'honoured' }, records });
    expect(honoured.ops).toHaveLength(1);
    expect(honoured.outcomes.map((o) => [o['state'], o['op_id']])).toEqual([
      ['SUCCEEDED', 'op-1'],
      ['SUCCEEDED', 'op-1'],
    ]);
  });

  it('a repeat of the same intent is skipped by the local outcome and never reaches the provider', () => {
    const r = run({ records: [pickup('A', 'e1'), pickup('A', 'e1')] });
    expect(r.ops).toHaveLength(1);
    expect(r.delivered('provider', 'provider.call')).toBe(1);
    expect(r.notes.some((n) => n.kind === 'guard' && n.data?.['guard'] === 'localOutcome')).toBe(true);
    expect(r.world.durable<{ offsets: Record<string, number[]> }>('broker').offsets['fulfillment']).toEqual([2]);
  });

  it('a crash at provider.afterExternalEffect is ambiguous, and status lookup resolves it', () => {
    const plan: FaultPlan = [{ kind: 'crash', window: 'provider.afterExternalEffect', occurrence: 1 }];
    const blind = run({ plan });
    expect(blind.result.strikes).toHaveLength(1);
    expect(blind.ops).toHaveLength(2);

    // The provider honours no key here, so only the lookup can stop the second operation.
    const r = run({ caller: { sendKey: true, statusLookup: true }, provider: { statusLookup: 'byKey' }, plan });
    expect(r.result.ending).toEqual({ kind: 'quiescent' });
    expect(r.result.strikes).toHaveLength(1);
    const durableAtCrash = r.result.strikes[0]!.durable['provider'] as ProviderDurable;
    expect(operationsOf(durableAtCrash)).toHaveLength(1);
    expect(r.delivered('caller', 'provider.response')).toBe(0);
    expect(r.delivered('caller', 'provider.statusResult')).toBe(1);
    expect(r.ops).toHaveLength(1);
    expect(r.outcomes[0]).toMatchObject({ state: 'SUCCEEDED', op_id: 'op-1' });
  });

  it('without provider status support the caller falls back to calling again', () => {
    const r = run({ caller: { sendKey: true, statusLookup: true }, provider: { statusLookup: 'none' }, plan: LOSE_RESPONSE });
    expect(r.ops).toHaveLength(2);
    expect(r.delivered('caller', 'provider.statusResult')).toBe(1);
  });

  it('a recorded intent makes the redelivery after a caller crash reconcile before calling', () => {
    const plan: FaultPlan = [{ kind: 'crash', window: 'caller.afterExternalResponse', occurrence: 1 }];
    const lookupOnly = run({ caller: { sendKey: true, statusLookup: true }, provider: { statusLookup: 'byKey' }, plan });
    expect(lookupOnly.ops).toHaveLength(2);

    const r = run({ caller: { sendKey: true, statusLookup: true, recordIntent: true }, provider: { statusLookup: 'byKey' }, plan });
    expect(r.result.ending).toEqual({ kind: 'quiescent' });
    expect(r.result.strikes).toHaveLength(1);
    const dbAtCrash = r.result.strikes[0]!.durable['db'] as DatabaseDurable;
    expect(rowsOf(dbAtCrash, 'effect_intents').map((row) => row['state'])).toEqual(['PENDING']);
    expect(r.notes.some((n) => n.kind === 'reconcile')).toBe(true);
    expect(r.ops).toHaveLength(1);
    expect(r.outcomes[0]).toMatchObject({ state: 'SUCCEEDED', op_id: 'op-1' });
  });

  it('when every attempt goes unanswered the outcome is recorded UNKNOWN and the delivery acknowledged', () => {
    const plan: FaultPlan = [1, 2].map((occurrence) => ({ kind: 'lose' as const, point: 'provider->caller:provider.response', occurrence }));
    // The broker's default 30-tick redelivery would race the commit and hand the record back;
    // the next test shows what that does. Here it waits.
    const r = run({ caller: { maxAttempts: 2 }, redeliveryTicks: 1_000, plan });
    expect(r.result.ending).toEqual({ kind: 'quiescent' });
    expect(r.ops).toHaveLength(2);
    expect(r.outcomes[0]).toMatchObject({ state: 'UNKNOWN', op_id: null });
    expect(r.notes.some((n) => n.kind === 'unknownOutcome')).toBe(true);
    expect(r.world.durable<{ offsets: Record<string, number[]> }>('broker').offsets['fulfillment']).toEqual([1]);
  });

  it('a redelivery that races the UNKNOWN commit calls blind again; with lookup nothing is left UNKNOWN', () => {
    const plan: FaultPlan = [1, 2].map((occurrence) => ({ kind: 'lose' as const, point: 'provider->caller:provider.response', occurrence }));
    // The broker redelivers exactly its timeout after the delivery: the race needs one that lands
    // after the caller gave the call up as UNKNOWN and before its commit reached the broker.
    const racing = [...Array(60).keys()].map((k) => 31 + k).find((redeliveryTicks) => run({ caller: { maxAttempts: 2 }, redeliveryTicks, plan }).ops.length === 3);
    expect(racing).toBeDefined();
    const blind = run({ caller: { maxAttempts: 2 }, redeliveryTicks: racing!, plan });
    expect(blind.ops).toHaveLength(3);
    expect(blind.outcomes[0]).toMatchObject({ state: 'SUCCEEDED', op_id: 'op-3' });

    const r = run({ caller: { maxAttempts: 2, sendKey: true, statusLookup: true }, provider: { statusLookup: 'byKey' }, redeliveryTicks: racing!, plan });
    expect(r.ops).toHaveLength(1);
    expect(r.outcomes[0]).toMatchObject({ state: 'SUCCEEDED', op_id: 'op-1' });
  });
});
