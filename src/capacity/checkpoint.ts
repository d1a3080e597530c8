// Models how much input a stateful processor replays after a crash and how long it takes to catch
// up: everything since the last completed checkpoint is processed again while live input keeps
// arriving, so the backlog only shrinks at the recovery rate minus the live rate.
//
// The ideal figures assume a crash at a uniformly random moment within the checkpoint interval
// (on average half an interval of input to replay, at worst a full one) and an instant restart.
// The adjusted figures add two costs the ideal model leaves out:
//   - restore time: the processor is down while state loads, and live events arriving meanwhile
//     join the backlog, so restore costs more than its own duration;
//   - hot-key slowdown: a skewed key keeps one partition busy while the rest wait. "A slowdown of
//     s%" reads two ways, and the two disagree sharply near the margin, so both are worked out:
//     (a) on catch-up time: the catch-up takes s% longer, its seconds multiplied by 1 + s/100
//         after the restore backlog has been added, and never the restore time itself;
//     (b) on the recovery rate: recovery processes s% fewer events a second, a rate of
//         recovery × (1 − s/100), while live input keeps arriving at full rate. The margin left
//         can be zero or negative, and then catch-up never completes. A slowdown of 100% or
//         more stops recovery outright under this reading: a rate cannot fall below zero.
// Failure detection, source fetch, cache warming and sink demand are not modelled.
import type Big from 'big.js';
import { InputError } from '../base/inputError.ts';
import {
  type DecimalLike,
  alignLines,
  dec,
  render,
  renderPercent,
  renderRatePerSec,
  renderSeconds,
  requireNonNegative,
  requirePositive,
  SECOND_DECIMALS,
  renderPerSec,
} from './units.ts';

export interface CheckpointInput {
  ratePerSec: DecimalLike;
  intervalSec: DecimalLike;
  recoveryRatePerSec: DecimalLike;
  restoreSec?: DecimalLike;
  // A fraction: 0.25 for a 25% slowdown, read both on catch-up time and on the recovery rate.
  hotKeySlowdown?: DecimalLike;
}

// Reading (b): the slowdown taken off the recovery rate while live input keeps its full rate.
export interface SlowdownOnRecoveryRate {
  // max(0, 1 − s): what is left of the recovery rate; 0 once the slowdown reaches 100%.
  recoveryRateFactor: Big;
  recoveryRatePerSec: Big;
  // The slowed recovery rate minus the live rate; zero or negative when catch-up never completes.
  netCatchUpPerSec: Big;
  catchUpCompletes: boolean;
  // Null when catch-up never completes, since no number of seconds is the answer.
  catchUpAverageSec: Big | null;
  catchUpFullSec: Big | null;
  recoveryAverageSec: Big | null;
  recoveryFullSec: Big | null;
}

// The flat figures are reading (a), the slowdown on catch-up time; reading (b) is nested.
export interface CheckpointAdjusted {
  restoreSec: Big;
  hotKeySlowdown: Big;
  // 1 + s: the factor the catch-up seconds are multiplied by.
  slowdownFactor: Big;
  // Live events that arrive while state restores and nothing is processed.
  restoreBacklogEvents: Big;
  // Time spent processing after the restore finishes, slowdown included.
  catchUpAverageSec: Big;
  catchUpFullSec: Big;
  // Restore plus catch-up: from restart until the processor is back at the live edge.
  recoveryAverageSec: Big;
  recoveryFullSec: Big;
  slowdownOnRecoveryRate: SlowdownOnRecoveryRate;
}

export interface CheckpointReplay {
  ratePerSec: Big;
  intervalSec: Big;
  recoveryRatePerSec: Big;
  averageReplayEvents: Big;
  fullReplayEvents: Big;
  netCatchUpPerSec: Big;
  idealCatchUpAverageSec: Big;
  idealCatchUpFullSec: Big;
  // Null when neither restore time nor a slowdown was given, since it would repeat the ideal.
  adjusted: CheckpointAdjusted | null;
}

export function checkpointReplay(input: CheckpointInput): CheckpointReplay {
  const ratePerSec = requirePositive('rate', input.ratePerSec);
  const intervalSec = requirePositive('checkpoint interval', input.intervalSec);
  const recoveryRatePerSec = requirePositive('recovery rate', input.recoveryRatePerSec);

  const fullReplayEvents = ratePerSec.times(intervalSec);
  const averageReplayEvents = fullReplayEvents.div(2);
  const netCatchUpPerSec = recoveryRatePerSec.minus(ratePerSec);
  if (netCatchUpPerSec.lte(0)) {
    throw new InputError(
      `recovery rate ${renderRatePerSec(recoveryRatePerSec)} does not exceed the live rate ` +
        `${renderRatePerSec(ratePerSec)}: catch-up never finishes`,
    );
  }
  const result: CheckpointReplay = {
    ratePerSec,
    intervalSec,
    recoveryRatePerSec,
    averageReplayEvents,
    fullReplayEvents,
    netCatchUpPerSec,
    idealCatchUpAverageSec: averageReplayEvents.div(netCatchUpPerSec),
    idealCatchUpFullSec: fullReplayEvents.div(netCatchUpPerSec),
    adjusted: null,
  };
  if (input.restoreSec === undefined && input.hotKeySlowdown === undefined) {
    return result;
  }

  result.adjusted = adjustedReplay(result, input);
  return result;
}

