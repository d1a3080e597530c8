// What a design review asks of each failure window that a run cannot show by itself: who owns
// the retry from there, and the query that finds or repairs the damage in production. The
// answers depend on the design option, so each component's notes are a function of it.
import type { WindowNote } from '../../src/scenario.ts';
import type { ConsumerInput } from '../consumer.ts';
import type { RetryPolicy } from '../retryPolicy.ts';
import type { SourceDesign } from '../source.ts';

/** A window's note: who owns the retry from there, and the query that finds or repairs the damage. */
export const windowNote = (retryOwner: string, repairQuery: string): WindowNote => ({ retryOwner, repairQuery });
const n = windowNote;

/**
 * The source's notes. Who takes a lost command up again is the client, and only when it retries;
 * a client that makes one attempt leaves an interrupted command to nobody, so the notes say so.
 */
export function sourceNotes(design: SourceDesign, clientRetries = true): Record<string, WindowNote> {
  const acceptedWithoutEvent =
    "SELECT o.order_id FROM orders o WHERE o.status = 'ACCEPTED' AND NOT EXISTS (SELECT 1 FROM broker_events e WHERE e.aggregate_id = o.order_id AND e.aggregate_version = o.version);";
  const eventWithoutOrder =
    "SELECT e.event_id FROM broker_events e WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.order_id = e.aggregate_id AND o.version >= e.aggregate_version);";
  const retried = (why: string, alone: string) => (clientRetries ? `client retry${why}` : `nobody: the client makes one attempt${alone}`);
  const common = {
    idle: n(retried('', ''), 'none: nothing is in progress'),
    writingSource: n(retried(' (the open transaction rolls back)', ', and the open transaction rolls back'), "SELECT * FROM pg_stat_activity WHERE state = 'idle in transaction';"),
    beforeSourceCommit: n(retried(' (the open transaction rolls back)', ', and the open transaction rolls back'), "SELECT order_id, status, version FROM orders WHERE order_id = :order_id; -- expect no change"),
    committing: n(retried('; the commit outcome is unknown to the service', '; the commit outcome is unknown to the service'), 'SELECT order_id, status, version FROM orders WHERE order_id = :order_id; -- did the commit land?'),
    claimingKey: n(retried(' with the same key', ''), 'SELECT * FROM checkout_keys WHERE checkout_key = :key;'),
  };
  if (design === 'outbox') {
    return {
      ...common,
      afterSourceCommit: n('nobody needed: the relay publishes the pending outbox row as it would have', "SELECT event_id, aggregate_id FROM outbox WHERE published = false ORDER BY created_at;"),
    };
  }
  if (design === 'dualWriteCommitFirst') {
    return {
      ...common,
      afterSourceCommit: n('nobody: the publish intent lived only in memory', acceptedWithoutEvent),
      afterPublishSend: n('the service itself while it lives; nobody after a crash', acceptedWithoutEvent),
      afterBrokerAccept: n('nobody: both writes are done', 'none: consistent'),
    };
  }
  return {
    ...common,
    afterPublishSend: n('the service itself while it lives; nobody after a crash', eventWithoutOrder),
    afterBrokerAccept: n('nobody: the event is out and the commit has not happened', eventWithoutOrder),
    afterSourceCommit: n('nobody: both writes are done', 'none: consistent'),
  };
}

export function relayNotes(mark: 'afterSend' | 'beforeSend'): Record<string, WindowNote> {
  const pending = "SELECT event_id, aggregate_id, now() - created_at AS age FROM outbox WHERE published = false ORDER BY created_at;";
  const duplicatesInLog = 'SELECT event_id, count(*) FROM broker_events GROUP BY event_id HAVING count(*) > 1;';
  if (mark === 'beforeSend') {
    const markedNotSent = 'SELECT o.event_id FROM outbox o WHERE o.published AND NOT EXISTS (SELECT 1 FROM broker_events e WHERE e.event_id = o.event_id);';
    return {
      idle: n('relay poll', pending),
      polling: n('relay poll', pending),
      recordingProgress: n('relay poll (the mark may or may not have landed)', markedNotSent),
      afterRelayProgress: n('nobody: the row is marked, the publish was never sent', markedNotSent),
      beforeRelaySend: n('nobody: the row is marked published', markedNotSent),
      afterRelaySend: n('nobody: at-most-once does not resend', markedNotSent),
      afterBrokerAccept: n('nobody needed: the broker has the record', 'none: consistent'),
    };
  }
  return {
    idle: n('nobody needed: the next poll finds any pending row', pending),
    polling: n('relay poll', pending),
    beforeRelaySend: n('relay (the row is still pending)', pending),
    afterRelaySend: n('relay (the row is still pending; the broker may already hold it)', `${pending} ${duplicatesInLog}`),
    afterBrokerAccept: n('relay (republishes the same event_id)', duplicatesInLog),
    recordingProgress: n('nobody needed if the mark landed; the relay again if it did not (the row is still pending)', pending),
    afterRelayProgress: n('nobody needed: the row is marked published', 'none: consistent'),
  };
}

