/*
 * The Mercury order pipeline of seed 000 as a Promela model, for SPIN to check exhaustively:
 * the client and the order service (source), the orders database with its outbox table, the
 * outbox relay, the broker with its log and the inventory group's committed offset, the
 * inventory consumer, and the inventory database with its inbox and reservations. It is the
 * model checker's side of the benchmark's comparison (bench/spin/runSpin.ts runs it); the
 * TypeScript models it mirrors are named at each part.
 *
 * The design is a macro given to `spin -a`:
 *   -DDESIGN_COMMIT_FIRST        commit the order, then publish    (mercury-dual-write-commit-first)
 *   -DDESIGN_PUBLISH_FIRST       publish, then commit the order    (mercury-dual-write-publish-first)
 *   -DDESIGN_OUTBOX              order + outbox row in one commit, relay, inbox + reservation in one
 *                                commit, offset after the effect   (mercury-outbox)
 *   -DDESIGN_ACK_BEFORE_COMMIT   the outbox, but the consumer commits its offset before its effect
 *                                commits                           (inventory-ack-before-commit)
 *   -DDESIGN_INBOX_SEPARATE_TX   the outbox, but the inbox row commits in its own transaction
 *                                before the effect                 (inventory-inbox-separate-tx)
 * -DORDERS=n (default 2, at most 8) is the number of orders the client accepts; -DCRASHES=k
 * (default 1) bounds the crashes in one run.
 *
 * Every interleaving of the processes is explored. A crash may strike the source, the relay or
 * the consumer at any of its resting points (the failure windows of the TypeScript models),
 * at most CRASHES times in a run. A crashed process loses its volatile state and restarts at
 * once from the durable state: committed rows, the broker log and the committed offset. At the
 * end state (every process done or waiting for work, which SPIN's `timeout` detects) the Check
 * process asserts the seed's reservation claim, per order: at most one reservation per
 * (order_id, reservation_version); every committed ACCEPTED order has its reservation; no
 * reservation for an order that never committed. A process blocked anywhere but a waiting
 * point (an `end` label) is reported by SPIN as an invalid end state: the run is stuck.
 *
 * What is abstracted, and why it keeps the TypeScript models' behaviour under crashes:
 * - Time. Timers are gone; every order of steps is allowed instead, which covers every timing
 *   the simulation could produce. No timeout of the TypeScript models fires in a crash-only
 *   run (the databases and the broker never crash and no message is lost), except the
 *   client's, which the source's crash stands in for (see Source).
 * - Messages. The databases and the broker are servers that never crash and serve one request
 *   at a time, so they are shared variables here, and a request with its effect is one atomic
 *   step of the process that makes it. A request already sent when its sender crashes still
 *   lands in the TypeScript World (the crash notice travels behind it), which is the same as a
 *   crash just after the atomic step; its reply is lost, which is the same as the volatile
 *   state the crash forgets. Message loss, duplication, delay and reordering are not modelled.
 * - Windows with the same durable state. Where two TypeScript windows differ only in whether a
 *   reply has come back, or in an open transaction's writes (volatile until commit), they are
 *   one resting point here; the comment at each point names the windows it stands for. A crash
 *   at an idle window with no work in hand restarts the process in the state it was in, so idle
 *   points have no crash option (except the source's, where a command arriving while the
 *   service is down is dropped).
 * - One partition, one consumer, single-row tables kept as bit masks over the order index: the
 *   event of order i is evt-o-(i+1)-v1, requesting reservation (o-(i+1), 1).
 */

#ifndef ORDERS
#define ORDERS 2
#endif
#ifndef CRASHES
#define CRASHES 1
#endif

