// The catalogue's outcomes, row by row, kept in files a change must update on purpose: every
// windows row of every scenario (its place and fault, its worst outcome, how often it struck and
// what each run ended in, and the plan of the worst run where that run broke a claim), the
// catalogue under every pair of faults (each scenario's verdict, runs, outcomes and the first
// pair that broke each claim), and a bounded check of each scenario (its verdict and the states,
// end states and depth it reached). A planted bug in the engine or a model that turns one row's
// duplicate into "holds" leaves most verdicts as they were; it does not leave these files so.
//
// The catalogue suite compares the windows and check files scenario by scenario; CI compares the
// pairs file with the report its pairs gate writes. After a change that should alter them,
// rewrite them and say in the commit which rows changed and why:
//   npx tsx test/golden/catalogueGolden.ts update [windows] [pairs] [check]
//   npx tsx test/golden/catalogueGolden.ts compare pairs <report.json>
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderJson } from '../../src/report/json.ts';

export type GoldenMode = 'windows' | 'pairs' | 'check';

const root = join(import.meta.dirname, '..', '..');
const dir = import.meta.dirname;

/**
 * The settings each golden is made with: CI's pairs gate uses the same. Pairs strike each place's
 * first occurrence: the second doubles the gate's time (about 10 minutes of two cores), past what
 * CI may spend; the scenarios whose expected pair violation needs a later occurrence are kept in
 * the golden as "holds within bound (NOT as expected)".
 */
export const PAIRS_MAX_OCCURRENCE = 1;
export const CHECK_MAX_STATES = 20_000;
/** The check each scenario's golden figures come from: one fault, the state bound, the whole bound searched. */
export const CHECK_FLAGS = ['--faults', '1', '--max-states', String(CHECK_MAX_STATES), '--full'];

/** The fields of a `--json` scenario document the golden lines read. */
export interface JsonScenario {
  readonly name: string;
  readonly verdict: string;
  readonly asExpected: boolean;
  readonly runs: number;
  readonly distinctOutcomes: readonly string[];
  readonly windows: readonly { readonly window: string; readonly fault: string; readonly restored?: string; readonly outcome: string; readonly runs: number; readonly struck: number; readonly outcomes: Readonly<Record<string, number>>; readonly plan: readonly JsonFault[] }[];
  readonly counterexamples: readonly { readonly violation: string; readonly plan: readonly JsonFault[]; readonly choices?: string }[];
  readonly check?: { readonly states: number; readonly ends: number; readonly depth: number };
}

type JsonFault = { readonly kind: string; readonly window?: string; readonly point?: string; readonly component?: string; readonly occurrence: number };

/** `crash relay.afterRelaySend#2`, `restore ordersDb at relay.idle#1`, `lose a->b:t#3`. */
function faultText(f: JsonFault): string {
  return `${f.kind}${f.component === undefined ? '' : ` ${f.component} at`} ${f.window ?? f.point}#${f.occurrence}`;
}

const planText = (plan: readonly JsonFault[]) => (plan.length === 0 ? 'no fault' : plan.map(faultText).join(' + '));

/** The lines one scenario contributes to a golden file of the given mode. */
export function goldenLines(s: JsonScenario, mode: GoldenMode): string[] {
  const head = `${s.verdict}${s.asExpected ? '' : ' (NOT as expected)'}, ${s.runs} ${mode === 'check' ? 'end states' : 'runs'}: ${s.distinctOutcomes.join(', ')}`;
  const firsts = s.counterexamples.map((c) => `  first ${c.violation}: ${c.choices === undefined ? planText(c.plan) : `choices ${c.choices}`}`);
  if (mode === 'check') return [head, `  ${s.check!.states} states, ${s.check!.ends} end states, depth ${s.check!.depth}`, ...firsts];
  if (mode === 'pairs') return [head, ...firsts];
  const rows = s.windows.map((w) => {
    const counts = Object.entries(w.outcomes).map(([o, n]) => `${o} ${n}`).join(', ');
    const worst = w.outcome === 'holds' ? '' : ` · worst ${planText(w.plan)}`;
    return `  ${w.window} ${w.fault}${w.restored === undefined ? '' : ` ${w.restored}`}: ${w.outcome} · struck ${w.struck}/${w.runs} · ${counts}${worst}`;
  });
  return [head, ...rows];
}

/** A golden file's text: each scenario's lines under its name, scenarios in name order. */
export function goldenText(scenarios: readonly JsonScenario[], mode: GoldenMode): string {
  const sorted = [...scenarios].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return sorted.map((s) => [`## ${s.name}`, ...goldenLines(s, mode)].join('\n')).join('\n\n') + '\n';
}

/** A golden file read back: each scenario's lines by its name. */
export function readGolden(mode: GoldenMode): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const text = readFileSync(join(dir, `catalogue-${mode}.txt`), 'utf8');
  for (const block of text.split('\n\n')) {
    const [head, ...lines] = block.trimEnd().split('\n');
    if (head?.startsWith('## ')) out.set(head.slice(3), lines);
  }
  return out;
}

