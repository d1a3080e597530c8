// What a consumer does when its handler fails on a record (seed 002, "Poison messages, retries,
// and dead letter queues"; seed 004, section 5). A record's payload says how its handler fares:
// `poison: true` fails on every attempt (a permanent failure: a schema error, a broken business
// rule), `failures: N` fails the first N attempts and then succeeds (a transient failure: a
// timeout, a deadlock, a downstream 5xx). The policy says what follows a failure:
// - `blocking`: wait the next backoff interval inside the handler and try again; nothing else
//   the consumer owns moves meanwhile ("blocking a handler stalls the entire partition").
// - `retryTopic`: publish the record to a retry topic with its attempt count and the time it is
//   due, commit, and move on; a retry consumer runs it again when due. With `parkKeys`, later
//   records of the same key follow it through the retry topic instead of overtaking it (seed
//   004: "later events for the same key wait behind it (key is parked)").
// - after the last retry, `deadLetter`: publish the record to a dead-letter topic with its error,
//   attempt count, original offset and the team that owns the topic; without one the record is
//   retried for ever at the last wait.
// The backoff schedule is a list of waits in durations: seed 004's is 1, 2, 4, 8, 16, 32, 60 and
// 60 s, a first attempt plus eight retries, 183 s of waiting in all.
import type { Duration, TimeScale } from '../src/base/duration.ts';
import { InputError } from '../src/base/inputError.ts';
import { duration, z } from '../src/scenario/options.ts';
import type { Payload } from './broker.ts';
import type { Delivery } from './subscription.ts';

export interface RetryPolicy {
  readonly mode: 'blocking' | 'retryTopic';
  /** The wait before retry 1, 2, …, in ticks; a record gets one attempt plus one retry per wait. */
  readonly backoffTicks: readonly number[];
  /** The retry topic's broker (retryTopic). */
  readonly topic?: string;
  /** Later records of a retrying record's key follow it through the retry topic (retryTopic). */
  readonly parkKeys?: boolean;
  /** After the last retry: the dead-letter topic's broker and the team that owns it. */
  readonly deadLetter?: { readonly topic: string; readonly owner: string };
}

/** Seed 004's schedule: 1, 2, 4, 8, 16, 32 s, then 60 s twice (183 s of waiting in all). */
export const SEED_BACKOFF: readonly Duration[] = ['1s', '2s', '4s', '8s', '16s', '32s', '60s', '60s'];

/** A retry policy as a design draws it, durations in their units. */
export const RetryOptions = z.strictObject({
  mode: z.enum(['blocking', 'retryTopic']),
  /** The wait before each retry; as many retries as waits. */
  backoff: z.array(duration),
  /** The retry topic's broker; required for `retryTopic`. */
  topic: z.string().optional(),
  parkKeys: z.boolean().optional(),
  deadLetter: z.strictObject({ topic: z.string(), owner: z.string().min(1, 'a dead-letter topic needs an owning team') }).optional(),
});

export type RetryOptions = z.input<typeof RetryOptions>;

/** The policy in ticks, or bad input when its parts do not fit together. */
export function retryPolicyOf(time: TimeScale, where: string, o: z.output<typeof RetryOptions>): RetryPolicy {
  if (o.mode === 'retryTopic' && o.topic === undefined) throw new InputError(`${where} option retry: mode retryTopic needs a topic (the retry topic's broker)`);
  if (o.mode === 'blocking' && (o.topic !== undefined || o.parkKeys !== undefined)) throw new InputError(`${where} option retry: a blocking retry has no retry topic and parks no keys`);
  const backoffTicks = o.backoff.map((d, i) => time.ticks(`${where} option retry.backoff[${i}]`, d, 1));
  return {
    mode: o.mode,
    backoffTicks,
    ...(o.topic === undefined ? {} : { topic: o.topic }),
    ...(o.parkKeys === undefined ? {} : { parkKeys: o.parkKeys }),
    ...(o.deadLetter === undefined ? {} : { deadLetter: o.deadLetter }),
  };
}

/** The attempt the handler is on: the record's own count (a retry topic's records carry one) plus the tries made here. */
export function attemptOf(payload: Payload, tries: number): number {
  return Number(payload['attempt'] ?? 1) + Math.max(0, tries - 1);
}

/** Why the handler fails on this attempt, or undefined when it succeeds. */
export function handlerError(payload: Payload, attempt: number): string | undefined {
  if (payload['poison'] === true) return 'permanent: the record cannot be processed';
  const failures = Number(payload['failures'] ?? 0);
  return attempt <= failures ? `transient: failed ${attempt} of ${failures} times` : undefined;
}

/** The wait after attempt `attempt` failed: its place in the schedule, or the last wait once the schedule is spent. */
export function waitAfter(policy: RetryPolicy, attempt: number): number {
  const w = policy.backoffTicks;
  return w.length === 0 ? 1 : w[Math.min(attempt, w.length) - 1]!;
}

/** Where a record first came from: a retry topic's records keep their original partition and offset. */
function origin(d: Delivery) {
  return { origin_partition: Number(d.payload['origin_partition'] ?? d.partition), origin_offset: Number(d.payload['origin_offset'] ?? d.offset) };
}

/** The record as the retry topic receives it: its next attempt, when that attempt is due, and where it came from. */
export function retryPayload(d: Delivery, failedAttempt: number, dueAt: number): Payload {
  return { ...d.payload, ...origin(d), attempt: failedAttempt + 1, due_at: dueAt, error: handlerError(d.payload, failedAttempt) ?? null };
}

/** The record as the dead-letter topic receives it: its error, how many attempts it had, where it came from, and who owns it. */
export function deadLetterPayload(d: Delivery, attempts: number, owner: string): Payload {
  return { ...d.payload, ...origin(d), error: handlerError(d.payload, attempts) ?? null, attempts, owner };
}
