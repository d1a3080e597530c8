// The smaller models stepped by hand, the way the World steps them, for the cases a fault brings
// only now and then: every wait moves on for the answer to its own request only (a late answer
// to an earlier attempt, or a refusal, leaves it waiting), a restart resumes where its durable
// state says, and a batch goes out row by row without polling again between rows.
import { describe, expect, it } from 'vitest';
import { deviceMachine } from '../../models/device.ts';
import { operatorMachine } from '../../models/operator.ts';
import { outboxCleanerMachine } from '../../models/outboxCleaner.ts';
import { partnerMachine } from '../../models/partner.ts';
import { promoterMachine } from '../../models/promoter.ts';
import { reconcilerMachine } from '../../models/reconciler.ts';
import { relayMachine } from '../../models/relay.ts';
import { MachineDriver } from './machineDriver.ts';

describe('device', () => {
  it('takes only the ack of its current upload attempt: a late ack of the timed-out one is not it', () => {
    const d = new MachineDriver(deviceMachine, { log: 'log', partition: 0, facts: [{ fact_id: 'f-1', occursAt: 1, value: 5 }], timeoutTicks: 6 });
    d.advance(1);
    expect(d.state).toBe('uploading');
    expect(d.sent.at(-1)!.event).toMatchObject({ type: 'log.append', ref: '0/0/0' });
    d.advance(6);
    expect(d.sent.at(-1)!.event).toMatchObject({ type: 'log.append', ref: '0/0/1' });
    d.receive({ type: 'log.appended', ref: '0/0/0', partition: 0, offset: 0 }, 'log');
    expect(d.state).toBe('uploading');
    expect(d.context['durable'].acked).toBe(0);
    d.receive({ type: 'log.appended', ref: '0/0/1', partition: 0, offset: 1 }, 'log');
    expect(d.state).toBe('waiting');
    expect(d.context['durable'].acked).toBe(1);
  });
});

describe('operator', () => {
  const input = { broker: 'broker', group: 'g', afterTicks: 2, truncate: { db: 'db', tables: ['reservations'] }, timeoutTicks: 5 };

  it('ticks off the truncation only when the database ran it: a refused delete is sent again', () => {
    const d = new MachineDriver(operatorMachine, input);
    d.advance(2);
    expect(d.state).toBe('truncating');
    d.receive({ type: 'db.ran', ref: 'rebuild-truncate', ok: false, results: [{ error: 'deadlock' }] }, 'db');
    expect(d.state).toBe('truncating');
    expect(d.context['durable'].truncated).toBe(false);
    const before = d.sent.length;
    d.advance(5);
    expect(d.sentSince(before).map((s) => s.event.type)).toEqual(['db.run']);
    d.receive({ type: 'db.ran', ref: 'rebuild-truncate', ok: true, results: [{ deleted: 3 }] }, 'db');
    expect(d.state).toBe('beforeReset');
    expect(d.context['durable'].truncated).toBe(true);
  });

  it('with no tables to truncate, rewinds the offsets straight away and sends no delete', () => {
    const { truncate: _, ...plain } = input;
    const d = new MachineDriver(operatorMachine, plain);
    d.advance(3);
    expect(d.sent.map((s) => s.event.type)).toEqual(['broker.resetOffsets']);
  });

  it('ticks off the rewind only when the broker confirms it for its group: an unconfirmed one is sent again', () => {
    const d = new MachineDriver(operatorMachine, { ...input, durable: { truncated: true, reset: false } });
    d.advance(1);
    expect(d.state).toBe('resetting');
    expect(d.sent.map((s) => s.event)).toEqual([{ type: 'broker.resetOffsets', group: 'g', offset: 0 }]);
    // Another group's confirmation is not this one's.
    d.receive({ type: 'broker.offsetsReset', group: 'other', offset: 0 }, 'broker');
    expect(d.state).toBe('resetting');
    d.advance(5);
    expect(d.sent.map((s) => s.event.type)).toEqual(['broker.resetOffsets', 'broker.resetOffsets']);
    expect(d.context['durable'].reset).toBe(false);
    d.receive({ type: 'broker.offsetsReset', group: 'g', offset: 0 }, 'broker');
    expect(d.state).toBe('done');
    expect(d.context['durable'].reset).toBe(true);
    d.advance(30);
    expect(d.sent).toHaveLength(2);
  });

  it('a restart resumes the runbook at its first unticked line: a done rewind is not sent again, a done truncation not repeated', () => {
    const finished = new MachineDriver(operatorMachine, { ...input, durable: { truncated: true, reset: true } });
    expect(finished.state).toBe('done');
    finished.advance(30);
    expect(finished.sent).toEqual([]);
    const truncated = new MachineDriver(operatorMachine, { ...input, durable: { truncated: true, reset: false } });
    expect(truncated.state).toBe('beforeReset');
    truncated.advance(3);
    expect(truncated.sent.map((s) => s.event.type)).toEqual(['broker.resetOffsets']);
  });
});

