// Models a governed backfill: historical events are reprocessed only within the headroom left
// after live work and a variance allowance are reserved out of a tested safe envelope, so the
// backfill can never borrow capacity that live traffic needs. The duration follows from the cap.
import type Big from 'big.js';
import { InputError } from '../base/inputError.ts';
import {
  type DecimalLike,
  HOUR_DECIMALS,
  alignLines,
  isWhole,
  render,
  renderRatePerSec,
  renderSeconds,
  requireNonNegative,
  requirePositive,
  renderPerSec,
} from './units.ts';

export interface BackfillInput {
  events: DecimalLike;
  // The combined throughput the estate has been tested to sustain safely.
  envelopePerSec: DecimalLike;
  liveReservePerSec: DecimalLike;
  varianceReservePerSec: DecimalLike;
  capPerSec: DecimalLike;
}

export interface BackfillDuration {
  events: Big;
  envelopePerSec: Big;
  liveReservePerSec: Big;
  varianceReservePerSec: Big;
  capPerSec: Big;
  headroomPerSec: Big;
  durationSec: Big;
  durationHours: Big;
}

export function backfillDuration(input: BackfillInput): BackfillDuration {
  const events = requirePositive('events', input.events);
  if (!isWhole(events)) {
    throw new InputError(`events must be a whole number, got ${events.toFixed()}`);
  }
  const envelopePerSec = requirePositive('envelope', input.envelopePerSec);
  // Reservations may be zero (an idle estate, no variance allowance) but never negative.
  const liveReservePerSec = requireNonNegative('live reserve', input.liveReservePerSec);
  const varianceReservePerSec = requireNonNegative('variance reserve', input.varianceReservePerSec);
  const capPerSec = requirePositive('backfill cap', input.capPerSec);

  const reserved = liveReservePerSec.plus(varianceReservePerSec);
  const headroomPerSec = envelopePerSec.minus(reserved);
  if (headroomPerSec.lte(0)) {
    throw new InputError(
      `reservations ${renderRatePerSec(liveReservePerSec)} live + ${renderRatePerSec(varianceReservePerSec)} variance = ` +
        `${renderRatePerSec(reserved)} leave no headroom in the ${renderRatePerSec(envelopePerSec)} envelope`,
    );
  }
  if (capPerSec.gt(headroomPerSec)) {
    throw new InputError(
      `backfill cap ${renderRatePerSec(capPerSec)} exceeds the headroom ${renderRatePerSec(headroomPerSec)} ` +
        `(envelope ${renderRatePerSec(envelopePerSec)} − reservations ${renderRatePerSec(reserved)})`,
    );
  }
  const durationSec = events.div(capPerSec);
  return {
    events,
    envelopePerSec,
    liveReservePerSec,
    varianceReservePerSec,
    capPerSec,
    headroomPerSec,
    durationSec,
    durationHours: durationSec.div(3600),
  };
}

export function describeBackfill(backfill: BackfillDuration): { text: string; json: Record<string, unknown> } {
  const seconds = renderSeconds(backfill.durationSec);
  const hours = render(backfill.durationHours, HOUR_DECIMALS);
  const headroom = renderRatePerSec(backfill.headroomPerSec);
  const rows: Array<[string, string]> = [
    [
      'headroom',
      `${renderRatePerSec(backfill.envelopePerSec)} − ${renderRatePerSec(backfill.liveReservePerSec)} live − ` +
        `${renderRatePerSec(backfill.varianceReservePerSec)} variance = ${headroom}`,
    ],
    ['cap', `${renderRatePerSec(backfill.capPerSec)} ≤ ${headroom} headroom`],
    [
      'duration',
      `${render(backfill.events).text} ÷ ${renderRatePerSec(backfill.capPerSec)} ${seconds.exact ? '=' : '≈'} ${seconds.text} ` +
        `${hours.exact ? '=' : '≈'} ${hours.text} ${hours.plain === '1' ? 'hour' : 'hours'}`,
    ],
  ];
  const header = `backfill: ${render(backfill.events).text} events at a cap of ${renderRatePerSec(backfill.capPerSec)}`;
  const json = {
    command: 'backfill',
    events: render(backfill.events).plain,
    envelopePerSec: renderPerSec(backfill.envelopePerSec).plain,
    liveReservePerSec: renderPerSec(backfill.liveReservePerSec).plain,
    varianceReservePerSec: renderPerSec(backfill.varianceReservePerSec).plain,
    capPerSec: renderPerSec(backfill.capPerSec).plain,
    headroomPerSec: renderPerSec(backfill.headroomPerSec).plain,
    durationSec: seconds.plain,
    durationHours: hours.plain,
  };
  return { text: [header, ...alignLines(rows)].join('\n'), json };
}
