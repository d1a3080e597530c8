// The claiming relay, stepped by hand. A round that publishes its whole claim at once
// (`concurrency: 'concurrent'`) gets the broker's acks back one by one, and moves on to marking
// its rows only when the last of them has arrived, taking each earlier ack as it comes; an ack
// for a row already acknowledged, and a late answer to an earlier round's claim, change nothing.
// A round that publishes one row at a time marks each row before sending the next, and commits
// after the last.
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

describe('claiming relay: a reply or ack that is not for the round in hand changes nothing', () => {
  it("ignores a late empty answer to an earlier round's claim, and takes its own", () => {
    const d = new MachineDriver(claimingRelayMachine, { db: 'db', broker: 'broker' });
    d.advance(8);
    // The first claim goes unanswered past the timeout: the round is given up and a second begins.
    d.advance(20);
    expect(d.state).toBe('idle');
    d.advance(8);
    expect(d.state).toBe('claiming');
    const before = d.sent.length;
    d.receive({ type: 'db.result', tx: 'claim-1', stmt: 'claim', results: [{ rows: [] }] }, 'db');
    expect(d.state).toBe('claiming');
    expect(d.sentSince(before)).toEqual([]);
    d.receive({ type: 'db.result', tx: 'claim-2', stmt: 'claim', results: [{ rows: [row('e-1', 'a-1')] }] }, 'db');
    expect(d.state).toBe('beforeRelaySend');
  });

  it('an ack for the first of two rows sent is not the last: the round waits for the other', () => {
    const d = sentTwo();
    d.receive({ type: 'broker.ack', ref: 'e-1' }, 'broker');
    expect(d.state).toBe('afterRelaySend');
    expect(d.context['unacked']).toEqual(['e-2']);
    d.receive({ type: 'broker.ack', ref: 'e-2' }, 'broker');
    expect(d.state).toBe('afterBrokerAccept');
  });

  it('a repeated ack for a row already acknowledged does not stand for the row still unacked', () => {
    const d = sentTwo();
    d.receive({ type: 'broker.ack', ref: 'e-2' }, 'broker');
    d.receive({ type: 'broker.ack', ref: 'e-2' }, 'broker');
    expect(d.state).toBe('afterRelaySend');
    expect(d.context['unacked']).toEqual(['e-1']);
  });
});

describe('claiming relay: a claim published one row at a time', () => {
  it('marks the first row, then sends the next, and commits the round after the last', () => {
    const d = new MachineDriver(claimingRelayMachine, { db: 'db', broker: 'broker' });
    d.advance(8);
    d.receive({ type: 'db.result', tx: 'claim-1', stmt: 'claim', results: [{ rows: [row('e-1', 'a-1'), row('e-2', 'a-2')] }] }, 'db');
    d.advance(1);
    d.receive({ type: 'broker.ack', ref: 'e-1' }, 'broker');
    d.advance(1);
    expect(d.state).toBe('recordingProgress');
    d.receive({ type: 'db.result', tx: 'claim-1', stmt: 'mark-e-1', results: [{}] }, 'db');
    expect(d.state).toBe('afterRelayProgress');
    d.advance(1);
    expect(d.state).toBe('beforeRelaySend');
    d.advance(1);
    expect(d.state).toBe('afterRelaySend');
    d.receive({ type: 'broker.ack', ref: 'e-2' }, 'broker');
    d.advance(1);
    d.receive({ type: 'db.result', tx: 'claim-1', stmt: 'mark-e-2', results: [{}] }, 'db');
    d.advance(1);
    expect(d.state).toBe('committingClaim');
    expect(d.sent.filter((s) => s.to === 'broker').map((s) => s.event['ref'])).toEqual(['e-1', 'e-2']);
    expect(d.sent.filter((s) => s.to === 'db').map((s) => s.event['stmt'] ?? s.event['type'])).toEqual(['claim', 'mark-e-1', 'mark-e-2', 'db.commit']);
    // The commit's own answer, not another round's, ends the round: the next claim goes out at once.
    d.receive({ type: 'db.committed', tx: 'claim-0', ok: true }, 'db');
    expect(d.state).toBe('committingClaim');
    d.receive({ type: 'db.committed', tx: 'claim-1', ok: true }, 'db');
    expect(d.state).toBe('claiming');
    expect(d.sent.at(-1)!.event).toMatchObject({ tx: 'claim-2', stmt: 'claim' });
  });
});
