// The CDC connector, stepped by hand: it reads the outbox's committed changes from its offset,
// streams them one at a time, and moves its offset past each (after the broker's ack, or before
// the send with `offsetCommit: 'beforeAck'`). A reply to an earlier read (one that outlived its
// timeout) and an ack for another change answer nothing now.
import { describe, expect, it } from 'vitest';
import { cdcConnectorMachine, type CdcConnectorInput } from '../../models/cdcConnector.ts';
import { MachineDriver } from './machineDriver.ts';

const change = (id: string) => ({ event_id: id, aggregate_id: `agg-${id}`, published: false });
const tail = (reads: number, rows: readonly Record<string, unknown>[]) => ({ type: 'db.ran', ref: `tail-${reads}`, ok: true, results: [{ rows }] });
const publishes = (d: MachineDriver) => d.sent.filter((s) => s.to === 'broker').map((s) => s.event['ref']);
const reads = (d: MachineDriver) => d.sent.filter((s) => s.to === 'db').map((s) => [s.event['ref'], (s.event['ops'] as { from: number }[])[0]!.from]);

function connector(input: Partial<CdcConnectorInput> = {}): MachineDriver {
  const d = new MachineDriver(cdcConnectorMachine, { db: 'db', broker: 'broker', ...input });
  d.advance(8);
  expect(d.state).toBe('reading');
  return d;
}

describe('CDC connector: reads, streams and moves its offset', () => {
  it('goes back to waiting when a read finds nothing, and reads again from the same offset', () => {
    const d = connector();
    d.receive(tail(1, []), 'db');
    expect(d.state).toBe('idle');
    d.advance(8);
    expect(d.state).toBe('reading');
    expect(reads(d)).toEqual([
      ['tail-1', 0],
      ['tail-2', 0],
    ]);
  });

  it('ignores a late answer to an earlier read, empty or not, and takes its own', () => {
    const d = connector();
    d.advance(20);
    d.advance(8);
    expect(d.state).toBe('reading');
    d.receive(tail(1, []), 'db');
    expect(d.state).toBe('reading');
    d.receive(tail(1, [change('e-1')]), 'db');
    expect(d.state).toBe('reading');
    d.receive(tail(2, [change('e-1')]), 'db');
    expect(d.state).toBe('beforeRelaySend');
  });

  it('streams the changes one at a time, moving the offset past each once the broker has it', () => {
    const d = connector();
    d.receive(tail(1, [change('e-1'), change('e-2')]), 'db');
    d.advance(1);
    expect(d.state).toBe('afterRelaySend');
    expect(publishes(d)).toEqual(['e-1']);
    // An ack for another change is not this one's.
    d.receive({ type: 'broker.ack', ref: 'e-2' }, 'broker');
    expect(d.state).toBe('afterRelaySend');
    d.receive({ type: 'broker.ack', ref: 'e-1' }, 'broker');
    expect(d.state).toBe('afterBrokerAccept');
    expect(d.context['durable']).toEqual({ offset: 0 });
    d.advance(1);
    expect(d.state).toBe('afterOffsetCommit');
    expect(d.context['durable']).toEqual({ offset: 1 });
    d.advance(1);
    expect(d.state).toBe('beforeRelaySend');
    d.advance(1);
    expect(publishes(d)).toEqual(['e-1', 'e-2']);
    d.receive({ type: 'broker.ack', ref: 'e-2' }, 'broker');
    d.advance(2);
    // The last change streamed: the next read starts past it.
    expect(d.state).toBe('reading');
    expect(d.context['durable']).toEqual({ offset: 2 });
    expect(reads(d)).toEqual([
      ['tail-1', 0],
      ['tail-2', 2],
    ]);
  });

  it("'beforeAck' moves the offset before the send, then moves on once the broker has the change", () => {
    const d = connector({ offsetCommit: 'beforeAck' });
    d.receive(tail(1, [change('e-1')]), 'db');
    d.advance(1);
    expect(d.state).toBe('afterOffsetCommit');
    expect(d.context['durable']).toEqual({ offset: 1 });
    expect(publishes(d)).toEqual([]);
    d.advance(1);
    expect(d.state).toBe('afterRelaySend');
    expect(publishes(d)).toEqual(['e-1']);
    d.receive({ type: 'broker.ack', ref: 'e-1' }, 'broker');
    d.advance(1);
    expect(d.state).toBe('reading');
    expect(d.context['durable']).toEqual({ offset: 1 });
    expect(reads(d)).toEqual([
      ['tail-1', 0],
      ['tail-2', 1],
    ]);
  });
});
