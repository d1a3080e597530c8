// Failures, retries and dead letters: the policy's arithmetic as pure functions, then the stats
// consumer of the poison pipeline with each policy, each test showing the durable difference:
// the waits of a blocking retry and the partition it holds, a retry topic's due times, a key
// overtaken without parking and kept in order with it, and a dead-lettered record with its error,
// attempt count, original offset and owner.
import { describe, expect, it } from 'vitest';
import { TimeScale } from '../../src/base/duration.ts';
import type { FaultPlan } from '../../src/faults/faults.ts';
import { World } from '../../src/run/world.ts';
import { recordsOf, type BrokerDurable } from '../../models/broker.ts';
import { historyOf, rowsOf, type DatabaseDurable } from '../../models/database.ts';
import { DEAD_LETTER_OWNER, poisonPipeline, ratingChanges, type PoisonPipelineOptions } from '../../models/designs/poisonPipeline.ts';
import { attemptOf, deadLetterPayload, handlerError, retryPayload, retryPolicyOf, SEED_BACKOFF, waitAfter, type RetryPolicy } from '../../models/retryPolicy.ts';

const QUARTER = new TimeScale('250ms');

describe('retry policy arithmetic', () => {
  const policy: RetryPolicy = { mode: 'blocking', backoffTicks: [4, 8, 16] };

  it('counts attempts from the record’s own count plus the tries made in place', () => {
    expect(attemptOf({}, 1)).toBe(1);
    expect(attemptOf({}, 3)).toBe(3);
    expect(attemptOf({ attempt: 4 }, 1)).toBe(4);
    expect(attemptOf({ attempt: 4 }, 2)).toBe(5);
  });

  it('fails a poison record every time and a transient one its first N attempts', () => {
    expect(handlerError({ poison: true }, 99)).toBe('permanent: the record cannot be processed');
    expect(handlerError({ failures: 2 }, 2)).toBe('transient: failed 2 of 2 times');
    expect(handlerError({ failures: 2 }, 3)).toBeUndefined();
    expect(handlerError({}, 1)).toBeUndefined();
  });

  it('waits the schedule’s n-th interval after attempt n, and its last one once the schedule is spent', () => {
    expect([1, 2, 3, 4, 9].map((a) => waitAfter(policy, a))).toEqual([4, 8, 16, 16, 16]);
    expect(waitAfter({ mode: 'blocking', backoffTicks: [] }, 1)).toBe(1);
  });

  it('seed 004’s schedule is 183 s of waiting over eight retries', () => {
    const ticks = retryPolicyOf(new TimeScale('1s'), 'c', { mode: 'blocking', backoff: [...SEED_BACKOFF] }).backoffTicks;
    expect(ticks).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);
    expect(ticks.reduce((a, b) => a + b, 0)).toBe(183);
    expect(retryPolicyOf(QUARTER, 'c', { mode: 'blocking', backoff: ['1s', '1m'] }).backoffTicks).toEqual([4, 240]);
  });

  it('keeps a record’s first partition and offset through every retry, and says why it is dead', () => {
    const first = { partition: 1, offset: 7, key: 'b-1', payload: { event_id: 'e', failures: 5 } };
    const retried = retryPayload(first, 1, 40);
    expect(retried).toEqual({ event_id: 'e', failures: 5, origin_partition: 1, origin_offset: 7, attempt: 2, due_at: 40, error: 'transient: failed 1 of 5 times' });
    const again = retryPayload({ partition: 0, offset: 0, key: 'b-1', payload: retried }, 2, 60);
    expect(again).toMatchObject({ origin_partition: 1, origin_offset: 7, attempt: 3, due_at: 60 });
    expect(deadLetterPayload({ partition: 0, offset: 3, key: 'b-1', payload: again }, 5, 'team')).toMatchObject({ origin_partition: 1, origin_offset: 7, attempts: 5, owner: 'team', error: 'transient: failed 5 of 5 times' });
  });
});

