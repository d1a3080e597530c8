// The two producers that feed a broker directly, stepped by hand: the publisher of committed
// facts and a partner that sends its facts twice. Each waits for the ack of the record it sent;
// an ack for another record (a late one, a duplicated one) does not count as its own.
import { describe, expect, it } from 'vitest';
import { partnerMachine, type PartnerDurable } from '../../models/partner.ts';
import { publisherMachine, type PublisherDurable } from '../../models/publisher.ts';
import { MachineDriver } from './machineDriver.ts';

const ack = (ref: string) => ({ type: 'broker.ack', ref, partition: 0, offset: 0 });

describe('publisher', () => {
  it('at least once: moves on at the ack of the record it sent, not at another record\'s', () => {
    const d = new MachineDriver(publisherMachine, { broker: 'broker', keyField: 'id', records: [{ id: 'a' }, { id: 'b' }] });
    d.advance(1);
    expect(d.state).toBe('afterPublishSend');
    expect(d.sent.map((s) => s.event['ref'])).toEqual(['rec-0']);
    d.receive(ack('rec-1'));
    expect(d.state).toBe('afterPublishSend');
    d.receive(ack('rec-0'));
    expect(d.state).toBe('afterBrokerAccept');
    d.advance(1);
    expect((d.context['durable'] as PublisherDurable).done).toBe(1);
  });

  it('at most once: records progress before it sends, and never waits for an ack', () => {
    const d = new MachineDriver(publisherMachine, { broker: 'broker', keyField: 'id', records: [{ id: 'a' }, { id: 'b' }], delivery: 'atMostOnce' });
    d.advance(1);
    expect(d.state).toBe('afterProgress');
    expect((d.context['durable'] as PublisherDurable).done).toBe(1);
    expect(d.sent).toEqual([]);
    d.advance(10);
    expect(d.state).toBe('idle');
    expect(d.sent.map((s) => s.event['ref'])).toEqual(['rec-0', 'rec-1']);
  });
});

describe('partner', () => {
  it('moves on at the ack of the fact it sent, not at another fact\'s', () => {
    const d = new MachineDriver(partnerMachine, { broker: 'broker', facts: [{ event_id: 'm-1' }, { event_id: 'm-2' }], redeliverAfterTicks: 100 });
    expect(d.state).toBe('publishing');
    expect(d.sent.map((s) => s.event['ref'])).toEqual(['m-1#first']);
    d.receive(ack('m-2#first'));
    d.receive(ack('m-1#redelivery'));
    expect((d.context['durable'] as PartnerDurable).published).toEqual([]);
    d.receive(ack('m-1#first'));
    expect((d.context['durable'] as PartnerDurable).published).toEqual(['m-1']);
    expect(d.sent.map((s) => s.event['ref'])).toEqual(['m-1#first', 'm-2#first']);
  });
});
