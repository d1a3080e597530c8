// The service that commits a row and then calls a provider, stepped by hand: the row is committed
// before anything is sent, and what a delivery does when its row is already there decides
// whether a crash between the commit and the call loses the call.
import { describe, expect, it } from 'vitest';
import { commitThenCall, commitThenCallMachine, type CommitThenCallInput } from '../../models/commitThenCall.ts';
import { TimeScale } from '../../src/base/duration.ts';
import type { DesignComponent } from '../../src/scenario/scenario.ts';
import { MachineDriver } from './machineDriver.ts';

const INPUT: CommitThenCallInput = { broker: 'broker', group: 'shipping', db: 'db', table: 'shipments', provider: 'carrier', effectKey: ['order_id'], sendKey: true, statusLookup: true, existingRow: 'resume' };
const payload = { event_id: 'e-1', order_id: 'o-1', address: 'A' };

/** The row's transaction answered: inserted now, or found with `status`. */
const rowRan = (inserted: boolean, status = 'REQUESTED', opId: string | null = null) => ({
  type: 'db.ran',
  ref: '0.0.row',
  ok: true,
  results: [{ inserted }, { rows: [{ order_id: 'o-1', intent: 'address=A&order_id=o-1', status, op_id: opId }] }],
});

/** A service holding the delivery at partition 0, offset 0, its row's transaction sent. */
function committing(input: Partial<CommitThenCallInput> = {}): MachineDriver {
  const d = new MachineDriver(commitThenCallMachine, { ...INPUT, ...input });
  d.receive({ type: 'broker.subscribed', group: 'shipping' }, 'broker');
  d.receive({ type: 'broker.deliver', partition: 0, offset: 0, key: 'o-1', payload }, 'broker');
  d.advance(1);
  expect(d.state).toBe('committingRow');
  return d;
}

const types = (d: MachineDriver, from = 0) => d.sentSince(from).map((s) => `${s.to}:${s.event.type}`);

describe('commitThenCall: the row first, then the call', () => {
  it('commits the row (insert on conflict do nothing, read back) before it sends anything to the provider', () => {
    const d = committing();
    expect(d.sent.at(-1)).toMatchObject({ to: 'db', event: { type: 'db.run', ref: '0.0.row', ops: [{ op: 'insert', table: 'shipments', onConflict: 'nothing', row: { order_id: 'o-1', status: 'REQUESTED' } }, { op: 'select', where: { order_id: 'o-1' } }] } });
    expect(d.sent.some((s) => s.to === 'carrier')).toBe(false);
    d.receive(rowRan(true), 'db');
    expect(d.state).toBe('afterRowCommit');
    const before = d.sent.length;
    d.advance(2);
    expect(types(d, before)).toEqual(['carrier:provider.call']);
  });

  it('records the answer in the row, in a transaction of its own, and acknowledges only after it commits', () => {
    const d = committing();
    d.receive(rowRan(true), 'db');
    d.advance(2);
    d.receive({ type: 'provider.response', ref: '0.0#1', status: 'created', op_id: 'op-1' }, 'carrier');
    d.advance(1);
    expect(d.sent.at(-1)).toMatchObject({ to: 'db', event: { ref: '0.0.outcome', ops: [{ op: 'update', table: 'shipments', where: { order_id: 'o-1' }, set: { status: 'SUCCEEDED', op_id: 'op-1' } }] } });
    expect(d.sent.some((s) => s.event.type === 'broker.commit')).toBe(false);
    d.receive({ type: 'db.ran', ref: '0.0.outcome', ok: true, results: [{ updated: 1 }] }, 'db');
    d.advance(1);
    expect(d.sent.at(-1)).toMatchObject({ to: 'broker', event: { type: 'broker.commit', offset: 1 } });
  });
});

