// `faultline replay <scenario|file> --seed S [--path P | --plan JSON] [--size N]`: reruns one
// plan and prints a summary (the verdict, the findings, the steps about the key of the worst
// finding); `--trace` prints every event of the trace instead, `--json` the whole run as data.
// With --path, S and P are the fast-check seed and path that explore printed; without, S is the
// simulation seed and --plan the faults (windows mode prints lines of this form). A planned fault that never strikes is reported, not ignored.
// `faultline replay <scenario|file> --faults K --choices PATH` runs a check's choice path.
import { OPTION_RANGES } from '../base/optionRanges.ts';
import { loadScenario } from '../scenario/catalogue.ts';
import { InputError } from '../base/inputError.ts';
import { parseArgv } from '../base/parseArgv.ts';
import { replay } from '../modes/replay.ts';
import { replayJson } from '../report/runJson.ts';
import { decodeChoices } from '../modes/check/choicePath.ts';
import type { Command } from './command.ts';
import type { CliIo } from './io.ts';
import { kindsFlag, planFlag, text, wholeNumber } from './flagValues.ts';
import { loadOptions } from './loadOptions.ts';
import { printRun } from './printRun.ts';
import { styleFor } from './style.ts';

export const command: Command = {
  usage: 'replay <scenario|file> (--seed S [--path P | --plan JSON] | --faults K [--kinds LIST] --choices PATH [--world-latency]) [--size N] [--max-faults N] [--max-occurrence N] [--trace] [--json]',
  spec: {
    command: 'replay',
    flags: {
      seed: { type: 'string', value: 'S', help: "the simulation seed (with --plan) or fast-check's seed (with --path)" },
      choices: { type: 'string', value: 'PATH', help: 'a choice path, as check prints it (with --faults)' },
      faults: { type: 'string', value: 'K', help: 'the fault budget the choice path was found with' },
      kinds: { type: 'string', value: 'LIST', help: 'the fault kinds the choice path was found with, when the check was given them' },
      'world-latency': { type: 'boolean', help: 'the choice path was found with --world-latency' },
      plan: { type: 'string', value: 'JSON', help: 'the faults, as windows mode prints them' },
      path: { type: 'string', value: 'P', help: "fast-check's path of a shrunk case, as explore prints it" },
      size: { type: 'string', value: 'N', help: 'the workload size (with --plan; default the scenario’s own)' },
      'max-faults': { type: 'string', value: 'N', help: 'the explore option the path was found with' },
      'max-occurrence': { type: 'string', value: 'N', help: 'the explore option the path was found with' },
      trace: { type: 'boolean', help: 'print every event of the trace, not only the steps about the finding\'s key' },
      json: { type: 'boolean', help: 'print one JSON document: {name, verdict, seed, path, traceHash, plan, trace, …}' },
    },
    positionals: { min: 1, max: 1, name: 'scenario name or scenario file' },
  },
  async run(args, io) {
    const { values, positionals } = parseArgv(args, this.spec);
    const choicesText = text(values['choices']);
    if (choicesText !== undefined) return runChoicePath(values, positionals[0]!, choicesText, io);
    for (const flag of ['faults', 'kinds', 'world-latency'] as const) if (values[flag] !== undefined) throw new InputError(`--${flag} goes with --choices`);
    if (values['seed'] === undefined) throw new InputError('replay needs --seed S (with --plan or --path), or --faults K --choices PATH');
    const seed = wholeNumber('--seed', values['seed'], ...OPTION_RANGES.seed)!;
    const path = text(values['path']);
    if (path !== undefined && !/^\d{1,9}(:\d{1,9}){0,999}$/.test(path)) throw new InputError(`--path must look like 3:0:1 (whole numbers joined by ':'), got ${JSON.stringify(path)}`);
    if (path !== undefined && values['plan'] !== undefined) throw new InputError('give --path (an explore replay) or --plan (a windows replay), not both');
    if (path !== undefined && values['size'] !== undefined) throw new InputError('--size goes with --plan; an explore path carries its own size');
    const plan = planFlag(values['plan']) ?? [];
    const size = wholeNumber('--size', values['size'], ...OPTION_RANGES.size);
    const maxFaults = wholeNumber('--max-faults', values['max-faults'], ...OPTION_RANGES.maxFaults);
    const maxOccurrence = wholeNumber('--max-occurrence', values['max-occurrence'], ...OPTION_RANGES.maxOccurrence);
    const ref = positionals[0]!;
    const { scenario } = await loadScenario(ref, loadOptions(io));
    const result = replay(
      scenario,
      path !== undefined
        ? { kind: 'path', seed, path, ...(maxFaults === undefined ? {} : { maxFaults }), ...(maxOccurrence === undefined ? {} : { maxOccurrence }) }
        : { kind: 'plan', seed, plan, ...(size === undefined ? {} : { size }) },
      ref,
    );
    if (values['json']) io.out(replayJson(result));
    else printRun(io.out, styleFor(io.colorLevel), result, values['trace'] === true);
    return 0;
  },
};

/** `replay --choices`: one check run, by its choice path. */
async function runChoicePath(values: Readonly<Record<string, string | true | undefined>>, ref: string, choicesText: string, io: CliIo): Promise<number> {
  for (const flag of ['seed', 'plan', 'path', 'max-faults', 'max-occurrence'] as const) if (values[flag] !== undefined) throw new InputError(`--${flag} does not go with --choices (a choice path is replayed with --faults and, if it was given, --size)`);
  const faults = wholeNumber('--faults', values['faults'], ...OPTION_RANGES.pathFaults);
  if (faults === undefined) throw new InputError('--choices needs --faults K, the fault budget the check ran with (its replay line gives it)');
  const choices = decodeChoices(choicesText);
  const size = wholeNumber('--size', values['size'], ...OPTION_RANGES.size);
  const { scenario } = await loadScenario(ref, loadOptions(io));
  const kinds = kindsFlag(values['kinds']);
  const result = replay(scenario, { kind: 'choices', choices, faults, ...(kinds === undefined ? {} : { kinds }), ...(size === undefined ? {} : { size }), ...(values['world-latency'] ? { worldLatency: true } : {}) }, ref);
  if (values['json']) io.out(replayJson(result));
  else printRun(io.out, styleFor(io.colorLevel), result, values['trace'] === true);
  return 0;
}