/** The replay once a restore's backlog and a hot-key slowdown are counted in, read both ways. */
function adjustedReplay(r: CheckpointReplay, input: CheckpointInput): NonNullable<CheckpointReplay['adjusted']> {
  const restoreSec = requireNonNegative('restore time', input.restoreSec ?? 0);
  const hotKeySlowdown = requireNonNegative('hot-key slowdown', input.hotKeySlowdown ?? 0);
  const slowdownFactor = dec(1).plus(hotKeySlowdown);
  const restoreBacklogEvents = r.ratePerSec.times(restoreSec);
  // Multiplying before dividing keeps the figure exact whenever the quotient terminates.
  const catchUp = (replay: Big): Big => replay.plus(restoreBacklogEvents).times(slowdownFactor).div(r.netCatchUpPerSec);
  const catchUpAverageSec = catchUp(r.averageReplayEvents);
  const catchUpFullSec = catchUp(r.fullReplayEvents);

  // Reading (b). The recovery rate's own refusal in checkpointReplay still stands: this margin can vanish only
  // because of the slowdown, which is a figure worth printing rather than a mistake in the input.
  const recoveryRateFactor = dec(1).minus(hotKeySlowdown);
  const clampedFactor = recoveryRateFactor.lt(0) ? dec(0) : recoveryRateFactor;
  const slowedRecoveryPerSec = r.recoveryRatePerSec.times(clampedFactor);
  const slowedNetPerSec = slowedRecoveryPerSec.minus(r.ratePerSec);
  const catchUpCompletes = slowedNetPerSec.gt(0);
  const slowedCatchUp = (replay: Big): Big | null =>
    catchUpCompletes ? replay.plus(restoreBacklogEvents).div(slowedNetPerSec) : null;
  const slowedAverageSec = slowedCatchUp(r.averageReplayEvents);
  const slowedFullSec = slowedCatchUp(r.fullReplayEvents);

  return {
    restoreSec,
    hotKeySlowdown,
    slowdownFactor,
    restoreBacklogEvents,
    catchUpAverageSec,
    catchUpFullSec,
    recoveryAverageSec: restoreSec.plus(catchUpAverageSec),
    recoveryFullSec: restoreSec.plus(catchUpFullSec),
    slowdownOnRecoveryRate: {
      recoveryRateFactor: clampedFactor,
      recoveryRatePerSec: slowedRecoveryPerSec,
      netCatchUpPerSec: slowedNetPerSec,
      catchUpCompletes,
      catchUpAverageSec: slowedAverageSec,
      catchUpFullSec: slowedFullSec,
      recoveryAverageSec: slowedAverageSec === null ? null : restoreSec.plus(slowedAverageSec),
      recoveryFullSec: slowedFullSec === null ? null : restoreSec.plus(slowedFullSec),
    },
  };
}

// Event counts are printed to the millisecond's precision too: a fractional rate can make them
// fractional, and three decimals is plenty to show that without pretending to more.
// "= 0.5 events", or "≈ 0.5 events" where the three decimals rounded it.
function events(value: Big): string {
  const r = render(value, SECOND_DECIMALS);
  return `${r.exact ? '=' : '≈'} ${r.text} events`;
}

// "=" when the figure is exact and so is every operand the line shows, "≈" when rendering rounded
// any of them: a reader redoing the working from the figures shown gets the result only roughly.
function seconds(value: Big, ...operands: readonly { readonly exact: boolean }[]): string {
  const r = renderSeconds(value);
  return `${r.exact && operands.every((o) => o.exact) ? '=' : '≈'} ${r.text}`;
}

function plain(value: Big): string {
  return render(value, SECOND_DECIMALS).plain;
}

// A margin can be negative under reading (b); the text prints it with the same minus sign the
// formulas use for subtraction, while JSON keeps the plain "-1200".
function signedRate(ratePerSec: Big): string {
  return ratePerSec.lt(0) ? `−${renderRatePerSec(ratePerSec.abs())}` : renderRatePerSec(ratePerSec);
}

