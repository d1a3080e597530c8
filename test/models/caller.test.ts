// The caller of an external API, stepped by hand through its guarded waits: each wait moves on
// only for its own reply (its own statement, its own delivery's status answer), so a late or
// foreign reply, which a delay or a redelivery brings, is ignored; and a negative status answer
// is acted on at once.
import { describe, expect, it } from 'vitest';
import { caller, callerMachine, intentField, intentOf, type CallerInput } from '../../models/caller.ts';
import { TimeScale } from '../../src/base/duration.ts';
import type { DesignComponent } from '../../src/scenario/scenario.ts';
import { MachineDriver } from './machineDriver.ts';

const INPUT: CallerInput = { broker: 'broker', group: 'fulfillment', db: 'db', provider: 'provider', effectKey: ['order_id'], sendKey: true, statusLookup: true, recordIntent: true };
const payload = { event_id: 'e-1', order_id: 'o-1', address: 'A' };
const INTENT = intentOf(undefined, payload);

const ran = (ref: string, results: unknown[] = [{ rows: [] }, { rows: [] }]) => ({ type: 'db.ran', ref, ok: true, results });
const status = (ref: string, opId: string | null) => ({ type: 'provider.statusResult', ref, op_id: opId, ...(opId === null ? {} : { intent: INTENT }) });

/** A caller holding the delivery at partition 0, offset 0, with its intent written: about to call. */
function calling(input: Partial<CallerInput> = {}): MachineDriver {
  const d = new MachineDriver(callerMachine, { ...INPUT, ...input });
  d.receive({ type: 'broker.subscribed', group: 'fulfillment' }, 'broker');
  d.receive({ type: 'broker.deliver', partition: 0, offset: 0, key: 'o-1', payload }, 'broker');
  d.advance(1);
  expect(d.state).toBe('checkingLocalOutcome');
  d.receive(ran('0.0.local'), 'db');
  expect(d.state).toBe('recordingIntent');
  d.receive(ran('0.0.intent', [{ written: true }]), 'db');
  expect(d.state).toBe('beforeExternalCall');
  d.advance(1);
  expect(d.state).toBe('awaitingExternalResponse');
  return d;
}

/** The same caller after its call timed out: asking the provider by key. */
function checking(): MachineDriver {
  const d = calling();
  d.advance(20);
  expect(d.state).toBe('checkingStatus');
  expect(d.sent.at(-1)).toMatchObject({ to: 'provider', event: { type: 'provider.status', ref: '0.0#s1', key: 'o-1' } });
  return d;
}

describe('caller: the intent it sends', () => {
  it('names every field but event_id in name order, and intentField reads one back', () => {
    expect(INTENT).toBe('address=A&order_id=o-1');
    expect(intentField(INTENT, 'order_id')).toBe('o-1');
    expect(intentField(INTENT, 'address')).toBe('A');
    // A field that only ends like another, and sorts before it, is not taken for it.
    expect(intentField(intentOf(undefined, { a_order_id: 's-1', order_id: 'o-2' }), 'order_id')).toBe('o-2');
    // A value holding what looks like another field is that value alone.
    const tricky = intentOf(undefined, { address: 'Flat 2&order_id=o-999 100%', order_id: 'o-1' });
    expect(tricky).toBe('address=Flat 2%26order_id%3Do-999 100%25&order_id=o-1');
    expect(intentField(tricky, 'order_id')).toBe('o-1');
    expect(intentField(tricky, 'address')).toBe('Flat 2&order_id=o-999 100%');
    expect(intentField(INTENT, 'event_id')).toBeUndefined();
  });
});

