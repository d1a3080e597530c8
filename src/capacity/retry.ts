// Models a capped exponential backoff schedule: the wait before retry n is base × factor^(n−1),
// never more than the cap, and the cumulative wait is how long a message can sit in retry before
// its last attempt. The schedule ends after a number of retries, or at a deadline: the last retry
// is the one whose cumulative wait still falls within `until` ("retry with backoff for up to two
// days"), or at whichever of the two comes first. Jitter is left out on purpose: it spreads
// retries in production but would make the schedule non-deterministic, and the cumulative figure
// is what sizes the dedup horizon. A caller's `retry` option (models/callRetry.ts) draws its
// waits from this same function, so the schedule a design is swept with is the one printed here.
import type Big from 'big.js';
import { InputError } from '../base/inputError.ts';
import { type DecimalLike, alignLines, dec, isWhole, render, renderSeconds, renderSpan, requirePositive, spanRenderer, SECOND_DECIMALS } from './units.ts';

export interface RetryInput {
  baseSec: DecimalLike;
  factor: DecimalLike;
  capSec: DecimalLike;
  /** At most this many retries; at least one of `retries` and `untilSec` must be given. */
  retries?: DecimalLike | undefined;
  /** Only retries whose cumulative wait stays within this many seconds. */
  untilSec?: DecimalLike | undefined;
}

export interface RetrySchedule {
  baseSec: Big;
  factor: Big;
  capSec: Big;
  retries: number;
  /** The deadline, when the schedule was given one. */
  untilSec?: Big;
  /** What ended the schedule: the count of retries, or the deadline (the next retry would pass it). */
  endedBy: 'retries' | 'until';
  /** Ended by the deadline: the wait the next retry would have had. */
  nextWaitSec?: Big;
  waitsSec: Big[];
  cumulativeSec: Big[];
}

// Beyond this the schedule is a table nobody reads, and the exact powers grow without bound.
const MAX_RETRIES = 10000;

/** The most retries the schedule may make: the count given, or the bound when only a deadline is. */
function retryLimit(input: RetryInput): number {
  if (input.retries === undefined) return MAX_RETRIES;
  const retriesBig = requirePositive('retries', input.retries);
  if (!isWhole(retriesBig) || retriesBig.gt(MAX_RETRIES)) {
    throw new InputError(`retries must be a whole number from 1 to ${MAX_RETRIES}, got ${retriesBig.toFixed()}`);
  }
  return retriesBig.toNumber();
}

export function retrySchedule(input: RetryInput): RetrySchedule {
  const baseSec = requirePositive('base', input.baseSec);
  const factor = requirePositive('factor', input.factor);
  // A factor below 1 shrinks the waits, which is not backoff and is almost certainly a typo.
  if (factor.lt(1)) {
    throw new InputError(`factor must be at least 1, got ${factor.toFixed()}`);
  }
  const capSec = requirePositive('cap', input.capSec);
  if (capSec.lt(baseSec)) {
    throw new InputError(`cap ${renderSeconds(capSec).text} is below the base ${renderSeconds(baseSec).text}`);
  }
  if (input.retries === undefined && input.untilSec === undefined) throw new InputError('a retry schedule needs a number of retries, a deadline (until), or both');
  const untilSec = input.untilSec === undefined ? undefined : requirePositive('until', input.untilSec);
  if (untilSec !== undefined && untilSec.lt(baseSec)) {
    throw new InputError(`until ${renderSpan(untilSec)} is shorter than the first wait ${renderSpan(baseSec)}: no retry fits before it`);
  }
  const limit = retryLimit(input);
  const waitsSec: Big[] = [];
  const cumulativeSec: Big[] = [];
  let uncapped = baseSec;
  let total = dec(0);
  let endedBy: RetrySchedule['endedBy'] = 'retries';
  let nextWaitSec: Big | undefined;
  for (let n = 1; n <= limit + 1; n++) {
    const wait = uncapped.gt(capSec) ? capSec : uncapped;
    if (untilSec !== undefined && total.plus(wait).gt(untilSec)) {
      endedBy = 'until';
      nextWaitSec = wait;
      break;
    }
    if (n > limit) {
      if (input.retries === undefined) throw new InputError(`more than ${MAX_RETRIES} retries fit within until ${renderSpan(untilSec!)}; give a number of retries too`);
      break;
    }
    total = total.plus(wait);
    waitsSec.push(wait);
    cumulativeSec.push(total);
    // Once capped, every later wait is the cap; stopping the multiplication keeps numbers small.
    uncapped = wait.eq(capSec) ? capSec : uncapped.times(factor);
  }
  return { baseSec, factor, capSec, retries: waitsSec.length, ...(untilSec === undefined ? {} : { untilSec }), endedBy, ...(nextWaitSec === undefined ? {} : { nextWaitSec }), waitsSec, cumulativeSec };
}