// A row is a "label = formula" line aligned with the others; a string is a line printed as it is.
type Entry = readonly [label: string, formula: string] | string;

// The catch-up and recovery rows one reading prints, given its net rate and the slowdown factor
// it applies to the catch-up seconds ('' when it applies none).
function catchUpRows(
  replay: CheckpointReplay,
  adjusted: CheckpointAdjusted,
  netRate: Big,
  slowed: string,
  figures: { average: Big; full: Big; recoveryAverage: Big; recoveryFull: Big },
): Entry[] {
  const avg = render(replay.averageReplayEvents, SECOND_DECIMALS);
  const full = render(replay.fullReplayEvents, SECOND_DECIMALS);
  const restore = renderSeconds(adjusted.restoreSec);
  const backlog = render(adjusted.restoreBacklogEvents, SECOND_DECIMALS);
  const net = renderRatePerSec(netRate);
  const rate = renderPerSec(netRate);
  const average = renderSeconds(figures.average);
  const whole = renderSeconds(figures.full);
  return [
    ['catch-up (average)', `(${avg.text} + ${backlog.text}) ÷ ${net}${slowed} ${seconds(figures.average, avg, backlog, rate)}`],
    ['catch-up (full)', `(${full.text} + ${backlog.text}) ÷ ${net}${slowed} ${seconds(figures.full, full, backlog, rate)}`],
    ['recovery (average)', `${restore.text} + ${average.text} ${seconds(figures.recoveryAverage, restore, average)}`],
    ['recovery (full)', `${restore.text} + ${whole.text} ${seconds(figures.recoveryFull, restore, whole)}`],
  ];
}

// Reading (b): the slowed recovery rate, its margin over live input, and either the catch-up it
// gives or, when there is no margin, the plain statement that catch-up never completes.
function recoveryRateRows(replay: CheckpointReplay, adjusted: CheckpointAdjusted): Entry[] {
  const b = adjusted.slowdownOnRecoveryRate;
  const live = renderRatePerSec(replay.ratePerSec);
  const slowedRate = renderRatePerSec(b.recoveryRatePerSec);
  const percent = renderPercent(adjusted.hotKeySlowdown);
  const fullRecovery = renderRatePerSec(replay.recoveryRatePerSec);
  // Past 100% the product would be a negative rate, which no processor has; the row says so
  // instead of printing a formula whose result it does not use.
  const rateFormula = adjusted.hotKeySlowdown.gt(1)
    ? `0/s, not ${fullRecovery} × (100% − ${percent}): a rate cannot fall below zero`
    : `${fullRecovery} × (100% − ${percent}) = ${slowedRate}`;
  const entries: Entry[] = [
    ['slowed recovery rate', rateFormula],
    ['slowed net catch-up rate', `${slowedRate} − ${live} = ${signedRate(b.netCatchUpPerSec)}`],
  ];
  if (
    b.catchUpAverageSec === null ||
    b.catchUpFullSec === null ||
    b.recoveryAverageSec === null ||
    b.recoveryFullSec === null
  ) {
    const growth = b.netCatchUpPerSec.lt(0)
      ? `; the backlog grows by ${render(b.netCatchUpPerSec.abs(), SECOND_DECIMALS).text} events a second`
      : '';
    entries.push(`  catch-up never completes: the slowed recovery rate ${slowedRate} does not exceed the live rate ${live}${growth}`);
    return entries;
  }
  const figures = {
    average: b.catchUpAverageSec,
    full: b.catchUpFullSec,
    recoveryAverage: b.recoveryAverageSec,
    recoveryFull: b.recoveryFullSec,
  };
  return [...entries, ...catchUpRows(replay, adjusted, b.netCatchUpPerSec, '', figures)];
}

function optionalPlain(value: Big | null): string | null {
  return value === null ? null : plain(value);
}

