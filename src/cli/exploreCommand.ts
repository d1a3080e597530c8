// `faultline explore <scenario|file>`: fast-check searches plans and interleavings; a violation
// is shrunk and printed with its trace and the line that replays it.
import { parseFlags, type CliIo } from '../cli.ts';
import { loadScenario } from '../catalogue.ts';
import { explore } from '../explore.ts';
import { InputError } from '../inputError.ts';
import { wholeNumber } from './flags.ts';
import { printRun } from './printRun.ts';
import { styleFor } from './style.ts';

export async function exploreCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    { json: { type: 'boolean' }, runs: { type: 'string' }, seed: { type: 'string' }, 'max-faults': { type: 'string' }, 'max-occurrence': { type: 'string' } },
    'explore',
  );
  if (positionals.length !== 1) throw new InputError('explore needs one scenario name or scenario file');
  const runs = wholeNumber('--runs', values.runs, 1);
  const seed = wholeNumber('--seed', values.seed);
  const maxFaults = wholeNumber('--max-faults', values['max-faults'], 1);
  const maxOccurrence = wholeNumber('--max-occurrence', values['max-occurrence'], 1);
  const ref = positionals[0]!;
  const { scenario } = await loadScenario(ref);
  const result = explore(scenario, {
    ref,
    ...(maxOccurrence === undefined ? {} : { maxOccurrence }),
    ...(runs === undefined ? {} : { runs }),
    ...(seed === undefined ? {} : { seed }),
    ...(maxFaults === undefined ? {} : { maxFaults }),
  });
  if (values.json) {
    io.out(JSON.stringify(result));
    return result.asExpected ? 0 : 1;
  }
  const c = styleFor(io.isTTY);
  io.out(`${c.bold(scenario.name)}: ${result.runs} runs from seed ${result.seed}; outcomes ${Object.entries(result.outcomes).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  const ce = result.counterexample;
  if (ce) {
    io.out(c.red(`${ce.outcome} found and shrunk to a minimal plan:`));
    printRun(io.out, c, { ...ce, claims: result.claims });
  }
  io.out(`verdict ${result.verdict}, expected ${result.expect}: ${result.asExpected ? c.green('as expected') : c.red('NOT as expected')}`);
  return result.asExpected ? 0 : 1;
}