function run(options: PoisonPipelineOptions, plan: FaultPlan = []) {
  const world = new World(poisonPipeline(options)({ size: 2 }, QUARTER), { seed: 1, plan });
  const result = world.run();
  const stats = world.durable<DatabaseDurable>('statsDb');
  const failed = result.notes.filter((n) => n.kind === 'handler.failed').map((n) => ({ tick: n.tick, component: n.component, attempt: (n.data as { attempt: number }).attempt }));
  const applied = (book: string) => historyOf(stats, 'book_stats').filter((r) => r['book_id'] === book).map((r) => Number(r['version']));
  const appliedAt = (book: string, version: number) => Number(historyOf(stats, 'book_stats').find((r) => r['book_id'] === book && r['version'] === version)?.['applied_at']);
  const published = (eventId: string) => recordsOf(world.durable<BrokerDurable>('broker')).find((r) => r.payload['event_id'] === eventId)!.at;
  const dead = () => recordsOf(world.durable<BrokerDurable | undefined>('deadLetters')).map((r) => r.payload);
  const retries = () => recordsOf(world.durable<BrokerDurable | undefined>('retryTopic')).map((r) => r.payload);
  const guards = result.notes.filter((n) => n.kind === 'guard').map((n) => (n.data as { guard: string }).guard);
  return { world, result, stats, failed, applied, appliedAt, published, dead, retries, guards };
}

const gaps = (ticks: readonly number[]) => ticks.slice(1).map((t, i) => t - ticks[i]!);

describe('the workload', () => {
  it('rates two books three times each, version by version, with the bad record second for b-1', () => {
    const records = ratingChanges('transient')(2);
    expect(records.map((r) => `${r['book_id']}@v${r['version']}`)).toEqual(['b-1@v1', 'b-2@v1', 'b-1@v2', 'b-2@v2', 'b-1@v3', 'b-2@v3']);
    expect(records.filter((r) => r['failures'] !== undefined || r['poison'] !== undefined)).toEqual([{ event_id: 'evt-b-1-v2', book_id: 'b-1', version: 2, stars: 4, failures: 4 }]);
    expect(ratingChanges('poison')(1)).toHaveLength(6);
  });
});