export function describeCheckpoint(replay: CheckpointReplay): { text: string; json: Record<string, unknown> } {
  const rate = renderRatePerSec(replay.ratePerSec);
  const interval = renderSeconds(replay.intervalSec).text;
  const net = renderRatePerSec(replay.netCatchUpPerSec);
  const netExact = renderPerSec(replay.netCatchUpPerSec);
  const avgR = render(replay.averageReplayEvents, SECOND_DECIMALS);
  const fullR = render(replay.fullReplayEvents, SECOND_DECIMALS);
  const avg = avgR.text;
  const full = fullR.text;
  const entries: Entry[] = [
    ['average replay', `${rate} × ${interval} ÷ 2 ${events(replay.averageReplayEvents)}`],
    ['full-interval replay', `${rate} × ${interval} ${events(replay.fullReplayEvents)}`],
    ['net catch-up rate', `${renderRatePerSec(replay.recoveryRatePerSec)} − ${rate} = ${net}`],
    ['ideal catch-up (average)', `${avg} ÷ ${net} ${seconds(replay.idealCatchUpAverageSec, avgR, netExact)}`],
    ['ideal catch-up (full)', `${full} ÷ ${net} ${seconds(replay.idealCatchUpFullSec, fullR, netExact)}`],
  ];
  const header = `checkpoint replay: ${rate} live, checkpoint every ${interval}, recovery at ${renderRatePerSec(replay.recoveryRatePerSec)}`;
  const adjusted = replay.adjusted;
  if (adjusted !== null) {
    const restore = renderSeconds(adjusted.restoreSec).text;
    entries.push(['backlog added by restore', `${rate} × ${restore} ${events(adjusted.restoreBacklogEvents)}`]);
    const figures = {
      average: adjusted.catchUpAverageSec,
      full: adjusted.catchUpFullSec,
      recoveryAverage: adjusted.recoveryAverageSec,
      recoveryFull: adjusted.recoveryFullSec,
    };
    if (adjusted.hotKeySlowdown.eq(0)) {
      // With no slowdown the two readings coincide, so one set of figures is printed, unlabelled
      // and without a "× (100% + 0%)" factor that would do nothing.
      entries.push(...catchUpRows(replay, adjusted, replay.netCatchUpPerSec, '', figures));
    } else {
      const percent = renderPercent(adjusted.hotKeySlowdown);
      entries.push(
        `hot-key slowdown ${percent}, reading (a) on catch-up time: the catch-up takes ${percent} longer`,
        ...catchUpRows(replay, adjusted, replay.netCatchUpPerSec, ` × (100% + ${percent})`, figures),
        `hot-key slowdown ${percent}, reading (b) on the recovery rate: ` +
          (adjusted.hotKeySlowdown.lt(1) ? `recovery processes ${percent} fewer events a second` : 'a slowdown of 100% or more stops recovery'),
        ...recoveryRateRows(replay, adjusted),
      );
    }
  }
  // Rows are aligned across the whole output, headings included, so every figure reads as one column.
  const aligned = alignLines(entries.filter((e): e is readonly [string, string] => typeof e !== 'string'));
  let row = 0;
  const lines = [header, ...entries.map((e) => (typeof e === 'string' ? e : (aligned[row++] ?? '')))];
  return { text: lines.join('\n'), json: checkpointJson(replay) };
}

/** The checkpoint figures as JSON, each decimal as exact text. */
function checkpointJson(replay: CheckpointReplay): Record<string, unknown> {
  const adjusted = replay.adjusted;
  const b = adjusted?.slowdownOnRecoveryRate;
  return {
    command: 'checkpoint',
    ratePerSec: renderPerSec(replay.ratePerSec).plain,
    intervalSec: plain(replay.intervalSec),
    recoveryRatePerSec: renderPerSec(replay.recoveryRatePerSec).plain,
    averageReplayEvents: plain(replay.averageReplayEvents),
    fullReplayEvents: plain(replay.fullReplayEvents),
    netCatchUpPerSec: renderPerSec(replay.netCatchUpPerSec).plain,
    idealCatchUpAverageSec: plain(replay.idealCatchUpAverageSec),
    idealCatchUpFullSec: plain(replay.idealCatchUpFullSec),
    adjusted:
      adjusted === null || b === undefined
        ? null
        : {
            restoreSec: plain(adjusted.restoreSec),
            hotKeySlowdownPercent: render(adjusted.hotKeySlowdown.times(100)).plain,
            slowdownFactor: render(adjusted.slowdownFactor).plain,
            restoreBacklogEvents: plain(adjusted.restoreBacklogEvents),
            catchUpAverageSec: plain(adjusted.catchUpAverageSec),
            catchUpFullSec: plain(adjusted.catchUpFullSec),
            recoveryAverageSec: plain(adjusted.recoveryAverageSec),
            recoveryFullSec: plain(adjusted.recoveryFullSec),
            slowdownOnRecoveryRate: {
              recoveryRateFactor: render(b.recoveryRateFactor).plain,
              recoveryRatePerSec: renderPerSec(b.recoveryRatePerSec).plain,
              netCatchUpPerSec: renderPerSec(b.netCatchUpPerSec).plain,
              catchUpCompletes: b.catchUpCompletes,
              catchUpAverageSec: optionalPlain(b.catchUpAverageSec),
              catchUpFullSec: optionalPlain(b.catchUpFullSec),
              recoveryAverageSec: optionalPlain(b.recoveryAverageSec),
              recoveryFullSec: optionalPlain(b.recoveryFullSec),
            },
          },
  };
}