/* The design macros, resolved to the options of the TypeScript models they set. */
#if defined(DESIGN_COMMIT_FIRST)
#define SOURCE_COMMIT_FIRST
#elif defined(DESIGN_PUBLISH_FIRST)
#define SOURCE_PUBLISH_FIRST
#elif defined(DESIGN_OUTBOX)
#define SOURCE_OUTBOX
#elif defined(DESIGN_ACK_BEFORE_COMMIT)
#define SOURCE_OUTBOX
#define CONSUMER_ACK_FIRST
#elif defined(DESIGN_INBOX_SEPARATE_TX)
#define SOURCE_OUTBOX
#define CONSUMER_INBOX_SEPARATE
#else
#error "give a design: -DDESIGN_COMMIT_FIRST, -DDESIGN_PUBLISH_FIRST, -DDESIGN_OUTBOX, -DDESIGN_ACK_BEFORE_COMMIT or -DDESIGN_INBOX_SEPARATE_TX"
#endif

#if ORDERS < 1 || ORDERS > 8
#error "ORDERS must be between 1 and 8 (rows are bits of a byte)"
#endif

/* Each order is published once by the source, or once plus once more per relay crash. */
#define LOGMAX (ORDERS + CRASHES)
#define BIT(i) (1 << (i))

/* ---- Durable state: what survives every crash. ---- */

/* ordersDb (models/database.ts with orderPipeline.ts's tables): committed rows only. */
byte accepted;        /* orders: bit i set when order i is committed with status ACCEPTED */
byte outboxRows;      /* outbox: bit i set when order i's outbox row is committed */
byte publishedRows;   /* outbox: bit i set when that row is marked published */

/* broker (models/broker.ts): one partition's log and the inventory group's committed offset. */
byte brokerLog[LOGMAX];   /* the order index of the event at each offset */
byte logLen;
byte committedOffset;     /* the next offset the inventory group will read */

/* inventoryDb (orderPipeline.ts: inbox keyed by (consumer_name, event_id), reservations by
   (order_id, reservation_version)); with DESIGN_INBOX_SEPARATE_TX the inbox is its own
   database (inboxDb), which changes nothing here but the transaction it commits in. */
byte inboxRows;              /* bit i set when evt-o-(i+1)-v1 is recorded as consumed */
byte reservations[ORDERS];   /* committed reservation rows for (o-(i+1), 1) */

/* The fault budget, shared by every process. */
byte crashes;

/* The client's commands and the service's replies (models/client.ts, models/source.ts). */
chan cmd = [0] of { byte };
chan reply = [1] of { bool };

/* A crash at this resting point, while the budget lasts: one atomic step that spends the
   budget, forgets the volatile state and restarts the process at `label`. */
#define CRASH(forget, label) atomic { crashes < CRASHES -> crashes++; forget; goto label }

/* Appends an event to the log (broker.publish; no producer dedup, so a repeat appends again). */
#define PUBLISH(o) assert(logLen < LOGMAX); brokerLog[logLen] = o; logLen++

/* The reservation insert: `ON CONFLICT (order_id, reservation_version) DO NOTHING`. */
#define RESERVE(o) if :: reservations[o] == 0 -> reservations[o]++ :: else -> skip fi

/*
 * The client (models/client.ts): sends the orders' acceptance commands one after another,
 * waiting for each reply, and does not retry (retry 'none', the Mercury scenarios' default).
 * It never crashes. When the service dies with its command, the client's timeout ends the wait;
 * the source's crash puts that failed reply on the channel for it.
 */
proctype Client() {
  byte i;
  do
  :: i < ORDERS -> cmd!i; atomic { reply?_; i++ }
  :: else -> break
  od
}

/*
 * The order service (models/source.ts) and its transaction on ordersDb. Volatile: the command
 * in hand and its open transaction. Durable: nothing of its own; its committed rows live in
 * ordersDb. After a crash the open transaction rolls back (the database drops the connection's
 * transactions), the command is gone, and the service waits for the next one.
 */