describe('commitThenCall: a row already there', () => {
  it('resumes an unfinished row: asks the provider by key first, then calls when nothing is found', () => {
    const d = committing();
    d.receive(rowRan(false), 'db');
    const before = d.sent.length;
    d.advance(1);
    expect(types(d, before)).toEqual(['carrier:provider.status']);
    d.receive({ type: 'provider.statusResult', ref: '0.0#s0', op_id: null }, 'carrier');
    d.advance(1);
    expect(types(d, before)).toEqual(['carrier:provider.status', 'carrier:provider.call']);
  });

  it('skips an unfinished row when told to: acknowledged with no call, which is how a crash after the commit loses it', () => {
    const d = committing({ existingRow: 'skip' });
    d.receive(rowRan(false), 'db');
    const before = d.sent.length;
    d.advance(5);
    expect(types(d, before)).toEqual(['broker:broker.commit']);
    expect(d.notes.find((n) => n.kind === 'guard')?.data).toMatchObject({ guard: 'rowExists', status: 'REQUESTED' });
  });

  it('never calls for a row that already SUCCEEDED, resumed or skipped', () => {
    for (const existingRow of ['resume', 'skip'] as const) {
      const d = committing({ existingRow });
      d.receive(rowRan(false, 'SUCCEEDED', 'op-1'), 'db');
      d.advance(5);
      expect(d.sent.some((s) => s.to === 'carrier')).toBe(false);
      expect(d.notes.find((n) => n.kind === 'guard')?.data).toMatchObject({ guard: 'rowOutcome', op_id: 'op-1' });
    }
  });
});

describe('commitThenCall: its options', () => {
  it('takes a retry schedule as the caller does, and refuses maxAttempts beside it', () => {
    const base = { group: 'shipping', table: 'shipments', effectKey: ['order_id'], sendKey: true, statusLookup: true, existingRow: 'resume' as const };
    const c = commitThenCall({ ...base, retry: { backoff: '1m', factor: 2, cap: '6h', until: '2d' } })({ size: 1, time: new TimeScale('1m') }) as DesignComponent;
    expect(c.input?.['retryWaitsTicks']).toHaveLength(15);
    expect(() => commitThenCall({ ...base, maxAttempts: 2, retry: { backoff: '1m', until: '1h' } })).toThrow('service takes maxAttempts or a retry schedule, not both');
    expect(() => commitThenCall({ ...base, existingRow: 'ignore' as never })).toThrow(/existingRow has no value "ignore"/);
  });

  it('refuses a status lookup without the key it would ask by, where it would silently never look up', () => {
    const base = { group: 'shipping', table: 'shipments', effectKey: ['order_id'], existingRow: 'resume' as const };
    expect(() => commitThenCall({ ...base, sendKey: false, statusLookup: true })).toThrow('service option statusLookup needs sendKey: true');
    expect(() => commitThenCall({ ...base, sendKey: false, statusLookup: false })).not.toThrow();
  });
});

describe('commitThenCall: answers it must tell apart', () => {
  it('takes a status lookup that finds the call as the answer, and calls nobody', () => {
    const d = committing();
    d.receive(rowRan(false), 'db');
    d.advance(1);
    d.receive({ type: 'provider.statusResult', ref: '0.0#s0', op_id: 'op-9' }, 'carrier');
    d.advance(1);
    expect(d.sent.filter((s) => s.event.type === 'provider.call')).toEqual([]);
    expect(d.sent.at(-1)).toMatchObject({ to: 'db', event: { ref: '0.0.outcome', ops: [{ op: 'update', set: { status: 'SUCCEEDED', op_id: 'op-9' } }] } });
  });

  it('ignores a status result of another delivery: it neither finds nor misses this one', () => {
    const d = committing();
    d.receive(rowRan(false), 'db');
    d.advance(1);
    expect(d.state).toBe('checkingStatus');
    for (const op_id of [null, 'op-9']) d.receive({ type: 'provider.statusResult', ref: '0.1#s0', op_id }, 'carrier');
    expect(d.state).toBe('checkingStatus');
    expect(d.sent.filter((s) => s.event.type === 'provider.call')).toEqual([]);
  });

  it('calls at most maxAttempts times, then gives up', () => {
    const d = committing({ statusLookup: false, maxAttempts: 2 });
    d.receive(rowRan(true), 'db');
    d.advance(200);
    expect(d.sent.filter((s) => s.event.type === 'provider.call')).toHaveLength(2);
    expect(d.state).toBe('committingOutcome');
  });

  it('forgets its session when its broker crashes, and not when another peer does', () => {
    const d = committing();
    d.receive({ type: 'sys.peerCrashed', peer: 'db' }, 'db');
    expect(d.state).toBe('committingRow');
    const before = d.sent.length;
    d.receive({ type: 'sys.peerCrashed', peer: 'broker' }, 'broker');
    expect(d.state).toBe('connecting');
    expect(types(d, before)).toEqual(['broker:broker.subscribe']);
  });
});