describe('blocking retry', () => {
  it('retries in place after each wait of the schedule, then dead-letters with error, attempts, original offset and owner', () => {
    const { failed, dead, applied } = run({ retry: 'blocking', deadLetter: true, bad: 'poison', backoff: ['1s', '2s', '4s'] });
    const first = failed.filter((f) => f.component === 'consumer').slice(0, 4);
    expect(first.map((f) => f.attempt)).toEqual([1, 2, 3, 4]);
    // Each retry comes after its wait (4, 8, 16 ticks) and two steps of the handler: the failure
    // leads to the wait one tick later, and the record is taken up again one tick after it.
    expect(gaps(first.map((f) => f.tick))).toEqual([4 + 2, 8 + 2, 16 + 2]);
    expect(dead()[0]).toMatchObject({ event_id: 'evt-b-1-v2', error: 'permanent: the record cannot be processed', attempts: 4, origin_partition: 0, origin_offset: 2, owner: DEAD_LETTER_OWNER });
    expect(applied('b-1')).toEqual([1, 3]);
  });

  it('holds the other book behind the bad record for the whole schedule', () => {
    const { appliedAt, published, failed } = run({ retry: 'blocking', deadLetter: true, bad: 'poison' });
    expect(failed.map((f) => f.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // 183 s of waiting is 732 ticks of a quarter second: b-2's second version waits all of it.
    expect(appliedAt('b-2', 2) - published('evt-b-2-v2')).toBeGreaterThan(732);
    expect(appliedAt('b-2', 1) - published('evt-b-2-v1')).toBeLessThan(40);
  });

  it('without a dead-letter topic keeps retrying at the last wait and never settles', () => {
    const { result, failed, applied } = run({ retry: 'blocking', deadLetter: false, bad: 'poison', backoff: ['1s', '2s'] });
    expect(result.ending.kind).toBe('stuck');
    const late = failed.slice(2, 8).map((f) => f.tick);
    expect(gaps(late).every((g) => g === 8 + 2)).toBe(true);
    expect(applied('b-2')).toEqual([1]);
  });

  it('a transient failure succeeds once its failures are spent, in order', () => {
    const { failed, applied, dead } = run({ retry: 'blocking', deadLetter: true, bad: 'transient' });
    expect(failed.map((f) => f.attempt)).toEqual([1, 2, 3, 4]);
    expect(applied('b-1')).toEqual([1, 2, 3]);
    expect(dead()).toEqual([]);
  });
});

describe('retry topic', () => {
  it('hands the failed record on with its next attempt and due time; the retry consumer waits for it when it arrives early', () => {
    const { retries, failed, world } = run({ retry: 'retryTopic', parkKeys: false, deadLetter: true, bad: 'transient', backoff: ['5s', '10s', '15s', '20s'] });
    // A record the retry consumer holds past its topic's redelivery timeout is delivered to it
    // again, so an attempt may be handed on twice; each is handed on at least once, in order.
    const attempts = retries().filter((p, i, all) => p['event_id'] === 'evt-b-1-v2' && all.findIndex((q) => q['event_id'] === p['event_id'] && q['attempt'] === p['attempt']) === i);
    expect(attempts.map((p) => p['attempt'])).toEqual([2, 3, 4, 5]);
    // Attempt a + 1 is due one step after attempt a failed, plus the a-th wait (20, 40, 60, 80 ticks).
    const failedAt = (a: number) => failed.find((f) => f.attempt === a)!.tick;
    expect(attempts.map((p) => Number(p['due_at']) - failedAt(Number(p['attempt']) - 1) - 1)).toEqual([20, 40, 60, 80]);
    const waits = world.trace.events.filter((e) => e.component === 'retryConsumer' && e.kind === 'state' && e.data === 'waitingDue');
    expect(waits.length).toBeGreaterThanOrEqual(1);
    for (const f of failed.filter((x) => x.component === 'retryConsumer')) {
      const due = Number(attempts.find((p) => p['attempt'] === f.attempt)!['due_at']);
      expect(f.tick).toBeGreaterThanOrEqual(due);
    }
  });

  it('without parking, the book’s next version overtakes the retrying one, and the retry moves it back', () => {
    const { applied } = run({ retry: 'retryTopic', parkKeys: false, deadLetter: true, bad: 'transient' });
    expect(applied('b-1')).toEqual([1, 3, 2]);
    expect(applied('b-2')).toEqual([1, 2, 3]);
  });

  it('with parking, later records of the parked book follow it through the retry topic, in order, and the key is released', () => {
    const { applied, retries, stats, appliedAt, published } = run({ retry: 'retryTopic', parkKeys: true, deadLetter: true, bad: 'transient' });
    expect(applied('b-1')).toEqual([1, 2, 3]);
    // v3 went to the retry topic as it was (no attempt of its own, its original offset), and went
    // round again each time it reached the retry consumer while v2 was still ahead of it.
    const v3 = retries().filter((p) => p['event_id'] === 'evt-b-1-v3');
    expect(v3.length).toBeGreaterThanOrEqual(1);
    expect(v3.every((p) => p['attempt'] === undefined && p['origin_offset'] === 4)).toBe(true);
    expect(rowsOf(stats, 'parked')).toEqual([]);
    // The other book never waits for the parked one.
    expect(appliedAt('b-2', 2)).toBeLessThan(appliedAt('b-1', 2));
    expect(appliedAt('b-2', 3) - published('evt-b-2-v3')).toBeLessThan(120);
  });

  it('with parking and a poison record, dead-letters it after the last retry, then lets the book’s next version through', () => {
    const { applied, dead, stats } = run({ retry: 'retryTopic', parkKeys: true, deadLetter: true, bad: 'poison', backoff: ['1s', '2s'] });
    expect(dead()).toEqual([expect.objectContaining({ event_id: 'evt-b-1-v2', attempts: 3, origin_offset: 2, owner: DEAD_LETTER_OWNER })]);
    expect(applied('b-1')).toEqual([1, 3]);
    expect(rowsOf(stats, 'parked')).toEqual([]);
  });

  it('a second copy of a parked record whose key was released is recognised as done and skipped', () => {
    const options: PoisonPipelineOptions = { retry: 'retryTopic', parkKeys: true, deadLetter: true, bad: 'transient', backoff: ['1s', '2s', '4s', '8s'] };
    // The retry topic may redeliver a record its consumer held past the redelivery timeout, which
    // the same guard skips; the copy the fault makes is one more.
    const skipped = (guards: readonly string[]) => guards.filter((g) => g === 'parkedDone').length;
    const plain = run(options);
    const copied = run(options, [{ kind: 'duplicate', point: 'consumer->retryTopic:broker.publish', occurrence: 2 }]);
    expect(copied.result.strikes).toHaveLength(1);
    expect(skipped(copied.guards)).toBe(skipped(plain.guards) + 1);
    expect(copied.applied('b-1')).toEqual([1, 2, 3]);
  });
});