describe('outbox cleaner', () => {
  it('ends a sweep on that sweep\'s answer only: the late answer of the one that timed out is not it', () => {
    const d = new MachineDriver(outboxCleanerMachine, { db: 'db', everyTicks: 10, retentionTicks: 100, timeoutTicks: 5 });
    d.advance(10);
    expect(d.state).toBe('cleaning');
    expect(d.sent.at(-1)!.event).toMatchObject({ type: 'db.run', ref: 'sweep-1' });
    d.advance(5);
    expect(d.state).toBe('idle');
    d.advance(10);
    expect(d.sent.at(-1)!.event).toMatchObject({ type: 'db.run', ref: 'sweep-2' });
    d.receive({ type: 'db.ran', ref: 'sweep-1', ok: true, results: [{ deleted: 0 }] }, 'db');
    expect(d.state).toBe('cleaning');
    d.receive({ type: 'db.ran', ref: 'sweep-2', ok: true, results: [{ deleted: 0 }] }, 'db');
    expect(d.state).toBe('idle');
  });
});

describe('partner', () => {
  const facts = [{ event_id: 'e-1' }, { event_id: 'e-2' }];

  it('takes only the ack of the fact and round in hand: a late ack of the first round is not the redelivery\'s', () => {
    const d = new MachineDriver(partnerMachine, { broker: 'broker', facts, redeliverAfterTicks: 50, timeoutTicks: 5 });
    expect(d.state).toBe('publishing');
    d.receive({ type: 'broker.ack', ref: 'e-2#first', partition: 0, offset: 0 }, 'broker');
    expect(d.state).toBe('publishing');
    d.receive({ type: 'broker.ack', ref: 'e-1#first', partition: 0, offset: 0 }, 'broker');
    d.receive({ type: 'broker.ack', ref: 'e-2#first', partition: 0, offset: 1 }, 'broker');
    expect(d.context['durable'].published).toEqual(['e-1', 'e-2']);
    d.advance(51);
    expect(d.state).toBe('redelivering');
    d.receive({ type: 'broker.ack', ref: 'e-1#first', partition: 0, offset: 0 }, 'broker');
    expect(d.state).toBe('redelivering');
    expect(d.context['durable'].redelivered).toEqual([]);
    d.receive({ type: 'broker.ack', ref: 'e-1#redelivery', partition: 0, offset: 2 }, 'broker');
    expect(d.context['durable'].redelivered).toEqual(['e-1']);
  });

  it('restarted with its redelivery due and unfinished, it resumes the redelivery at once, without reading the schedule again', () => {
    const durable = { published: ['e-1', 'e-2'], redelivered: ['e-1'], redeliveryDue: true, redeliverAt: 40 };
    const d = new MachineDriver(partnerMachine, { broker: 'broker', facts, redeliverAfterTicks: 50, durable });
    expect(d.state).toBe('redelivering');
    expect(d.sent.at(-1)!.event).toMatchObject({ type: 'broker.publish', ref: 'e-2#redelivery' });
  });
});

describe('partner, restarted once its redelivery is due', () => {
  it('redelivers straight from reading the schedule, never resting in the wait it no longer has', () => {
    const durable = { published: ['e-1', 'e-2'], redelivered: [], redeliveryDue: false, redeliverAt: 1 };
    const d = new MachineDriver(partnerMachine, { broker: 'broker', facts: [{ event_id: 'e-1' }, { event_id: 'e-2' }], redeliverAfterTicks: 50, durable });
    expect(d.state).toBe('scheduling');
    d.advance(1);
    expect(d.state).toBe('redelivering');
    expect(d.states).not.toContain('waitingToRedeliver');
    expect(d.sent.at(-1)!.event).toMatchObject({ type: 'broker.publish', ref: 'e-1#redelivery' });
  });
});

