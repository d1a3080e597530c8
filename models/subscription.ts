// A broker subscription as its consumers see it: the records delivered and not yet processed,
// the record in hand, and the two requests a consumer makes (subscribe, and commit the offset
// past a record). Shared by every machine that consumes from the broker, so they agree on what
// counts as the same delivery.
import type { BrokerReply, Payload } from './broker.ts';

export interface Delivery {
  readonly partition: number;
  readonly offset: number;
  readonly key: string;
  readonly payload: Payload;
  /** The group generation the broker delivered it in, when the broker fences commits by generation. */
  readonly generation?: number;
}

/** The request a member of a group sends to join it, and the message that brings it a record: a design's members declare both (`subscribes`), and the load check reads the first. */
export const SUBSCRIBE_TYPE = 'broker.subscribe' as const;
export const DELIVER_TYPE = 'broker.deliver' as const;

export function subscribeRequest(group: string) {
  return { type: SUBSCRIBE_TYPE, group };
}

/** What a member of a consumer group declares (src/faults/linkFaults.ts), so every mode offers a rebalance of its deliveries when the group has another member. */
export function groupMember(broker: string, group: string) {
  return { from: broker, group, type: DELIVER_TYPE };
}

/** Commits the offset past a record: transport progress for that record, in the generation it was delivered in. */
export function commitRequest(d: Delivery) {
  const commit = { type: 'broker.commit' as const, partition: d.partition, offset: d.offset + 1 };
  return d.generation === undefined ? commit : { ...commit, generation: d.generation };
}

/**
 * The queue after a delivery arrives, or undefined when that record is already queued or in
 * hand: a redelivery of a record still being processed is the same work, not new work.
 */
export function withDelivery(queue: readonly Delivery[], current: Delivery | undefined, event: BrokerReply): readonly Delivery[] | undefined {
  if (event.type !== 'broker.deliver') return undefined;
  const same = (d: Delivery | undefined) => d !== undefined && d.partition === event.partition && d.offset === event.offset;
  if (same(current) || queue.some(same)) return undefined;
  const d: Delivery = { partition: event.partition, offset: event.offset, key: event.key, payload: event.payload };
  return [...queue, event.generation === undefined ? d : { ...d, generation: event.generation }];
}
