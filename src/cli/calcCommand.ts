// `faultline calc <checkpoint|dedup|backfill|retry|horizon> …`: the capacity arithmetic.
import { CALC_SUBCOMMANDS, calcArgvSpec, runCalc } from '../capacity/runCalc.ts';
import { InputError } from '../base/inputError.ts';
import { flagHelp, refuseUnknownFlags } from '../base/parseArgv.ts';
import { schemaOf } from '../report/json.ts';
import type { Command } from './command.ts';

export const command: Command = {
  usage: 'calc <checkpoint|dedup|backfill|retry|horizon> [--flags] [--json]',
  spec: { command: 'calc', flags: { json: { type: 'boolean', help: 'print the figures as one JSON object of exact decimal strings (schema faultline/calc@1)' } }, positionals: { min: 1, max: 1, name: 'subcommand' } },
  run(args, io) {
    // `--json` belongs to calc itself; everything else is the subcommand's, read by the same parser.
    const valued = args.find((a) => a.startsWith('--json='));
    if (valued !== undefined) throw new InputError(`--json is a switch and takes no value, got ${JSON.stringify(valued)}`);
    const json = args.filter((a) => a === '--json').length;
    if (json > 1) throw new InputError('calc: --json is given more than once');
    const result = runCalc(args.filter((a) => a !== '--json'));
    io.out(json === 1 ? JSON.stringify({ schema: schemaOf('calc'), ...(result.json as object) }) : result.text);
    return 0;
  },
  help(args) {
    const sub = args.find((a) => CALC_SUBCOMMANDS.includes(a));
    if (sub === undefined) return undefined;
    refuseUnknownFlags(args.filter((a) => a !== sub), { ...calcArgvSpec(sub), flags: { ...calcArgvSpec(sub).flags, json: { type: 'boolean', help: '' } } });
    return [`Usage: faultline calc ${sub} [--flags] [--json]`, '', 'Flags:', ...flagHelp(calcArgvSpec(sub), [['--json', 'print the figures as one JSON object'], ['--help', 'this text']])].join('\n');
  },
};
