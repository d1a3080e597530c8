// What a design says of each failure window in its own words: who owns the retry from there. A
// report shows the wording only beside the component a run shows re-sending the work (the
// query that finds the damage is written from the claim's tables instead). The answers depend
// on the design option, so each component's notes are a function of it.
import type { WindowNote } from '../../src/scenario/scenario.ts';
import type { ConsumerInput } from '../consumer.ts';
import type { RetryPolicy } from '../retryPolicy.ts';
import type { SourceDesign } from '../source.ts';

/** A window's note: who owns the retry from there, in the design's words. */
export const windowNote = (retryOwner: string): WindowNote => ({ retryOwner });
const n = windowNote;

/**
 * The source's notes. Who takes a lost command up again is the client, and only when it retries;
 * a client that makes one attempt leaves an interrupted command to nobody, so the notes say so.
 */
export function sourceNotes(design: SourceDesign, clientRetries = true): Record<string, WindowNote> {
  const retried = (why: string, alone: string) => (clientRetries ? `client retry${why}` : `nobody: the client makes one attempt${alone}`);
  const common = {
    idle: n(retried('', '')),
    writingSource: n(retried(' (the open transaction rolls back)', ', and the open transaction rolls back')),
    beforeSourceCommit: n(retried(' (the open transaction rolls back)', ', and the open transaction rolls back')),
    committing: n(retried('; the commit outcome is unknown to the service', '; the commit outcome is unknown to the service')),
    claimingKey: n(retried(' with the same key', '')),
  };
  if (design === 'outbox') {
    // The relay publishes the committed row either way; what the crash loses is the reply, and
    // only a client that retries asks again for it.
    const published = 'the relay publishes the pending outbox row as it would have';
    return {
      ...common,
      afterSourceCommit: n(clientRetries ? `client retry: the reply was lost with the crash (${published})` : `nobody needed: ${published}`),
    };
  }
  if (design === 'dualWriteCommitFirst') {
    return {
      ...common,
      afterSourceCommit: n('nobody: the publish intent lived only in memory'),
      afterPublishSend: n('nobody after a crash (the service resends only while it lives)'),
      afterBrokerAccept: n('nobody: both writes are done'),
    };
  }
  return {
    ...common,
    afterPublishSend: n('nobody after a crash (the service resends only while it lives)'),
    afterBrokerAccept: n('nobody: the event is out and the commit has not happened'),
    afterSourceCommit: n('nobody: both writes are done'),
  };
}

export function relayNotes(mark: 'afterSend' | 'beforeSend'): Record<string, WindowNote> {
  if (mark === 'beforeSend') {
    return {
      idle: n('relay poll'),
      polling: n('relay poll'),
      recordingProgress: n('relay poll (the mark may or may not have landed)'),
      afterRelayProgress: n('nobody: the row is marked, the publish was never sent'),
      beforeRelaySend: n('nobody: the row is marked published'),
      afterRelaySend: n('nobody: at-most-once does not resend'),
      afterBrokerAccept: n('nobody needed: the broker has the record'),
    };
  }
  return {
    idle: n('nobody needed: the next poll finds any pending row'),
    polling: n('relay poll'),
    beforeRelaySend: n('relay (the row is still pending)'),
    afterRelaySend: n('relay (the row is still pending; the broker may already hold it)'),
    afterBrokerAccept: n('relay (republishes the same event_id)'),
    recordingProgress: n('nobody needed if the mark landed; the relay again if it did not (the row is still pending)'),
    afterRelayProgress: n('nobody needed: the row is marked published'),
  };
}

/**
 * `keyed`: whether the effect's table has a key a repeat would collide with; without an inbox,
 * that key is the only thing that could stop a redelivery's repeat.
 */
export function consumerNotes(c: ConsumerInput, keyed = true): Record<string, WindowNote> {
  const redelivery = 'broker redelivery from the committed offset';
  const guard = c.inbox !== 'none' ? '(the inbox suppresses the repeat)' : keyed ? '(the effect key suppresses the repeat)' : '(nothing suppresses the repeat: the effect has no key of its own)';
  const ackedEarly = c.ack === 'beforeCommit';
  const owner = ackedEarly ? 'nobody: the offset has already moved past the record' : redelivery;
  return {
    connecting: n('the consumer itself, subscribing again after its restart'),
    idle: n(redelivery),
    // A consumer that acknowledges first does so on leaving this state: a crash here still
    // finds the offset before the record.
    received: n(redelivery),
    afterTransportProgress: n('nobody: the offset has already moved past the record'),
    insertingInbox: n(owner),
    afterInboxInsert: n(owner),
    writingEffect: n(owner),
    committingEffect: n(owner),
    afterEffectCommit: n(
      ackedEarly ? 'nobody needed: the effect is committed, and the offset had already moved past the record' : `${redelivery} ${guard}`,
    ),
    duplicateSeen: n(redelivery),
    beforeTransportProgress: n(`${redelivery} ${guard}`),
  };
}

/**
 * Notes for the windows a consumer's newer options add: the check-then-insert handler, failures
 * and their retries, key parking and a retry topic's due times. A window the options do not give
 * the consumer gets no note. `broker` names the topic the consumer reads (a retry consumer's is
 * the retry topic), which is the one that redelivers after a crash: a retry the consumer makes
 * while it lives (the next wait, a publish again on a timeout) dies with it.
 */
