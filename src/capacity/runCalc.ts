// Models the `faultline calc` command body: it turns a subcommand and its `--flag value` pairs
// into one capacity calculation and returns both the human text and a JSON-ready object. It never
// prints and never exits, so the command line decides where output goes and maps InputError to
// exit code 2; every mistake in the arguments surfaces here as one InputError line.
import type Big from 'big.js';
import { InputError } from '../base/inputError.ts';
import { didYouMean } from '../base/nearest.ts';
import { parseArgv, type ArgvSpec, type FlagSpec } from '../base/parseArgv.ts';
import { backfillDuration, describeBackfill } from './backfill.ts';
import { checkpointReplay, describeCheckpoint } from './checkpoint.ts';
import { dedupSizing, describeDedup } from './dedup.ts';
import { REQUIREMENTS, type RequirementKey, dedupHorizon, describeHorizon } from './horizon.ts';
import { describeRetry, retrySchedule } from './retry.ts';
import { parseBytes, parseCount, parseDuration, parsePercent, parseRate } from './units.ts';

export interface CalcOutput {
  text: string;
  json: unknown;
}

// Reads one flag's raw text; undefined only for optional flags that were not given.
type Flags = {
  required(flag: string): string;
  optional(flag: string): string | undefined;
};

interface Subcommand {
  required: readonly string[];
  optional: readonly string[];
  run(flags: Flags): CalcOutput;
}

const SUBCOMMANDS: Readonly<Record<string, Subcommand>> = {
  dedup: {
    required: ['rate', 'window', 'entry-bytes'],
    optional: ['replication', 'amplification'],
    run(flags) {
      // Only dedup takes a daily rate, because retention-sized stores are usually quoted per day.
      const rate = parseRate('--rate', flags.required('rate'), { allowPerDay: true });
      const replication = flags.optional('replication');
      const amplification = flags.optional('amplification');
      const sizing = dedupSizing({
        ...(rate.unit === 'd' ? { ratePerDay: rate.count } : { ratePerSec: rate.count }),
        windowSec: parseDuration('--window', flags.required('window')),
        entryBytes: parseBytes('--entry-bytes', flags.required('entry-bytes')),
        ...(replication === undefined ? {} : { replication: parseCount('--replication', replication, { integer: true }) }),
        ...(amplification === undefined ? {} : { amplification: parseCount('--amplification', amplification) }),
      });
      return describeDedup(sizing);
    },
  },
  checkpoint: {
    required: ['rate', 'interval', 'recovery-rate'],
    optional: ['restore', 'hot-key-slowdown'],
    run(flags) {
      const restore = flags.optional('restore');
      // A --hot-key-slowdown of s% is worked out both on catch-up time (the catch-up takes s%
      // longer, so 100% and above are meaningful and accepted) and on the recovery rate (which
      // 100% or more stops outright, an answer the output states rather than a refusal).
      const slowdown = flags.optional('hot-key-slowdown');
      const replay = checkpointReplay({
        ratePerSec: parseRate('--rate', flags.required('rate')).count,
        intervalSec: parseDuration('--interval', flags.required('interval')),
        recoveryRatePerSec: parseRate('--recovery-rate', flags.required('recovery-rate')).count,
        ...(restore === undefined ? {} : { restoreSec: parseDuration('--restore', restore, { allowZero: true }) }),
        ...(slowdown === undefined
          ? {}
          : { hotKeySlowdown: parsePercent('--hot-key-slowdown', slowdown, { allowZero: true }) }),
      });
      return describeCheckpoint(replay);
    },
  },
  backfill: {
    required: ['events', 'envelope', 'live-reserve', 'variance-reserve', 'cap'],
    optional: [],
    run(flags) {
      const backfill = backfillDuration({
        events: parseCount('--events', flags.required('events'), { integer: true }),
        envelopePerSec: parseRate('--envelope', flags.required('envelope')).count,
        liveReservePerSec: parseRate('--live-reserve', flags.required('live-reserve'), { allowZero: true }).count,
        varianceReservePerSec: parseRate('--variance-reserve', flags.required('variance-reserve'), { allowZero: true }).count,
        capPerSec: parseRate('--cap', flags.required('cap')).count,
      });
      return describeBackfill(backfill);
    },
  },
  retry: {
    required: ['base', 'factor', 'cap'],
    optional: ['retries', 'until'],
    run(flags) {
      const retries = flags.optional('retries');
      const until = flags.optional('until');
      if (retries === undefined && until === undefined) throw new InputError('calc retry: give --retries, --until, or both');
      const schedule = retrySchedule({
        baseSec: parseDuration('--base', flags.required('base')),
        factor: parseCount('--factor', flags.required('factor')),
        capSec: parseDuration('--cap', flags.required('cap')),
        retries: retries === undefined ? undefined : parseCount('--retries', retries, { integer: true }),
        untilSec: until === undefined ? undefined : parseDuration('--until', until),
      });
      return describeRetry(schedule);
    },
  },
  horizon: {
    required: ['window'],
    optional: REQUIREMENTS.map(([, flag]) => flag),
    run(flags) {
      const requirements: Partial<Record<RequirementKey, Big>> = {};
      for (const [key, flag] of REQUIREMENTS) {
        const raw = flags.optional(flag);
        if (raw !== undefined) requirements[key] = parseDuration(`--${flag}`, raw);
      }
      const horizon = dedupHorizon({ ...requirements, windowSec: parseDuration('--window', flags.required('window')) });
      return describeHorizon(horizon);
    },
  },
};