proctype Source() {
  byte o;   /* the order the command in hand accepts */
end_idle:
  cmd?o;
#if defined(SOURCE_PUBLISH_FIRST)
  /* source.idle: the service was down when the command arrived, or it publishes at once. */
  if
  :: CRASH(o = 0; reply!false, end_idle)
  :: atomic { PUBLISH(o) }
  fi;
  /* source.afterPublishSend, afterBrokerAccept, writingSource, beforeSourceCommit: the broker
     holds the event, the order is at most in an open transaction. */
  if
  :: CRASH(o = 0; reply!false, end_idle)
  :: atomic { accepted = accepted | BIT(o) }
  fi;
  /* source.committing, afterSourceCommit: both writes are done; only the reply is left. */
  if
  :: CRASH(o = 0; reply!false, end_idle)
  :: atomic { reply!true; o = 0 }
  fi;
#else
  /* source.idle, writingSource, beforeSourceCommit: nothing is durable yet; a crash rolls the
     open transaction back (or the command arrived while the service was down). */
  if
  :: CRASH(o = 0; reply!false, end_idle)
#if defined(SOURCE_OUTBOX)
  :: atomic { accepted = accepted | BIT(o); outboxRows = outboxRows | BIT(o) }
#else
  :: atomic { accepted = accepted | BIT(o) }
#endif
  fi;
#if defined(SOURCE_COMMIT_FIRST)
  /* source.committing, afterSourceCommit: the order is committed; the intent to publish lives
     only in this process's memory. */
  if
  :: CRASH(o = 0; reply!false, end_idle)
  :: atomic { PUBLISH(o) }
  fi;
  /* source.afterPublishSend, afterBrokerAccept: both writes are done; only the reply is left. */
  if
  :: CRASH(o = 0; reply!false, end_idle)
  :: atomic { reply!true; o = 0 }
  fi;
#else
  /* source.committing, afterSourceCommit: the order and its outbox row are durable together;
     the relay owns the publication from here. */
  if
  :: CRASH(o = 0; reply!false, end_idle)
  :: atomic { reply!true; o = 0 }
  fi;
#endif
#endif
  goto end_idle
}

#if defined(SOURCE_OUTBOX)
/*
 * The outbox relay (models/relay.ts, mark 'afterSend', concurrency 'perAggregate'): polls the
 * pending (committed, unpublished) outbox rows, then per row of that batch publishes it, and
 * after the broker's ack marks it published. Volatile: the batch and the row in hand. Durable:
 * nothing of its own. After a crash it polls again; a row published but not yet marked is
 * published again with the same event_id (at least once).
 */
proctype Relay() {
  byte batch;   /* the rows of the last poll not yet done */
  byte r;       /* the row in hand: the lowest row of the batch */
end_idle:
  /* relay.idle, polling: an empty poll changes nothing, so the relay waits for a pending row. */
  atomic {
    (outboxRows & ~publishedRows) != 0 ->
    batch = outboxRows & ~publishedRows;
    r = 0;
    do :: (batch & BIT(r)) == 0 -> r++ :: else -> break od
  }
beforeRelaySend:
  /* relay.beforeRelaySend: the row is pending; a crash leaves it for the next poll. */
  if
  :: CRASH(batch = 0; r = 0, end_idle)
  :: atomic { PUBLISH(r) }
  fi;
  /* relay.afterRelaySend, afterBrokerAccept, recordingProgress: the broker holds the event
     and the row still says pending, so a crash here publishes the same event_id again. */
  if
  :: CRASH(batch = 0; r = 0, end_idle)
  :: atomic { publishedRows = publishedRows | BIT(r) }
  fi;
  /* relay.afterRelayProgress: the row is marked published; on to the batch's next row. */
  if
  :: CRASH(batch = 0; r = 0, end_idle)
  :: atomic {
       batch = batch & ~BIT(r);
       if
       :: batch != 0 -> do :: (batch & BIT(r)) == 0 -> r++ :: else -> break od; goto beforeRelaySend
       :: else -> r = 0; goto end_idle
       fi
     }
  fi
}
#endif

/*
 * The inventory consumer (models/consumer.ts, with models/subscription.ts and the broker's
 * subscription): takes the records of the log one at a time from its read position, records the
 * inbox row and the reservation (in one transaction, or the inbox first on its own), and moves
 * the committed offset past the record after its effect commits (or, acking first, before it
 * starts). Volatile: the read position, the record in hand and the open transaction.
 * Durable: its rows in the inventory database and the broker's committed offset. After a crash
 * it subscribes again and the broker redelivers from the committed offset.
 */