export function handlerNotes(
  c: Pick<ConsumerInput, 'handler' | 'reads'> & { readonly broker?: string; readonly retry?: Pick<RetryPolicy, 'mode' | 'parkKeys' | 'deadLetter'> | undefined },
): Record<string, WindowNote> {
  const broker = c.broker ?? 'broker';
  const redelivery = `${broker} redelivery from the committed offset (after a rebalance, by the partition’s new owner)`;
  const notes: Record<string, WindowNote> = {};
  if (c.handler === 'checkThenInsert') {
    notes['checkingEffect'] = n(redelivery);
    notes['afterEffectCheck'] = n(`${redelivery}; a second member holding the same record reads "absent" too`);
  }
  const retry = c.retry;
  if (retry === undefined) return notes;
  if (retry.mode === 'blocking') {
    notes['handlerFailed'] = n(`${broker} redelivery from the committed offset after a crash, from attempt 1 (while it lives, the handler itself retries after the next wait; every record behind it waits)`);
    notes['backingOff'] = n(`${broker} redelivery from the committed offset after a crash, from attempt 1 (while it lives, the handler itself retries after the wait)`);
  } else {
    notes['handlerFailed'] = n(c.reads === 'retries' ? `${broker} redelivery: the retry consumer gets the record again from the retry topic` : redelivery);
  }
  notes['handingOver'] = n(`${broker} redelivery from the committed offset after a crash: the record fails again and is handed over again, so the topic may then hold it twice (while it lives, the consumer publishes again on a timeout)`);
  notes['afterHandOver'] = n(`${c.reads === 'retries' ? `${broker} redelivery` : redelivery} (the record is handed over again)`);
  if (c.reads === 'retries') notes['waitingDue'] = n(`${broker} redelivery from the committed offset; the wait starts over`);
  if (retry.parkKeys) {
    notes['checkingParked'] = n(c.reads === 'retries' ? `${broker} redelivery` : redelivery);
    if (c.reads === 'retries') notes['unparking'] = n(`${broker} redelivery: the record is found done and its key released`);
    else notes['parking'] = n(`${redelivery} (the parking row is written again, on conflict nothing)`);
  }
  return notes;
}

/**
 * The claiming relay's notes. Who takes an interrupted round up again is whichever worker claims
 * next, once the round has rolled back, so the notes name no worker.
 */
export function claimingRelayNotes(): Record<string, WindowNote> {
  const next = 'the next claim by any worker, once the round has rolled back';
  return {
    idle: n('nobody needed: the next claim finds any pending row'),
    claiming: n(`${next} (the claim may hold rows until then)`),
    beforeRelaySend: n(`${next} (the row is still pending)`),
    afterRelaySend: n(`${next} (the row is still pending; the record may already be in the log)`),
    afterBrokerAccept: n(`${next}, which publishes the same event_id again`),
    recordingProgress: n(`${next}, which publishes the same event_id again`),
    afterRelayProgress: n(`${next}: the uncommitted mark rolls back and the same event_id is published again`),
    committingClaim: n(`nobody needed if the commit landed; ${next} if it did not`),
  };
}

/** The outbox cleanup job's notes: a sweep that did not run is simply the cleaner's next one's work. */
export function cleanerNotes(rows: 'published' | 'all'): Record<string, WindowNote> {
  const next = rows === 'published' ? 'cleaner: its next sweep deletes what this one would have' : 'cleaner: its next sweep deletes what this one would have, pending rows included';
  return { idle: n(next), cleaning: n(`${next} (the delete may or may not have run)`) };
}

/**
 * A relay's notes beside a cleanup that deletes rows by age alone: a relay away for longer than
 * the retention finds the pending row gone, so where a note has the relay take a pending row up
 * again (`relay (…)`), nobody does once the cleanup got there first; a poll is the relay's own either way.
 */
export function agedOutNotes(notes: Record<string, WindowNote>): Record<string, WindowNote> {
  return Object.fromEntries(
    Object.entries(notes).map(([state, note]) => [state, note.retryOwner.startsWith('relay (') ? n(`nobody once the cleanup has deleted the pending row (an outage past its retention); otherwise ${note.retryOwner}`) : note]),
  );
}

/** The CDC connector's notes: its offset decides whether a change is streamed again or never. */
export function cdcNotes(offsetCommit: 'afterAck' | 'beforeAck'): Record<string, WindowNote> {
  const again = 'connector after restart, from its committed offset (the change is streamed again)';
  if (offsetCommit === 'beforeAck') {
    return {
      idle: n('nobody needed: the next read finds every change past the offset'),
      reading: n('connector after restart, from its committed offset'),
      beforeRelaySend: n(again),
      afterOffsetCommit: n('nobody: the offset is past a change that was never sent'),
      afterRelaySend: n('nobody: the offset is past the change; the broker may or may not hold it'),
      afterBrokerAccept: n('nobody needed: the broker has the record'),
    };
  }
  return {
    idle: n('nobody needed: the next read finds every change past the offset'),
    reading: n('connector after restart, from its committed offset'),
    beforeRelaySend: n(again),
    afterRelaySend: n(`${again}; the broker may already hold it`),
    afterBrokerAccept: n(`${again}, which publishes the same event_id again`),
    afterOffsetCommit: n('nobody needed: the offset is past a change the broker has'),
  };
}
