// `faultline replay <scenario|file> --seed S [--path P | --plan JSON] [--size N]`: reruns one
// plan and prints its trace step by step. With --path, S and P are the fast-check seed and path
// that explore printed; without, S is the simulation seed and --plan the faults (windows mode
// prints lines of this form).
import { parseFlags, type CliIo } from '../cli.ts';
import { loadScenario } from '../catalogue.ts';
import { claimSentence } from '../claims.ts';
import { explore } from '../explore.ts';
import { InputError } from '../inputError.ts';
import { replayLine, runScenario } from '../runScenario.ts';
import type { Scenario } from '../scenario.ts';
import type { FaultPlan } from '../faults.ts';
import { failureWindows } from '../windows.ts';
import { planFlag, wholeNumber } from './flags.ts';
import { printRun } from './printRun.ts';
import { styleFor } from './style.ts';

export async function replayCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    {
      json: { type: 'boolean' },
      seed: { type: 'string' },
      path: { type: 'string' },
      plan: { type: 'string' },
      size: { type: 'string' },
      'max-faults': { type: 'string' },
      'max-occurrence': { type: 'string' },
    },
    'replay',
  );
  if (positionals.length !== 1) throw new InputError('replay needs one scenario name or scenario file');
  const seed = wholeNumber('--seed', values.seed);
  if (seed === undefined) throw new InputError('replay needs --seed');
  if (values.path !== undefined && !/^\d+(:\d+)*$/.test(values.path)) throw new InputError(`--path must look like 3:0:1, got ${JSON.stringify(values.path)}`);
  if (values.path !== undefined && values.plan !== undefined) throw new InputError('give --path (an explore replay) or --plan (a windows replay), not both');
  const plan = planFlag(values.plan) ?? [];
  const size = wholeNumber('--size', values.size, 1);
  const maxFaults = wholeNumber('--max-faults', values['max-faults'], 1);
  const maxOccurrence = wholeNumber('--max-occurrence', values['max-occurrence'], 1);
  const ref = positionals[0]!;
  const { scenario } = await loadScenario(ref);
  checkPlan(scenario, plan, size);
  const claims = scenario.claims.map(claimSentence);
  const c = styleFor(io.isTTY);
  let doc: { name: string; verdict: string; seed: number; path: string | null; traceHash: string; plan: unknown; trace: unknown; outcome: string; findings: unknown };
  if (values.path !== undefined) {
    let result: ReturnType<typeof explore>;
    try {
      result = explore(scenario, {
        seed,
        path: values.path,
        runs: 1,
        ref,
        ...(maxFaults === undefined ? {} : { maxFaults }),
        ...(maxOccurrence === undefined ? {} : { maxOccurrence }),
      });
    } catch (error) {
      // fast-check refuses a path that does not fit the search space the options describe; any
      // other error is a harness bug and keeps its stack.
      if (!(error instanceof Error) || !/replay|path/i.test(error.message)) throw error;
      throw new InputError(`seed ${seed} and path ${values.path} do not replay for ${scenario.name}: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`);
    }
    const ce = result.counterexample;
    if (!ce) throw new InputError(`seed ${seed} and path ${values.path} reproduce no failure for ${scenario.name}`);
    doc = { name: scenario.name, verdict: result.verdict, seed, path: values.path, traceHash: ce.traceHash, plan: ce.plan, trace: ce.trace, outcome: ce.outcome, findings: ce.findings };
    if (!values.json) printRun(io.out, c, { ...ce, claims });
  } else {
    const run = runScenario(scenario, { seed, plan, ...(size === undefined ? {} : { size }), keepTrace: true });
    const verdict = run.findings.length > 0 ? 'violated' : run.outcome === 'unknown' ? 'unknown' : 'holds';
    doc = { name: scenario.name, verdict, seed, path: null, traceHash: run.result.traceHash, plan, trace: run.world.trace.events, outcome: run.outcome, findings: run.findings };
    if (!values.json) {
      printRun(io.out, c, {
        claims,
        plan,
        seed,
        size: run.size,
        findings: run.findings,
        trace: run.world.trace.events,
        traceHash: run.result.traceHash,
        replay: replayLine(ref, seed, plan, size),
      });
    }
  }
  if (values.json) io.out(JSON.stringify(doc));
  return 0;
}

/** Refuses a plan that names a window or a component the design does not have. */
function checkPlan(scenario: Scenario, plan: FaultPlan, size: number | undefined): void {
  const components = scenario.build(size === undefined ? scenario.workload : { size });
  const names = new Set(components.map((c) => c.name));
  const windows = new Set(failureWindows(components));
  for (const f of plan) {
    if (f.kind === 'crash') {
      if (!windows.has(f.window)) throw new InputError(`--plan: ${scenario.name} has no failure window ${f.window}`);
    } else {
      const arrow = f.point.indexOf('->');
      const colon = f.point.indexOf(':', arrow + 2);
      const from = arrow > 0 ? f.point.slice(0, arrow) : '';
      const to = arrow > 0 && colon > arrow ? f.point.slice(arrow + 2, colon) : '';
      if (!names.has(from) || !names.has(to) || colon === f.point.length - 1) throw new InputError(`--plan: ${f.point} is not a message point of ${scenario.name} (<from>-><to>:<type>)`);
    }
  }
}