proctype Consumer() {
  byte cur;   /* the read position: the offset of the next record to take */
  byte e;     /* the record in hand: the order index of its event */
connecting:
  /* consumer.connecting: subscribe; reading starts at the committed offset. */
  cur = committedOffset;
end_idle:
  /* consumer.idle: wait for a record past the read position. */
  atomic { cur < logLen -> e = brokerLog[cur] }
#if defined(CONSUMER_ACK_FIRST)
  /* consumer.received: the record is in hand; nothing is durable. */
  if
  :: CRASH(cur = 0; e = 0, connecting)
  :: atomic { committedOffset = cur + 1 }
  fi;
  /* consumer.afterTransportProgress, insertingInbox: the offset has moved past the record
     before its effect; a crash from here on loses the effect. */
#else
  /* consumer.received, insertingInbox: the record is in hand; nothing is durable. */
#endif
#if defined(CONSUMER_INBOX_SEPARATE)
  if
  :: CRASH(cur = 0; e = 0, connecting)
  :: atomic { (inboxRows & BIT(e)) != 0 -> goto duplicateSeen }
  :: atomic { (inboxRows & BIT(e)) == 0 -> inboxRows = inboxRows | BIT(e) }
  fi;
  /* consumer.afterInboxInsert, committingEffect: the inbox row is committed on its own, the
     reservation is not yet: the dual write of the inbox and the effect. */
  if
  :: CRASH(cur = 0; e = 0, connecting)
  :: atomic { RESERVE(e) }
  fi;
#else
  /* The inbox insert in the open transaction: a hit means the event was consumed before, and
     the transaction is aborted. */
  if
  :: CRASH(cur = 0; e = 0, connecting)
  :: atomic { (inboxRows & BIT(e)) != 0 -> goto duplicateSeen }
  :: (inboxRows & BIT(e)) == 0
  fi;
  /* consumer.afterInboxInsert, writingEffect: the inbox row and the reservation are in the
     open transaction; a crash rolls both back. Writing the effect and committing are one step
     here: nobody else writes the inventory database in between. */
  if
  :: CRASH(cur = 0; e = 0, connecting)
  :: atomic { inboxRows = inboxRows | BIT(e); RESERVE(e) }
  fi;
#endif
  /* consumer.committingEffect, afterEffectCommit, beforeTransportProgress: the effect is
     durable; the offset has not moved (unless it moved first). */
  if
  :: CRASH(cur = 0; e = 0, connecting)
#if defined(CONSUMER_ACK_FIRST)
  :: atomic { cur++; e = 0; goto end_idle }
#else
  :: atomic { committedOffset = cur + 1; cur++; e = 0; goto end_idle }
#endif
  fi;
duplicateSeen:
  /* consumer.duplicateSeen: the inbox suppressed a repeat; the offset moves past it. */
  if
  :: CRASH(cur = 0; e = 0, connecting)
#if defined(CONSUMER_ACK_FIRST)
  :: atomic { cur++; e = 0; goto end_idle }
#else
  :: atomic { committedOffset = cur + 1; cur++; e = 0; goto end_idle }
#endif
  fi
}

/*
 * The end-of-run check: the seed's reservation claim (orderPipeline.ts's reservationClaim,
 * judged as src/checkers/atMostOne.ts, liveness.ts and phantom.ts judge it), once nothing else
 * can move. The named booleans make SPIN's report say which property failed.
 */
proctype Check() {
  byte i;
  bool duplicate_effect, lost_effect, phantom_effect;
  timeout;
  atomic {
    do
    :: i < ORDERS ->
       duplicate_effect = reservations[i] > 1;
       lost_effect = (accepted & BIT(i)) != 0 && reservations[i] == 0;
       phantom_effect = (accepted & BIT(i)) == 0 && reservations[i] > 0;
       assert(!duplicate_effect);
       assert(!lost_effect);
       assert(!phantom_effect);
       i++
    :: else -> break
    od
  }
}

init {
  atomic {
    run Client();
    run Source();
#if defined(SOURCE_OUTBOX)
    run Relay();
#endif
    run Consumer();
    run Check()
  }
}
