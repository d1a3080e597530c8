// Models the storage bill of a deduplication store: one entry per event kept for the whole
// deduplication window, priced at a modelled entry size, then multiplied by replication and by
// the storage engine's write/space amplification.
//
// The entry size is a modelling input, not a measurement: key, state, timestamp and index
// overhead together. The figures are a floor for planning; real overhead must be measured.
import Big from 'big.js';
import { InputError } from '../base/inputError.ts';
import {
  type DecimalLike,
  type Rate,
  alignLines,
  dec,
  eventsOver,
  isWhole,
  perDay,
  perSecond,
  render,
  renderDurationWithSeconds,
  renderRate,
  requirePositive,
} from './units.ts';

export interface DedupInput {
  // Exactly one of the two rates: events per second, or events per day (kept exact, see Rate).
  ratePerSec?: DecimalLike;
  ratePerDay?: DecimalLike;
  windowSec: DecimalLike;
  entryBytes: DecimalLike;
  // Copies of every entry; 1 when the store keeps a single copy.
  replication?: DecimalLike;
  // Physical bytes per logical byte from the storage engine (indexes, compaction, tombstones).
  amplification?: DecimalLike;
}

export interface DedupSizing {
  rate: Rate;
  windowSec: Big;
  entryBytes: Big;
  replication: Big;
  amplification: Big;
  // Whether the caller gave replication or amplification, so the text shows the physical lines.
  physicalRequested: boolean;
  // Entries held at the end of one full window, rounded up to a whole entry.
  entries: Big;
  // False when rate × window was not a whole number and had to be rounded up.
  entriesExact: boolean;
  logicalBytes: Big;
  replicatedBytes: Big;
  physicalBytes: Big;
}

// Decimal gigabytes, because storage is sold and provisioned in powers of ten.
const BYTES_PER_GB = dec(1e9);

export function dedupSizing(input: DedupInput): DedupSizing {
  if ((input.ratePerSec === undefined) === (input.ratePerDay === undefined)) {
    throw new InputError('dedup sizing needs exactly one rate: per second or per day');
  }
  const rate =
    input.ratePerSec !== undefined
      ? perSecond(requirePositive('rate', input.ratePerSec))
      : perDay(requirePositive('rate per day', input.ratePerDay as DecimalLike));
  const windowSec = requirePositive('window', input.windowSec);
  const entryBytes = requirePositive('entry bytes', input.entryBytes);
  const replication = requirePositive('replication', input.replication ?? 1);
  if (!isWhole(replication)) {
    throw new InputError(`replication must be a whole number of copies, got ${replication.toFixed()}`);
  }
  const amplification = requirePositive('amplification', input.amplification ?? 1);
  // Amplification is physical bytes over logical bytes: below 1 the store would hold less than
  // the entries it keeps, which no engine does (1 is none), so it is a typo, as factor below 1 is.
  if (amplification.lt(1)) {
    throw new InputError(`amplification must be at least 1 (1 is none: the store holds at least the entries it keeps), got ${amplification.toFixed()}`);
  }

  // A store cannot hold part of an entry; rounding up keeps the estimate on the safe side.
  const exactEntries = eventsOver(rate, windowSec);
  const entries = exactEntries.round(0, Big.roundUp);
  const logicalBytes = entries.times(entryBytes);
  const replicatedBytes = logicalBytes.times(replication);
  return {
    rate,
    windowSec,
    entryBytes,
    replication,
    amplification,
    physicalRequested: input.replication !== undefined || input.amplification !== undefined,
    entries,
    entriesExact: entries.eq(exactEntries),
    logicalBytes,
    replicatedBytes,
    physicalBytes: replicatedBytes.times(amplification),
  };
}

function gb(bytes: Big): string {
  return `${render(bytes.div(BYTES_PER_GB)).text} GB`;
}

// "18,000/s × 43,200 s", or for a daily rate "20,000,000/d × 7 d" when the window is a tidy number
// of days and "× 43,200 s ÷ 86,400 s/d" otherwise, so the formula never shows a rounded factor.
function rateTimesWindow(sizing: DedupSizing): string {
  const { rate, windowSec } = sizing;
  if (rate.unit === 's') {
    return `${renderRate(rate)} × ${render(windowSec).text} s`;
  }
  const days = render(windowSec.div(rate.periodSec), 6);
  if (days.exact) {
    return `${renderRate(rate)} × ${days.text} d`;
  }
  return `${renderRate(rate)} × ${render(windowSec).text} s ÷ ${render(rate.periodSec).text} s/d`;
}

export function describeDedup(sizing: DedupSizing): { text: string; json: Record<string, unknown> } {
  const entries = render(sizing.entries).text;
  const rows: Array<[string, string]> = [
    ['entries', `${rateTimesWindow(sizing)} = ${entries}${sizing.entriesExact ? '' : ' (rounded up to a whole entry)'}`],
    [
      'logical size',
      `${entries} × ${render(sizing.entryBytes).text} B = ${render(sizing.logicalBytes).text} B = ${gb(sizing.logicalBytes)}`,
    ],
  ];
  if (sizing.physicalRequested) {
    rows.push(['replicated size', `${gb(sizing.logicalBytes)} × ${render(sizing.replication).text} copies = ${gb(sizing.replicatedBytes)}`]);
    rows.push([
      'physical size',
      `${gb(sizing.replicatedBytes)} × ${render(sizing.amplification).text} amplification = ${gb(sizing.physicalBytes)}`,
    ]);
  }
  const header =
    `dedup sizing: ${renderRate(sizing.rate)} kept for ${renderDurationWithSeconds(sizing.windowSec)}, ` +
    `${render(sizing.entryBytes).text} B per entry (GB = 10^9 bytes)`;
  const json = {
    command: 'dedup',
    rate: `${render(sizing.rate.count).plain}/${sizing.rate.unit}`,
    windowSec: render(sizing.windowSec).plain,
    entryBytes: render(sizing.entryBytes).plain,
    replication: render(sizing.replication).plain,
    amplification: render(sizing.amplification).plain,
    entries: render(sizing.entries).plain,
    entriesRoundedUp: !sizing.entriesExact,
    logicalBytes: render(sizing.logicalBytes).plain,
    logicalGB: render(sizing.logicalBytes.div(BYTES_PER_GB)).plain,
    replicatedBytes: render(sizing.replicatedBytes).plain,
    replicatedGB: render(sizing.replicatedBytes.div(BYTES_PER_GB)).plain,
    physicalBytes: render(sizing.physicalBytes).plain,
    physicalGB: render(sizing.physicalBytes.div(BYTES_PER_GB)).plain,
  };
  return { text: [header, ...alignLines(rows)].join('\n'), json };
}
