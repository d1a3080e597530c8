// Models the `faultline calc` command body: it turns a subcommand and its `--flag value` pairs
// into one capacity calculation and returns both the human text and a JSON-ready object. It never
// prints and never exits, so the command line decides where output goes and maps InputError to
// exit code 2; every mistake in the arguments surfaces here as one InputError line.
import type Big from 'big.js';
import { InputError } from '../inputError.ts';
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
    required: ['base', 'factor', 'cap', 'retries'],
    optional: [],
    run(flags) {
      const schedule = retrySchedule({
        baseSec: parseDuration('--base', flags.required('base')),
        factor: parseCount('--factor', flags.required('factor')),
        capSec: parseDuration('--cap', flags.required('cap')),
        retries: parseCount('--retries', flags.required('retries'), { integer: true }),
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

// Collects `--flag value` pairs, refusing anything that is not one: a stray word, a repeated
// flag, a flag whose value is missing, or a flag the subcommand does not know.
function readFlags(name: string, spec: Subcommand, args: readonly string[]): Flags {
  const known = [...spec.required, ...spec.optional];
  const values = new Map<string, string>();
  for (let i = 0; i < args.length; i += 2) {
    const token = args[i] ?? '';
    if (!token.startsWith('--')) {
      throw new InputError(`calc ${name}: unexpected argument ${JSON.stringify(token)}; expected --flag value pairs`);
    }
    const flag = token.slice(2);
    if (flag.includes('=')) {
      const [bare = ''] = flag.split('=');
      throw new InputError(`calc ${name}: write --${bare} and its value as two arguments, not ${JSON.stringify(token)}`);
    }
    if (!known.includes(flag)) {
      throw new InputError(`calc ${name}: unknown flag --${flag}; known flags: ${known.map((f) => `--${f}`).join(', ')}`);
    }
    if (values.has(flag)) {
      throw new InputError(`calc ${name}: --${flag} is given more than once`);
    }
    const value = args[i + 1];
    // A following "--x" is the next flag, not a value; "-5" is a value and is refused later as negative.
    if (value === undefined || value.startsWith('--')) {
      throw new InputError(`calc ${name}: --${flag} needs a value`);
    }
    values.set(flag, value);
  }
  const missing = spec.required.filter((f) => !values.has(f));
  if (missing.length > 0) {
    throw new InputError(`calc ${name}: missing required ${missing.map((f) => `--${f}`).join(', ')}`);
  }
  return {
    required(flag) {
      const value = values.get(flag);
      if (value === undefined) throw new InputError(`calc ${name}: missing required --${flag}`);
      return value;
    },
    optional(flag) {
      return values.get(flag);
    },
  };
}

export function runCalc(args: string[]): CalcOutput {
  const [name, ...rest] = args;
  if (name === undefined) {
    throw new InputError(`calc needs a subcommand: ${NAMES}`);
  }
  const spec = Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined;
  if (spec === undefined) {
    throw new InputError(`calc: unknown subcommand ${JSON.stringify(name)}; expected ${NAMES}`);
  }
  return spec.run(readFlags(name, spec, rest));
}