describe('caller: each wait moves on for its own reply only', () => {
  it('records the intent before calling: a late reply to its local read is not the intent write', () => {
    const d = new MachineDriver(callerMachine, { ...INPUT });
    d.receive({ type: 'broker.subscribed', group: 'fulfillment' }, 'broker');
    d.receive({ type: 'broker.deliver', partition: 0, offset: 0, key: 'o-1', payload }, 'broker');
    d.advance(1);
    d.receive(ran('0.0.local'), 'db');
    expect(d.state).toBe('recordingIntent');
    d.receive(ran('0.0.local'), 'db');
    expect(d.state).toBe('recordingIntent');
    expect(d.sent.some((s) => s.event.type === 'provider.call')).toBe(false);
  });

  it('acknowledges only once its outcome is committed: a late reply to its intent write is not the outcome write', () => {
    const d = calling();
    d.receive({ type: 'provider.response', ref: '0.0#1', status: 'created', op_id: 'op-1' }, 'provider');
    d.advance(1);
    expect(d.state).toBe('committingOutcome');
    d.receive(ran('0.0.intent', [{ written: true }]), 'db');
    expect(d.state).toBe('committingOutcome');
    d.receive(ran('0.0.outcome', [{ written: true }, { written: true }]), 'db');
    expect(d.state).toBe('afterLocalCommit');
    expect(d.notes.filter((n) => n.kind === 'effect')).toHaveLength(1);
  });

  it('ignores a status answer meant for another delivery, found or not', () => {
    const d = checking();
    d.receive(status('3.7#s1', 'op-9'), 'provider');
    expect(d.state).toBe('checkingStatus');
    d.receive(status('3.7#s1', null), 'provider');
    expect(d.state).toBe('checkingStatus');
    d.receive(status('0.0#s1', 'op-1'), 'provider');
    expect(d.state).toBe('afterExternalResponse');
  });

  it('calls again at once when the provider has no operation under the key, without waiting out its timeout', () => {
    const d = checking();
    const before = d.sent.length;
    d.receive(status('0.0#s1', null), 'provider');
    expect(d.state).toBe('beforeExternalCall');
    d.advance(1);
    expect(d.sentSince(before).map((s) => s.event.type)).toEqual(['provider.call']);
  });
});

describe('caller: its broker session and its gate', () => {
  it("drops the delivery in hand and subscribes again when its broker crashes, and only its broker's crash", () => {
    const d = calling();
    d.receive({ type: 'sys.peerCrashed', peer: 'db' }, 'world');
    expect(d.state).toBe('awaitingExternalResponse');
    const before = d.sent.length;
    d.receive({ type: 'sys.peerCrashed', peer: 'broker' }, 'world');
    expect(d.state).toBe('connecting');
    expect(d.context['current']).toBeUndefined();
    expect(d.sentSince(before)).toEqual([{ to: 'broker', event: { type: 'broker.subscribe', group: 'fulfillment' } }]);
  });

  it('a gated caller records its outcome GATED and never calls the provider', () => {
    const d = new MachineDriver(callerMachine, { ...INPUT, sideEffects: 'gated' });
    d.receive({ type: 'broker.subscribed', group: 'fulfillment' }, 'broker');
    d.receive({ type: 'broker.deliver', partition: 0, offset: 0, key: 'o-1', payload }, 'broker');
    d.advance(1);
    d.receive(ran('0.0.local'), 'db');
    d.receive(ran('0.0.intent', [{ written: true }]), 'db');
    expect(d.state).toBe('committingOutcome');
    expect(d.notes.filter((n) => n.kind === 'guard').map((n) => n.data?.['guard'])).toEqual(['sideEffectGate']);
    expect(d.sent.at(-1)).toMatchObject({ to: 'db', event: { ref: '0.0.outcome', ops: [{ row: { state: 'GATED', op_id: null } }, { row: { state: 'GATED' } }] } });
    d.advance(100);
    expect(d.sent.some((s) => s.to === 'provider')).toBe(false);
  });
});