export function consumerNotes(c: ConsumerInput): Record<string, WindowNote> {
  const lost =
    "SELECT e.event_id FROM broker_events e WHERE e.offset < :committed_offset AND NOT EXISTS (SELECT 1 FROM reservations r WHERE r.order_id = e.order_id AND r.reservation_version = e.reservation_version);";
  const inboxWithoutEffect =
    'SELECT i.event_id FROM inbox i LEFT JOIN reservations r ON r.order_id = i.order_id WHERE r.order_id IS NULL;';
  const dupEffects = 'SELECT order_id, reservation_version, count(*) FROM reservations GROUP BY 1, 2 HAVING count(*) > 1;';
  const redelivery = 'broker redelivery from the committed offset';
  const ackedEarly = c.ack === 'beforeCommit';
  const owner = ackedEarly ? 'nobody: the offset has already moved past the record' : redelivery;
  return {
    connecting: n('the consumer itself, subscribing again after its restart', "SELECT group_id, partition, committed_offset FROM consumer_offsets WHERE group_id = 'inventory';"),
    idle: n(redelivery, 'none: nothing in hand'),
    received: n(owner, ackedEarly ? lost : 'none: nothing durable yet'),
    afterTransportProgress: n('nobody: the offset has already moved past the record', lost),
    insertingInbox: n(owner, c.inbox === 'separateTx' ? inboxWithoutEffect : 'none: the transaction rolls back'),
    afterInboxInsert: n(owner, c.inbox === 'separateTx' ? inboxWithoutEffect : 'none: the transaction rolls back'),
    writingEffect: n(owner, 'none: the transaction rolls back'),
    committingEffect: n(owner, c.inbox === 'none' ? dupEffects : 'SELECT * FROM inbox WHERE event_id = :event_id; -- did the commit land?'),
    afterEffectCommit: n(`${redelivery} (the ${c.inbox === 'none' ? 'effect key' : 'inbox'} suppresses the repeat)`, c.inbox === 'none' ? dupEffects : 'SELECT event_id FROM inbox WHERE event_id = :event_id;'),
    duplicateSeen: n(redelivery, 'none: the repeat was suppressed'),
    beforeTransportProgress: n(`${redelivery} (the ${c.inbox === 'none' ? 'effect key' : 'inbox'} suppresses the repeat)`, c.inbox === 'none' ? dupEffects : 'SELECT event_id FROM inbox WHERE event_id = :event_id;'),
  };
}

/** A query that lists effect rows recorded more than once under their lookup columns. */
function duplicatesQuery(table: string, columns: readonly string[]): string {
  const cols = columns.join(', ');
  return `SELECT ${cols}, count(*) FROM ${table} GROUP BY ${cols} HAVING count(*) > 1;`;
}

/**
 * Notes for the windows a consumer's newer options add: the check-then-insert handler, failures
 * and their retries, key parking and a retry topic's due times. A window the options do not give
 * the consumer gets no note.
 */
export function handlerNotes(c: Pick<ConsumerInput, 'handler' | 'reads' | 'effect'> & { readonly retry?: Pick<RetryPolicy, 'mode' | 'parkKeys' | 'deadLetter'> | undefined }): Record<string, WindowNote> {
  const redelivery = 'broker redelivery from the committed offset (after a rebalance, by the partition’s new owner)';
  const lookup = Object.entries(c.effect.columns)
    .filter(([, src]) => typeof src === 'string')
    .map(([col]) => col);
  const notes: Record<string, WindowNote> = {};
  if (c.handler === 'checkThenInsert') {
    notes['checkingEffect'] = n(redelivery, 'none: the transaction rolls back');
    notes['afterEffectCheck'] = n(`${redelivery}; a second member holding the same record reads "absent" too`, duplicatesQuery(c.effect.table, lookup));
  }
  const retry = c.retry;
  if (retry === undefined) return notes;
  const lag = 'SELECT partition, log_end_offset - committed_offset AS lag FROM consumer_offsets WHERE group_id = :group ORDER BY lag DESC;';
  const retryTopic = 'SELECT event_id, attempt, due_at, error FROM retry_topic WHERE event_id = :event_id;';
  const deadLetters = 'SELECT event_id, error, attempts, origin_offset, owner FROM dead_letters ORDER BY origin_offset;';
  const parked = 'SELECT park_key, event_id, origin_offset FROM parked ORDER BY park_key, origin_offset;';
  if (retry.mode === 'blocking') {
    notes['handlerFailed'] = n('the handler itself, after the next wait; every record behind it waits', lag);
    notes['backingOff'] = n('the handler itself after the wait; after a crash, broker redelivery from attempt 1', lag);
  } else {
    notes['handlerFailed'] = n(c.reads === 'retries' ? 'the retry consumer, redelivered the record from the retry topic' : redelivery, retryTopic);
  }
  notes['handingOver'] = n('the consumer, publishing again on a timeout (the topic may then hold the record twice)', retry.deadLetter ? `${retryTopic} ${deadLetters}` : retryTopic);
  notes['afterHandOver'] = n(`${c.reads === 'retries' ? 'retry topic redelivery' : redelivery} (the record is handed over again)`, retry.deadLetter ? `${retryTopic} ${deadLetters}` : retryTopic);
  if (c.reads === 'retries') notes['waitingDue'] = n('retry topic redelivery from the committed offset; the wait starts over', 'SELECT event_id, attempt, due_at FROM retry_topic WHERE due_at < now() ORDER BY due_at;');
  if (retry.parkKeys) {
    notes['checkingParked'] = n(c.reads === 'retries' ? 'retry topic redelivery' : redelivery, parked);
    if (c.reads === 'retries') notes['unparking'] = n('retry topic redelivery: the record is found done and its key released', `${parked} -- a key parked behind no pending record stalls it for good`);
    else notes['parking'] = n(`${redelivery} (the parking row is written again, on conflict nothing)`, parked);
  }
  return notes;
}
