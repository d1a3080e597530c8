// The claiming relay, stepped by hand through a round that publishes its whole claim at once
// (`concurrency: 'concurrent'`): the broker's acks come back one by one, and the round moves on
// to marking its rows only when the last of them has arrived, taking each earlier ack as it
// comes.
import { describe, expect, it } from 'vitest';
import { claimingRelayMachine } from '../../models/claimingRelay.ts';
import { MachineDriver } from './machineDriver.ts';

const row = (id: string, aggregate: string) => ({ event_id: id, aggregate_id: aggregate, published: false });

/** A concurrent claiming relay whose first claim returned two rows of different aggregates, both sent. */
function sentTwo(): MachineDriver {
  const d = new MachineDriver(claimingRelayMachine, { db: 'db', broker: 'broker', concurrency: 'concurrent' });
  d.advance(8);
  expect(d.state).toBe('claiming');
  d.receive({ type: 'db.result', tx: 'claim-1', stmt: 'claim', results: [{ rows: [row('e-1', 'a-1'), row('e-2', 'a-2')] }] }, 'db');
  d.advance(1);
  expect(d.state).toBe('afterRelaySend');
  expect(d.sent.filter((s) => s.to === 'broker').map((s) => s.event['ref'])).toEqual(['e-1', 'e-2']);
  return d;
}

describe('claiming relay: a claim published all at once waits for every ack', () => {
  it('takes an earlier ack as it comes, and marks the rows once the last one arrives', () => {
    const d = sentTwo();
    d.receive({ type: 'broker.ack', ref: 'e-2' }, 'broker');
    expect(d.state).toBe('afterRelaySend');
    expect(d.context['unacked']).toEqual(['e-1']);
    const before = d.sent.length;
    d.receive({ type: 'broker.ack', ref: 'e-1' }, 'broker');
    expect(d.state).toBe('afterBrokerAccept');
    expect(d.context['unacked']).toEqual([]);
    d.advance(1);
    expect(d.state).toBe('recordingProgress');
    expect(d.sentSince(before)).toMatchObject([{ to: 'db', event: { type: 'db.exec', tx: 'claim-1', stmt: 'mark-e-1,e-2' } }]);
  });
});