/** The schedule's first line: the formula and what ends it. */
function headerOf(schedule: RetrySchedule, span: (s: Big) => string): string {
  const base = span(schedule.baseSec);
  const cap = span(schedule.capSec);
  const until = schedule.untilSec === undefined ? '' : ` within ${span(schedule.untilSec)}`;
  return `retry schedule: wait(n) = min(${base} × ${render(schedule.factor).text}^(n−1), ${cap}), ${schedule.retries} retries${until}`;
}

export function describeRetry(schedule: RetrySchedule): { text: string; json: Record<string, unknown> } {
  const last = schedule.cumulativeSec[schedule.cumulativeSec.length - 1] ?? dec(0);
  const next = schedule.nextWaitSec === undefined ? undefined : last.plus(schedule.nextWaitSec);
  const span = spanRenderer([schedule.capSec, last, ...(schedule.untilSec === undefined ? [] : [schedule.untilSec]), ...(next === undefined ? [] : [next])]);
  const waits = schedule.waitsSec.map(span);
  const cumulative = schedule.cumulativeSec.map(span);
  const col = (title: string, cells: string[]): number => Math.max(title.length, ...cells.map((c) => c.length));
  const retryWidth = col('retry', schedule.waitsSec.map((_, i) => String(i + 1)));
  const waitWidth = col('wait', waits);
  const cumulativeWidth = col('cumulative', cumulative);
  const table = [
    `  ${'retry'.padStart(retryWidth)}  ${'wait'.padStart(waitWidth)}  ${'cumulative'.padStart(cumulativeWidth)}`,
    ...waits.map(
      (w, i) =>
        `  ${String(i + 1).padStart(retryWidth)}  ${w.padStart(waitWidth)}  ${(cumulative[i] ?? '').padStart(cumulativeWidth)}`,
    ),
  ];
  const rows: [string, string, ('=' | '≈')?][] = [
    ['attempts', `1 first attempt + ${schedule.retries} retries = ${schedule.retries + 1}`],
    // Shown to the millisecond: a total with finer parts is rounded, and says so.
    ['total waiting', `${span(last)} before the last retry`, last.eq(last.round(SECOND_DECIMALS)) ? '=' : '≈'],
  ];
  // The deadline line says why there is no further retry: the next one would come after it.
  if (schedule.endedBy === 'until') {
    rows.push(['until', `${span(schedule.untilSec!)}: retry ${schedule.retries + 1} would come at ${span(next!)}, past it`]);
  }
  const json = {
    command: 'retry',
    baseSec: render(schedule.baseSec).plain,
    factor: render(schedule.factor).plain,
    capSec: render(schedule.capSec).plain,
    ...(schedule.untilSec === undefined ? {} : { untilSec: render(schedule.untilSec).plain }),
    retries: schedule.retries,
    endedBy: schedule.endedBy,
    attempts: schedule.retries + 1,
    waitsSec: schedule.waitsSec.map((w) => render(w, SECOND_DECIMALS).plain),
    cumulativeSec: schedule.cumulativeSec.map((c) => render(c, SECOND_DECIMALS).plain),
    totalWaitSec: render(last, SECOND_DECIMALS).plain,
  };
  return { text: [headerOf(schedule, span), ...table, ...alignLines(rows)].join('\n'), json };
}