/**
 * How one scenario differs from the golden file, an entry per line that differs: its first line,
 * then each row (or other line) by what it is about, the text before its first colon, so a row
 * added or gone is one entry rather than a shift of every line after it.
 */
export function scenarioDifferences(s: JsonScenario, mode: GoldenMode, golden = readGolden(mode)): string[] {
  const want = golden.get(s.name);
  if (want === undefined) return [`${s.name}: not in test/golden/catalogue-${mode}.txt`];
  const got = goldenLines(s, mode);
  const out: string[] = [];
  const differ = (was: string | undefined, now: string | undefined) => out.push(`${s.name}:\n  golden: ${was?.trim() ?? '(no line)'}\n  now:    ${now?.trim() ?? '(no line)'}`);
  if (got[0] !== want[0]) differ(want[0], got[0]);
  const about = (line: string) => line.slice(0, line.indexOf(': ') < 0 ? line.length : line.indexOf(': '));
  const before = new Map(want.slice(1).map((l) => [about(l), l]));
  const after = new Map(got.slice(1).map((l) => [about(l), l]));
  for (const [key, line] of after) if (before.get(key) !== line) differ(before.get(key), line);
  for (const [key, line] of before) if (!after.has(key)) differ(line, undefined);
  return out;
}

/** The differences between a report's scenarios and a golden file, one entry per line that differs. */
export function goldenDifferences(scenarios: readonly JsonScenario[], mode: GoldenMode): string[] {
  const golden = readGolden(mode);
  const out = scenarios.flatMap((s) => scenarioDifferences(s, mode, golden));
  for (const name of golden.keys()) if (!scenarios.some((s) => s.name === name)) out.push(`${name}: in the golden file, not in the report`);
  return out;
}

/** A sweep's result as its `--json` document has it: what the golden lines read. */
export function asJsonScenario(result: Parameters<typeof renderJson>[0][number]): JsonScenario {
  return (JSON.parse(renderJson([result])) as { scenarios: JsonScenario[] }).scenarios[0]!;
}

/** The catalogue's `--json` document for a mode, from the command line as CI runs it. */
function sweep(mode: GoldenMode): JsonScenario[] {
  const out = mkdtempSync(join(tmpdir(), 'faultline-golden-'));
  const args =
    mode === 'check'
      ? ['check', 'all', ...CHECK_FLAGS, '--json', '--workers', '2', '--out', out]
      : ['windows', 'all', '--json', '--workers', '2', '--out', out, ...(mode === 'pairs' ? ['--pairs', '--max-occurrence', String(PAIRS_MAX_OCCURRENCE)] : [])];
  const r = spawnSync(process.execPath, [join(root, 'bin', 'faultline.js'), ...args], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 30 });
  rmSync(out, { recursive: true, force: true });
  if (r.status !== 0 && r.status !== 1 && r.status !== 3) throw new Error(`faultline ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return (JSON.parse(r.stdout) as { scenarios: JsonScenario[] }).scenarios;
}

function main(argv: readonly string[]): number {
  const [command, ...rest] = argv;
  if (command === 'update' && rest[0] === '--from') {
    // A report already made with the golden's settings (as CI's gate makes it), written as the golden.
    const [, mode, report] = rest as [string, GoldenMode, string];
    const file = join(dir, `catalogue-${mode}.txt`);
    writeFileSync(`${file}.tmp`, goldenText((JSON.parse(readFileSync(report, 'utf8')) as { scenarios: JsonScenario[] }).scenarios, mode));
    renameSync(`${file}.tmp`, file);
    console.log(`wrote ${file}`);
    return 0;
  }
  if (command === 'update') {
    const modes = (rest.length === 0 ? ['windows', 'pairs', 'check'] : rest) as GoldenMode[];
    for (const mode of modes) {
      const file = join(dir, `catalogue-${mode}.txt`);
      writeFileSync(`${file}.tmp`, goldenText(sweep(mode), mode));
      renameSync(`${file}.tmp`, file);
      console.log(`wrote ${file}`);
    }
    return 0;
  }
  if (command === 'compare' && rest.length === 2) {
    const [mode, report] = rest as [GoldenMode, string];
    const differences = goldenDifferences((JSON.parse(readFileSync(report, 'utf8')) as { scenarios: JsonScenario[] }).scenarios, mode);
    for (const d of differences) console.log(d);
    console.log(differences.length === 0 ? `every scenario as test/golden/catalogue-${mode}.txt has it` : `${differences.length} differences from test/golden/catalogue-${mode}.txt`);
    return differences.length === 0 ? 0 : 1;
  }
  console.error('usage: catalogueGolden.ts update [windows] [pairs] [check] | update --from <windows|pairs|check> <report.json> | compare <windows|pairs|check> <report.json>');
  return 2;
}

if (process.argv[1] !== undefined && import.meta.filename === process.argv[1]) process.exitCode = main(process.argv.slice(2));
