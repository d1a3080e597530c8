// `faultline windows <scenario|file|all>`: every failure window x every fault kind, a summary
// table on the terminal, the reports written to --out (reports/ by default), and an exit code
// CI can gate on: 0 when every verdict is as expected, 1 otherwise.
import { accessSync, constants, mkdirSync } from 'node:fs';
import { parseFlags, type CliIo } from '../cli.ts';
import { loadCatalogue, loadScenario } from '../catalogue.ts';
import { InputError } from '../inputError.ts';
import { describePlan } from '../faults.ts';
import { runWindows, type WindowsResult } from '../windows.ts';
import { renderJson } from '../report/json.ts';
import { writeReports } from '../report/writeReports.ts';
import { wholeNumber } from './flags.ts';
import { styleFor, table } from './style.ts';

export async function windowsCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    {
      json: { type: 'boolean' },
      out: { type: 'string' },
      pairs: { type: 'boolean' },
      seed: { type: 'string' },
      'max-occurrence': { type: 'string' },
    },
    'windows',
  );
  if (positionals.length !== 1) throw new InputError('windows needs one scenario name, scenario file or "all"');
  const seed = wholeNumber('--seed', values.seed);
  const maxOccurrence = wholeNumber('--max-occurrence', values['max-occurrence'], 1);
  const ref = positionals[0]!;
  const outDir = values.out ?? 'reports';
  // Find out before the runs, not after them, that the reports cannot be written.
  try {
    mkdirSync(outDir, { recursive: true });
    accessSync(outDir, constants.W_OK);
  } catch (error) {
    throw new InputError(`--out ${outDir} is not a writable folder: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const entries = ref === 'all' ? await loadCatalogue() : [await loadScenario(ref)];
  const c = styleFor(io.isTTY);
  const results: WindowsResult[] = [];
  const progress = io.isTTY && !values.json;
  for (const [i, { scenario }] of entries.entries()) {
    const result = runWindows(scenario, {
      ...(ref === 'all' ? {} : { ref }),
      ...(seed === undefined ? {} : { seed }),
      ...(maxOccurrence === undefined ? {} : { maxOccurrence }),
      pairs: values.pairs ?? false,
      ...(progress ? { onRun: (done: number, total: number) => done % 25 === 0 && io.progress(`\r[${i + 1}/${entries.length}] ${scenario.name}: run ${done}/${total}\u001b[K`) } : {}),
    });
    results.push(result);
  }
  if (progress) io.progress('\r\u001b[K');
  writeReports(results, outDir);
  if (values.json) {
    io.out(renderJson(results));
  } else {
    const rows = results.map((r) => [
      r.name,
      String(r.windowCount),
      String(r.runs),
      r.distinctOutcomes.join(', '),
      r.verdict,
      r.expect,
      r.asExpected ? 'ok' : 'UNEXPECTED',
    ]);
    io.out(
      table([['scenario', 'windows', 'runs', 'outcomes', 'verdict', 'expected', ''], ...rows], (ri, ci, t) => {
        if (ri === 0) return c.bold(t);
        if (ci === 4) return t.startsWith('holds') ? c.green(t) : t.startsWith('violated') ? c.yellow(t) : c.red(t);
        if (ci === 6) return t.startsWith('ok') ? c.green(t) : c.red.bold(t);
        return t;
      }),
    );
    for (const r of results.filter((x) => !x.asExpected)) {
      io.out(c.red(`\n${r.name}: expected ${r.expect}${r.expectedViolations.length ? ` (${r.expectedViolations.join(', ')})` : ''}, got ${r.verdict}`));
      if (r.missing.length) io.out(`  not found: ${r.missing.join(', ')}`);
      for (const ce of r.counterexamples.filter((x) => r.unexpected.includes(x.violation))) {
        io.out(`  ${ce.violation}: ${describePlan(ce.plan)}\n  replay: ${ce.replay}`);
      }
    }
    const bad = results.filter((r) => !r.asExpected).length;
    io.out(`\n${results.length} scenarios, ${results.reduce((n, r) => n + r.runs, 0)} runs, ${bad === 0 ? c.green('every verdict as expected') : c.red(`${bad} not as expected`)}; reports in ${outDir}/`);
  }
  return results.every((r) => r.asExpected) ? 0 : 1;
}