describe('promoter', () => {
  const input = { live: 'live', rebuild: 'rebuild', compare: true, pollTicks: 5, timeoutTicks: 5 };

  it('restarted after its decision, it keeps it: no second read, no second promotion or refusal', () => {
    for (const status of ['promoted', 'refused'] as const) {
      const d = new MachineDriver(promoterMachine, { ...input, durable: { status, served: status === 'promoted' ? 'rebuild' : 'live', mismatches: [] } });
      expect(d.state).toBe(status);
      d.advance(20);
      expect(d.sent).toEqual([]);
      expect(d.notes).toEqual([]);
    }
  });
});

describe('reconciler', () => {
  const input = { db: 'db', provider: 'provider', recordIntent: false, pollTicks: 10, timeoutTicks: 5 };
  const unknown = { key: 'k-1', intent: 'i-1', state: 'UNKNOWN' };

  it('takes only the answer of its current sweep: a late answer of the sweep that timed out neither ends nor starts it', () => {
    const d = new MachineDriver(reconcilerMachine, input);
    d.advance(10);
    expect(d.sent.at(-1)!.event).toMatchObject({ type: 'db.run', ref: 'reconcile-1#poll' });
    d.advance(5);
    expect(d.state).toBe('idle');
    d.advance(10);
    expect(d.state).toBe('polling');
    d.receive({ type: 'db.ran', ref: 'reconcile-1#poll', ok: true, results: [{ rows: [] }] }, 'db');
    expect(d.state).toBe('polling');
    d.receive({ type: 'db.ran', ref: 'reconcile-2#poll', ok: true, results: [{ rows: [unknown] }] }, 'db');
    expect(d.state).toBe('checkingStatus');
    expect(d.sent.at(-1)).toMatchObject({ to: 'provider', event: { type: 'provider.status', ref: 'reconcile-2#status', key: 'k-1' } });
  });
});

describe('relay', () => {
  it('publishes a batch one row at a time: once a row is marked (by the mark\'s own answer), the next goes out without another poll', () => {
    const d = new MachineDriver(relayMachine, { db: 'db', broker: 'broker', pollTicks: 8, timeoutTicks: 20 });
    d.advance(8);
    const rows = [
      { event_id: 'e-1', aggregate_id: 'o-1', published: false },
      { event_id: 'e-2', aggregate_id: 'o-1', published: false },
    ];
    d.receive({ type: 'db.ran', ref: 'poll-1', ok: true, results: [{ rows }] }, 'db');
    d.advance(1);
    expect(d.sent.at(-1)!.event).toMatchObject({ type: 'broker.publish', ref: 'e-1' });
    d.receive({ type: 'broker.ack', ref: 'e-1', partition: 0, offset: 0 }, 'broker');
    d.advance(1);
    expect(d.sent.at(-1)!.event).toMatchObject({ type: 'db.run', ref: 'mark-e-1' });
    // The poll's answer again (a duplicated statement) is not the mark's.
    d.receive({ type: 'db.ran', ref: 'poll-1', ok: true, results: [{ rows }] }, 'db');
    expect(d.state).toBe('recordingProgress');
    d.receive({ type: 'db.ran', ref: 'mark-e-1', ok: true, results: [{ updated: 1 }] }, 'db');
    const before = d.sent.length;
    d.advance(2);
    expect(d.sentSince(before).map((m) => [m.event.type, m.event['ref']])).toEqual([['broker.publish', 'e-2']]);
  });

  it('marking before it sends, publishes nothing on a mark the database refused: the row stays unmarked for the next poll', () => {
    const d = new MachineDriver(relayMachine, { db: 'db', broker: 'broker', pollTicks: 8, timeoutTicks: 20, mark: 'beforeSend' });
    d.advance(8);
    d.receive({ type: 'db.ran', ref: 'poll-1', ok: true, results: [{ rows: [{ event_id: 'e-1', aggregate_id: 'o-1', published: false }] }] }, 'db');
    expect(d.state).toBe('recordingProgress');
    expect(d.sent.at(-1)!.event).toMatchObject({ type: 'db.run', ref: 'mark-e-1' });
    const before = d.sent.length;
    // The refusal of another row's mark (one that timed out before) is not this mark's.
    d.receive({ type: 'db.ran', ref: 'mark-e-0', ok: false, conflict: 'deadlock', results: [{ error: 'deadlock' }] }, 'db');
    expect(d.state).toBe('recordingProgress');
    d.receive({ type: 'db.ran', ref: 'mark-e-1', ok: false, conflict: 'deadlock', results: [{ error: 'deadlock' }] }, 'db');
    expect(d.state).toBe('idle');
    d.advance(8);
    expect(d.sentSince(before).map((m) => [m.event.type, m.event['ref']])).toEqual([['db.run', 'poll-2']]);
  });
});
