// Models whether a deduplication window is long enough: every path that can bring an old event
// back (broker retention, producer retry, an offline consumer, dead-letter redrive, approved
// replay, partner redelivery) must fit inside the window, or a duplicate that arrives after its
// evidence expired is applied again as new work. The window is invalid if any requirement is
// longer; the gap to the longest one is the span in which that can happen.
import type Big from 'big.js';
import { InputError } from '../base/inputError.ts';
import { type DecimalLike, alignLines, render, renderDuration, renderDurationWithSeconds, requirePositive } from './units.ts';

export interface HorizonInput {
  windowSec: DecimalLike;
  brokerRetentionSec?: DecimalLike;
  producerRetrySec?: DecimalLike;
  offlineConsumerSec?: DecimalLike;
  deadLetterRedriveSec?: DecimalLike;
  approvedReplaySec?: DecimalLike;
  partnerRedeliverySec?: DecimalLike;
}

export type RequirementKey = Exclude<keyof HorizonInput, 'windowSec'>;

// The order here is the order of the output, and the names are the flags without their dashes,
// so a reader can map a line of output back to the flag that produced it; `calc horizon` takes
// its optional flags from here too.
export const REQUIREMENTS: ReadonlyArray<readonly [RequirementKey, string]> = [
  ['brokerRetentionSec', 'broker-retention'],
  ['producerRetrySec', 'producer-retry'],
  ['offlineConsumerSec', 'offline-consumer'],
  ['deadLetterRedriveSec', 'dead-letter-redrive'],
  ['approvedReplaySec', 'approved-replay'],
  ['partnerRedeliverySec', 'partner-redelivery'],
];

export interface HorizonRequirement {
  name: string;
  sec: Big;
  // How far the requirement reaches past the window; null when the window covers it.
  exceedsBySec: Big | null;
}

export interface DedupHorizon {
  windowSec: Big;
  valid: boolean;
  requirements: HorizonRequirement[];
  // Names of the requirements longer than the window, in output order.
  exceeding: string[];
  // All requirements tied for the longest, and how far that reaches past the window.
  largest: { names: string[]; sec: Big } | null;
  gapSec: Big | null;
}

export function dedupHorizon(input: HorizonInput): DedupHorizon {
  const windowSec = requirePositive('dedup window', input.windowSec);
  const requirements: HorizonRequirement[] = [];
  for (const [key, name] of REQUIREMENTS) {
    const raw = input[key];
    if (raw === undefined) continue;
    const sec = requirePositive(name, raw);
    requirements.push({ name, sec, exceedsBySec: sec.gt(windowSec) ? sec.minus(windowSec) : null });
  }
  if (requirements.length === 0) {
    // With nothing to compare, "valid" would be a claim the tool has not checked.
    throw new InputError(`horizon needs at least one requirement to compare, such as --broker-retention or --approved-replay`);
  }
  const exceeding = requirements.filter((r) => r.exceedsBySec !== null);
  let largest: DedupHorizon['largest'] = null;
  for (const r of exceeding) {
    if (largest === null || r.sec.gt(largest.sec)) largest = { names: [r.name], sec: r.sec };
    else if (r.sec.eq(largest.sec)) largest.names.push(r.name);
  }
  return {
    windowSec,
    valid: exceeding.length === 0,
    requirements,
    exceeding: exceeding.map((r) => r.name),
    largest,
    gapSec: largest === null ? null : largest.sec.minus(windowSec),
  };
}

export function describeHorizon(horizon: DedupHorizon): { text: string; json: Record<string, unknown> } {
  const window = renderDuration(horizon.windowSec).text;
  const rows: Array<[string, string]> = horizon.requirements.map((r) => [
    r.name,
    r.exceedsBySec === null
      ? `${renderDurationWithSeconds(r.sec)}, within the window`
      : `${renderDurationWithSeconds(r.sec)}, exceeds the window by ${renderDurationWithSeconds(r.exceedsBySec)}`,
  ]);
  if (horizon.largest === null || horizon.gapSec === null) {
    rows.push(['verdict', `valid: every requirement fits inside the ${window} window`]);
  } else {
    const n = horizon.exceeding.length;
    rows.push(['verdict', `INVALID: ${n} requirement${n === 1 ? '' : 's'} exceed${n === 1 ? 's' : ''} the ${window} window`]);
    rows.push(['largest', `${horizon.largest.names.join(', ')} (${renderDuration(horizon.largest.sec).text})`]);
    rows.push(['gap', `${renderDuration(horizon.largest.sec).text} − ${window} = ${renderDurationWithSeconds(horizon.gapSec)}`]);
  }
  const header = `dedup horizon: window ${renderDurationWithSeconds(horizon.windowSec)}`;
  const json = {
    command: 'horizon',
    windowSec: render(horizon.windowSec).plain,
    valid: horizon.valid,
    requirements: horizon.requirements.map((r) => ({
      name: r.name,
      sec: render(r.sec).plain,
      exceedsBySec: r.exceedsBySec === null ? null : render(r.exceedsBySec).plain,
    })),
    exceeding: horizon.exceeding,
    largest: horizon.largest === null ? null : { names: horizon.largest.names, sec: render(horizon.largest.sec).plain },
    gapSec: horizon.gapSec === null ? null : render(horizon.gapSec).plain,
  };
  return { text: [header, ...alignLines(rows)].join('\n'), json };
}
