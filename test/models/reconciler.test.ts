// The reconciler stepped by hand through two sweeps: the first sweep's answers arrive only after
// it timed out, while the second sweep is waiting for its own, and every one of them is ignored;
// the second sweep then settles the row and notes it resolved. A sweep that finds nothing goes
// back to sleep.
import { describe, expect, it } from 'vitest';
import { reconcilerMachine, type ReconcilerInput } from '../../models/reconciler.ts';
import { MachineDriver } from './machineDriver.ts';

const INPUT: ReconcilerInput = { db: 'db', provider: 'provider', recordIntent: false };
const UNKNOWN = { key: 'o-1', intent: 'order_id=o-1', state: 'UNKNOWN', op_id: null };

const polled = (sweep: number, rows: unknown[]) => ({ type: 'db.ran', ref: `reconcile-${sweep}#poll`, ok: true, results: [{ rows }] });
const status = (sweep: number, opId: string | null) => ({ type: 'provider.statusResult', ref: `reconcile-${sweep}#status`, op_id: opId, ...(opId === null ? {} : { intent: 'order_id=o-1' }) });
const response = (sweep: number) => ({ type: 'provider.response', ref: `reconcile-${sweep}#call`, status: 'created', op_id: 'op-1' });
const recorded = (sweep: number) => ({ type: 'db.ran', ref: `reconcile-${sweep}#record`, ok: true, results: [{ written: true }] });

/** A reconciler whose first sweep found the row and timed out in `stall`, now in its second sweep's poll. */
function secondSweep(stall: 'checkingStatus' | 'awaitingResponse' | 'recording'): MachineDriver {
  const d = new MachineDriver(reconcilerMachine, { ...INPUT });
  d.advance(15);
  expect(d.state).toBe('polling');
  d.receive(polled(1, [UNKNOWN]), 'db');
  expect(d.state).toBe('checkingStatus');
  if (stall !== 'checkingStatus') d.receive(status(1, stall === 'awaitingResponse' ? null : 'op-1'), 'provider');
  if (stall === 'recording') d.advance(1);
  expect(d.state).toBe(stall);
  d.advance(20);
  expect(d.state).toBe('idle');
  d.advance(15);
  expect(d.state).toBe('polling');
  return d;
}

describe('reconciler: each wait moves on for its own sweep\'s reply only', () => {
  it('goes back to sleep when a sweep finds nothing unknown, and ignores an earlier sweep\'s late poll reply', () => {
    const d = new MachineDriver(reconcilerMachine, { ...INPUT });
    d.advance(15);
    d.receive(polled(0, [UNKNOWN]), 'db');
    expect(d.state).toBe('polling');
    d.receive(polled(1, []), 'db');
    expect(d.state).toBe('idle');
    expect(d.sent.filter((s) => s.to === 'provider')).toEqual([]);
  });

  it('ignores the first sweep\'s late status answer while asking again', () => {
    const d = secondSweep('checkingStatus');
    d.receive(polled(2, [UNKNOWN]), 'db');
    expect(d.state).toBe('checkingStatus');
    d.receive(status(1, 'op-1'), 'provider');
    expect(d.state).toBe('checkingStatus');
    d.receive(status(1, null), 'provider');
    expect(d.state).toBe('checkingStatus');
    d.receive(status(2, null), 'provider');
    expect(d.state).toBe('awaitingResponse');
    expect(d.sent.at(-1)).toMatchObject({ to: 'provider', event: { type: 'provider.call', ref: 'reconcile-2#call', key: 'o-1' } });
  });

  it('ignores the first sweep\'s late call response', () => {
    const d = secondSweep('awaitingResponse');
    d.receive(polled(2, [UNKNOWN]), 'db');
    d.receive(status(2, null), 'provider');
    expect(d.state).toBe('awaitingResponse');
    d.receive(response(1), 'provider');
    expect(d.state).toBe('awaitingResponse');
    d.receive(response(2), 'provider');
    expect(d.state).toBe('afterAnswer');
  });

  it('ignores the first sweep\'s late record reply, and notes the row resolved at its own', () => {
    const d = secondSweep('recording');
    d.receive(polled(2, [UNKNOWN]), 'db');
    d.receive(status(2, 'op-1'), 'provider');
    d.advance(1);
    expect(d.state).toBe('recording');
    expect(d.sent.at(-1)).toMatchObject({ to: 'db', event: { type: 'db.run', ref: 'reconcile-2#record' } });
    d.receive(recorded(1), 'db');
    expect(d.state).toBe('recording');
    expect(d.notes.filter((n) => n.kind === 'resolved')).toEqual([]);
    d.receive(recorded(2), 'db');
    expect(d.state).toBe('idle');
    expect(d.notes.filter((n) => n.kind === 'resolved')).toEqual([{ kind: 'resolved', data: { key: 'o-1', state: 'SUCCEEDED', op_id: 'op-1' } }]);
  });
});
