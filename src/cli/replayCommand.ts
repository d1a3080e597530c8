// `faultline replay <scenario|file> --seed S [--path P | --plan JSON] [--size N]`: reruns one
// plan and prints its trace step by step. With --path, S and P are the fast-check seed and path
// that explore printed; without, S is the simulation seed and --plan the faults (windows mode
// prints lines of this form). A planned fault that never strikes is reported, not ignored.
import { loadScenario } from '../catalogue.ts';
import { InputError } from '../inputError.ts';
import { parseArgv } from '../parseArgv.ts';
import { replay } from '../replay.ts';
import { replayJson } from '../report/runJson.ts';
import type { Command } from './command.ts';
import { planFlag, text, wholeNumber } from './flagValues.ts';
import { printRun } from './printRun.ts';
import { styleFor } from './style.ts';

export const command: Command = {
  usage: 'replay <scenario|file> --seed S [--path P | --plan JSON] [--size N] [--max-faults N] [--max-occurrence N] [--json]',
  spec: {
    command: 'replay',
    flags: {
      seed: { type: 'string', value: 'S', required: true, help: "the simulation seed (with --plan) or fast-check's seed (with --path)" },
      plan: { type: 'string', value: 'JSON', help: 'the faults, as windows mode prints them' },
      path: { type: 'string', value: 'P', help: "fast-check's path of a shrunk case, as explore prints it" },
      size: { type: 'string', value: 'N', help: 'the workload size (with --plan; default the scenario’s own)' },
      'max-faults': { type: 'string', value: 'N', help: 'the explore option the path was found with' },
      'max-occurrence': { type: 'string', value: 'N', help: 'the explore option the path was found with' },
      json: { type: 'boolean', help: 'print one JSON document: {name, verdict, seed, path, traceHash, plan, trace, …}' },
    },
    positionals: { min: 1, max: 1, name: 'scenario name or scenario file' },
  },
  async run(args, io) {
    const { values, positionals } = parseArgv(args, this.spec);
    const seed = wholeNumber('--seed', values['seed'], 0, 0x7fffffff)!;
    const path = text(values['path']);
    if (path !== undefined && !/^\d{1,9}(:\d{1,9}){0,999}$/.test(path)) throw new InputError(`--path must look like 3:0:1 (whole numbers joined by ':'), got ${JSON.stringify(path)}`);
    if (path !== undefined && values['plan'] !== undefined) throw new InputError('give --path (an explore replay) or --plan (a windows replay), not both');
    if (path !== undefined && values['size'] !== undefined) throw new InputError('--size goes with --plan; an explore path carries its own size');
    const plan = planFlag(values['plan']) ?? [];
    const size = wholeNumber('--size', values['size'], 1, 10_000);
    const maxFaults = wholeNumber('--max-faults', values['max-faults'], 1, 64);
    const maxOccurrence = wholeNumber('--max-occurrence', values['max-occurrence'], 1, 1_000);
    const ref = positionals[0]!;
    const { scenario } = await loadScenario(ref);
    const result = replay(
      scenario,
      path !== undefined
        ? { kind: 'path', seed, path, ...(maxFaults === undefined ? {} : { maxFaults }), ...(maxOccurrence === undefined ? {} : { maxOccurrence }) }
        : { kind: 'plan', seed, plan, ...(size === undefined ? {} : { size }) },
      ref,
    );
    if (values['json']) io.out(replayJson(result));
    else printRun(io.out, styleFor(io.isTTY), result);
    return 0;
  },
};