const NAMES = Object.keys(SUBCOMMANDS).join('|');

/** One line of help per flag, as `faultline calc <subcommand> --help` prints it. */
const FLAG_HELP: Readonly<Record<string, string>> = {
  rate: 'live input, events a second (dedup also takes a daily rate such as 20000000/d)',
  window: 'how long the dedup record is kept (12h, 7d)',
  'entry-bytes': 'bytes per dedup entry, index and overhead included (96, 64B)',
  replication: 'copies kept of each entry (whole number)',
  amplification: 'storage-engine space amplification, physical bytes over logical, at least 1 (1.5)',
  interval: 'time between completed checkpoints (30s)',
  'recovery-rate': 'events a second the processor replays after a restore',
  restore: 'time to load the checkpointed state (20s)',
  'hot-key-slowdown': 'a skew slowdown, as a percentage (25%)',
  events: 'events to backfill (1.2e9)',
  envelope: 'tested safe throughput of the estate, events a second',
  'live-reserve': 'throughput reserved for live work, events a second',
  'variance-reserve': 'throughput reserved for variance and control, events a second',
  cap: 'the backfill cap (events a second) or the backoff cap (a duration)',
  base: 'the first wait (1s)',
  factor: 'how much each wait grows (2)',
  retries: 'retries after the first attempt (whole number); with --until, at most this many',
  until: 'retry only while the cumulative wait stays within this (2d)',
  'broker-retention': 'how long the broker keeps records (7d)',
  'producer-retry': 'the longest a producer keeps retrying',
  'offline-consumer': 'the longest a consumer may be offline',
  'dead-letter-redrive': 'the oldest a dead letter may be when redriven',
  'approved-replay': 'the oldest data an approved replay may cover',
  'partner-redelivery': 'the longest after which a partner redelivers',
};

/** A subcommand's flags in the form the command line's one parser reads. */
export function calcArgvSpec(name: string): ArgvSpec {
  const spec = SUBCOMMANDS[name]!;
  const flags: Record<string, FlagSpec> = {};
  for (const f of spec.required) flags[f] = { type: 'string', required: true, help: FLAG_HELP[f] ?? f };
  for (const f of spec.optional) flags[f] = { type: 'string', help: FLAG_HELP[f] ?? f };
  return { command: `calc ${name}`, flags, positionals: { min: 0, max: 0, name: 'arguments' } };
}

/** The subcommands, for help and "did you mean". */
export const CALC_SUBCOMMANDS: readonly string[] = Object.keys(SUBCOMMANDS);

export function runCalc(args: string[]): CalcOutput {
  const [name, ...rest] = args;
  if (name === undefined) {
    throw new InputError(`calc needs a subcommand: ${NAMES}`);
  }
  const spec = Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined;
  if (spec === undefined) {
    throw new InputError(`calc: unknown subcommand ${JSON.stringify(name)}${didYouMean(name, Object.keys(SUBCOMMANDS))}; expected ${NAMES}`);
  }
  const { values } = parseArgv(rest, calcArgvSpec(name));
  return spec.run({
    required(flag) {
      const value = values[flag];
      if (typeof value !== 'string') throw new InputError(`calc ${name}: missing required --${flag}`);
      return value;
    },
    optional(flag) {
      const value = values[flag];
      return typeof value === 'string' ? value : undefined;
    },
  });
}
