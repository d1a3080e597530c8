// Models how much input a stateful processor replays after a crash and how long it takes to catch
// up: everything since the last completed checkpoint is processed again while live input keeps
// arriving, so the backlog only shrinks at the recovery rate minus the live rate.
//
// The ideal figures assume a crash at a uniformly random moment within the checkpoint interval
// (on average half an interval of input to replay, at worst a full one) and an instant restart.
// The adjusted figures add two costs the ideal model leaves out:
//   - restore time: the processor is down while state loads, and live events arriving meanwhile
//     join the backlog, so restore costs more than its own duration;
//   - hot-key slowdown: a slowdown of s% makes the catch-up take s% longer, because a skewed
//     key keeps one partition busy while the rest wait; it multiplies the catch-up seconds by
//     1 + s/100 after the restore backlog has been added, and never the restore time itself.
// Failure detection, source fetch, cache warming and sink demand are not modelled.
import type Big from 'big.js';
import { InputError } from '../inputError.ts';
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
} from './units.ts';

export interface CheckpointInput {
  ratePerSec: DecimalLike;
  intervalSec: DecimalLike;
  recoveryRatePerSec: DecimalLike;
  restoreSec?: DecimalLike;
  // A fraction: 0.25 for a 25% slowdown, which makes the catch-up take 25% longer.
  hotKeySlowdown?: DecimalLike;
}

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

  const restoreSec = requireNonNegative('restore time', input.restoreSec ?? 0);
  const hotKeySlowdown = requireNonNegative('hot-key slowdown', input.hotKeySlowdown ?? 0);
  const slowdownFactor = dec(1).plus(hotKeySlowdown);
  const restoreBacklogEvents = ratePerSec.times(restoreSec);
  // Multiplying before dividing keeps the figure exact whenever the quotient terminates.
  const catchUp = (replay: Big): Big => replay.plus(restoreBacklogEvents).times(slowdownFactor).div(netCatchUpPerSec);
  const catchUpAverageSec = catchUp(averageReplayEvents);
  const catchUpFullSec = catchUp(fullReplayEvents);
  result.adjusted = {
    restoreSec,
    hotKeySlowdown,
    slowdownFactor,
    restoreBacklogEvents,
    catchUpAverageSec,
    catchUpFullSec,
    recoveryAverageSec: restoreSec.plus(catchUpAverageSec),
    recoveryFullSec: restoreSec.plus(catchUpFullSec),
  };
  return result;
}

// Event counts are printed to the millisecond's precision too: a fractional rate can make them
// fractional, and three decimals is plenty to show that without pretending to more.
function events(value: Big): string {
  return `${render(value, SECOND_DECIMALS).text} events`;
}

// "=" when the figure is exact, "≈" when rendering rounded it.
function seconds(value: Big): string {
  const r = renderSeconds(value);
  return `${r.exact ? '=' : '≈'} ${r.text}`;
}

function plain(value: Big): string {
  return render(value, SECOND_DECIMALS).plain;
}

export function describeCheckpoint(replay: CheckpointReplay): { text: string; json: Record<string, unknown> } {
  const rate = renderRatePerSec(replay.ratePerSec);
  const interval = renderSeconds(replay.intervalSec).text;
  const net = renderRatePerSec(replay.netCatchUpPerSec);
  const avg = render(replay.averageReplayEvents, SECOND_DECIMALS).text;
  const full = render(replay.fullReplayEvents, SECOND_DECIMALS).text;
  const rows: Array<[string, string]> = [
    ['average replay', `${rate} × ${interval} ÷ 2 = ${events(replay.averageReplayEvents)}`],
    ['full-interval replay', `${rate} × ${interval} = ${events(replay.fullReplayEvents)}`],
    ['net catch-up rate', `${renderRatePerSec(replay.recoveryRatePerSec)} − ${rate} = ${net}`],
    ['ideal catch-up (average)', `${avg} ÷ ${net} ${seconds(replay.idealCatchUpAverageSec)}`],
    ['ideal catch-up (full)', `${full} ÷ ${net} ${seconds(replay.idealCatchUpFullSec)}`],
  ];
  const header = `checkpoint replay: ${rate} live, checkpoint every ${interval}, recovery at ${renderRatePerSec(replay.recoveryRatePerSec)}`;
  const lines = [header];
  const adjusted = replay.adjusted;
  if (adjusted !== null) {
    const restore = renderSeconds(adjusted.restoreSec).text;
    const backlog = render(adjusted.restoreBacklogEvents, SECOND_DECIMALS).text;
    // A zero slowdown would only add "× (100% + 0%)", so the factor is shown when it does something.
    const slowed = adjusted.hotKeySlowdown.eq(0) ? '' : ` × (100% + ${renderPercent(adjusted.hotKeySlowdown)})`;
    rows.push(
      ['backlog added by restore', `${rate} × ${restore} = ${events(adjusted.restoreBacklogEvents)}`],
      ['catch-up (average)', `(${avg} + ${backlog}) ÷ ${net}${slowed} ${seconds(adjusted.catchUpAverageSec)}`],
      ['catch-up (full)', `(${full} + ${backlog}) ÷ ${net}${slowed} ${seconds(adjusted.catchUpFullSec)}`],
      ['recovery (average)', `${restore} + ${renderSeconds(adjusted.catchUpAverageSec).text} ${seconds(adjusted.recoveryAverageSec)}`],
      ['recovery (full)', `${restore} + ${renderSeconds(adjusted.catchUpFullSec).text} ${seconds(adjusted.recoveryFullSec)}`],
    );
  }
  lines.push(...alignLines(rows));
  const json = {
    command: 'checkpoint',
    ratePerSec: plain(replay.ratePerSec),
    intervalSec: plain(replay.intervalSec),
    recoveryRatePerSec: plain(replay.recoveryRatePerSec),
    averageReplayEvents: plain(replay.averageReplayEvents),
    fullReplayEvents: plain(replay.fullReplayEvents),
    netCatchUpPerSec: plain(replay.netCatchUpPerSec),
    idealCatchUpAverageSec: plain(replay.idealCatchUpAverageSec),
    idealCatchUpFullSec: plain(replay.idealCatchUpFullSec),
    adjusted:
      adjusted === null
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
          },
  };
  return { text: lines.join('\n'), json };
}
