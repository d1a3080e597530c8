// Models a capped exponential backoff schedule: the wait before retry n is base × factor^(n−1),
// never more than the cap, and the cumulative wait is how long a message can sit in retry before
// its last attempt. Jitter is left out on purpose: it spreads retries in production but would make
// the schedule non-deterministic, and the cumulative figure is what sizes the dedup horizon.
import type Big from 'big.js';
import { InputError } from '../inputError.ts';
import { type DecimalLike, alignLines, dec, isWhole, render, renderSeconds, requirePositive, SECOND_DECIMALS } from './units.ts';

export interface RetryInput {
  baseSec: DecimalLike;
  factor: DecimalLike;
  capSec: DecimalLike;
  retries: DecimalLike;
}

export interface RetrySchedule {
  baseSec: Big;
  factor: Big;
  capSec: Big;
  retries: number;
  waitsSec: Big[];
  cumulativeSec: Big[];
}

// Beyond this the schedule is a table nobody reads, and the exact powers grow without bound.
const MAX_RETRIES = 10000;

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
  const retriesBig = requirePositive('retries', input.retries);
  if (!isWhole(retriesBig) || retriesBig.gt(MAX_RETRIES)) {
    throw new InputError(`retries must be a whole number from 1 to ${MAX_RETRIES}, got ${retriesBig.toFixed()}`);
  }
  const retries = retriesBig.toNumber();
  const waitsSec: Big[] = [];
  const cumulativeSec: Big[] = [];
  let uncapped = baseSec;
  let total = dec(0);
  for (let n = 1; n <= retries; n++) {
    const wait = uncapped.gt(capSec) ? capSec : uncapped;
    total = total.plus(wait);
    waitsSec.push(wait);
    cumulativeSec.push(total);
    // Once capped, every later wait is the cap; stopping the multiplication keeps numbers small.
    uncapped = wait.eq(capSec) ? capSec : uncapped.times(factor);
  }
  return { baseSec, factor, capSec, retries, waitsSec, cumulativeSec };
}

export function describeRetry(schedule: RetrySchedule): { text: string; json: Record<string, unknown> } {
  const waits = schedule.waitsSec.map((w) => renderSeconds(w).text);
  const cumulative = schedule.cumulativeSec.map((c) => renderSeconds(c).text);
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
  const base = renderSeconds(schedule.baseSec).text;
  const cap = renderSeconds(schedule.capSec).text;
  const last = schedule.cumulativeSec[schedule.cumulativeSec.length - 1] ?? dec(0);
  const header = `retry schedule: wait(n) = min(${base} × ${render(schedule.factor).text}^(n−1), ${cap}), ${schedule.retries} retries`;
  const summary = alignLines([
    ['attempts', `1 first attempt + ${schedule.retries} retries = ${schedule.retries + 1}`],
    ['total waiting', `${renderSeconds(last).text} before the last retry`],
  ]);
  const json = {
    command: 'retry',
    baseSec: render(schedule.baseSec).plain,
    factor: render(schedule.factor).plain,
    capSec: render(schedule.capSec).plain,
    retries: schedule.retries,
    attempts: schedule.retries + 1,
    waitsSec: schedule.waitsSec.map((w) => render(w, SECOND_DECIMALS).plain),
    cumulativeSec: schedule.cumulativeSec.map((c) => render(c, SECOND_DECIMALS).plain),
    totalWaitSec: render(last, SECOND_DECIMALS).plain,
  };
  return { text: [header, ...table, ...summary].join('\n'), json };
}