describe('caller: a retry schedule with backoff and a deadline', () => {
  // No lookup, so each unanswered call is followed by the next after its wait: waits of 5, 10 and 20 ticks.
  const SCHEDULE: Partial<CallerInput> = { statusLookup: false, timeoutTicks: 3, retryWaitsTicks: [5, 10, 20] };
  const callTimes = (d: MachineDriver) => d.sent.filter((s) => s.event.type === 'provider.call').map((s) => s.event['ref']);

  it('waits each retry out in beforeExternalCall before the call goes, then gives up UNKNOWN after the last', () => {
    const d = calling(SCHEDULE);
    expect(callTimes(d)).toEqual(['0.0#1']);
    d.advance(3);
    expect(d.state).toBe('beforeExternalCall');
    d.advance(4);
    // The first wait is 5 ticks: the second call has not gone yet.
    expect(callTimes(d)).toEqual(['0.0#1']);
    d.advance(1);
    expect(callTimes(d)).toEqual(['0.0#1', '0.0#2']);
    d.advance(3 + 10);
    expect(callTimes(d)).toEqual(['0.0#1', '0.0#2', '0.0#3']);
    d.advance(3 + 19);
    expect(callTimes(d)).toHaveLength(3);
    d.advance(1);
    expect(callTimes(d)).toHaveLength(4);
    d.advance(3);
    expect(d.state).toBe('committingOutcome');
    expect(d.notes.find((n) => n.kind === 'unknownOutcome')?.data).toMatchObject({ attempts: 4 });
  });

  it('without a schedule calls again on the next tick, maxAttempts times', () => {
    const d = calling({ statusLookup: false, timeoutTicks: 3, maxAttempts: 2 });
    d.advance(3 + 1);
    expect(callTimes(d)).toEqual(['0.0#1', '0.0#2']);
    d.advance(3);
    expect(d.state).toBe('committingOutcome');
  });

  it('is drawn from the schedule `faultline calc retry` prints, rounded up to whole ticks, and refuses maxAttempts beside it', () => {
    const at = (tick: string) => caller({ group: 'g', effectKey: ['order_id'], sendKey: true, statusLookup: true, recordIntent: true, retry: { backoff: '1m', factor: 2, cap: '6h', until: '2d' } })({ size: 1, time: new TimeScale(tick) });
    const minutes = (at('1m') as DesignComponent).input!['retryWaitsTicks'] as number[];
    expect(minutes).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 360, 360, 360, 360, 360, 360]);
    // At a tick of 7 minutes the 1-minute wait is one tick and 6 hours is 52 (51.4, rounded up).
    expect(((at('7m') as DesignComponent).input!['retryWaitsTicks'] as number[]).slice(0, 4)).toEqual([1, 1, 1, 2]);
    expect(((at('7m') as DesignComponent).input!['retryWaitsTicks'] as number[]).at(-1)).toBe(52);
    expect(() => caller({ group: 'g', effectKey: ['order_id'], sendKey: true, statusLookup: true, recordIntent: true, maxAttempts: 2, retry: { backoff: '1m', until: '1h' } })).toThrow(
      'caller takes maxAttempts or a retry schedule, not both: the schedule sets the attempts',
    );
    expect(() => at('1m') && caller({ group: 'g', effectKey: ['order_id'], sendKey: true, statusLookup: true, recordIntent: true, retry: { backoff: '1h', until: '30m' } })({ size: 1, time: new TimeScale('1m') })).toThrow(
      'caller option retry: until 30 m is shorter than the first wait 1 h: no retry fits before it',
    );
  });

  it('refuses a status lookup without the key it would ask by, where it would silently never look up', () => {
    expect(() => caller({ name: 'mailer', group: 'g', effectKey: ['order_id'], sendKey: false, statusLookup: true, recordIntent: true })).toThrow('mailer option statusLookup needs sendKey: true');
    expect(() => caller({ group: 'g', effectKey: ['order_id'], sendKey: false, statusLookup: false, recordIntent: true })).not.toThrow();
  });
});
