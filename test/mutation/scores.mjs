// Prints the mutation score of each group of mutated code from Stryker's JSON report, lists the
// surviving mutants, and names any survivor test/mutation/survivors.md does not account for.
// The score counts a mutant no test covers as surviving, as Stryker does. It exits 1 when a
// group that was run scores below 90%, the bar each is held to, or was not run at all.
//
// With --partial it reads instead what the event-recorder reporter wrote as each mutant was
// tested (reports/mutation/events/), for a run stopped before its end, when Stryker wrote no
// report: the scores are then over the mutants tested so far, say how many of the planned ones
// that is, and are judged against no bar (it exits 1: a partial run proves nothing whole).
// `--events DIR` reads another events folder (and implies --partial).
//
// `--report FILE`, given once or more, reads those JSON reports instead of the last run's, as one:
// a run over some groups (MUTANTS_GROUPS) and a run over the others make the whole.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { mutateGroups } from './mutateList.mjs';

const root = join(import.meta.dirname, '..', '..');
const reportFiles = process.argv.flatMap((arg, i) => (arg === '--report' ? [process.argv[i + 1]] : []));
const reportFile = join(root, 'reports/mutation/mutation.json');
const eventsAt = process.argv.indexOf('--events');
const eventsDir = eventsAt > 0 ? process.argv[eventsAt + 1] : join(root, 'reports/mutation/events');
const survivorsFile = join(root, 'test/mutation/survivors.md');
const REQUIRED = { 'checkers and claims': 90, 'verdict and clause tally': 90, 'kernel phases and quiet rule': 90, 'model guards': 90 };
const partial = process.argv.includes('--partial') || eventsAt > 0;

/** The events of the latest run: those written since its dry run's (older files are an earlier run's). */
function fromEvents() {
  const files = existsSync(eventsDir) ? readdirSync(eventsDir).sort() : [];
  const start = files.find((f) => f.endsWith('-onDryRunCompleted.json'));
  const planFile = files.find((f) => f.endsWith('-onMutationTestingPlanReady.json'));
  if (start === undefined || planFile === undefined) {
    console.error(`mutants: no events of a run in ${eventsDir}; run \`npm run mutants\` first`);
    process.exit(2);
  }
  const since = statSync(join(eventsDir, start)).mtimeMs;
  const plan = JSON.parse(readFileSync(join(eventsDir, planFile), 'utf8'));
  const planned = plan.mutantPlans.length;
  const byFile = {};
  let tested = 0;
  for (const f of files) {
    if (!f.endsWith('-onMutantTested.json') || statSync(join(eventsDir, f)).mtimeMs < since) continue;
    const m = JSON.parse(readFileSync(join(eventsDir, f), 'utf8'));
    const file = m.fileName.startsWith(root) ? m.fileName.slice(root.length).replace(/^\//, '') : m.fileName;
    (byFile[file] ??= { mutants: [] }).mutants.push(m);
    tested++;
  }
  console.log(`partial run: ${tested} of ${planned} planned mutants tested; the scores below are over those alone`);
  return { files: byFile };
}

/** The reports named, or the last run's, as one: each file's mutants from the report that tested it. */
function fromReports() {
  const files = reportFiles.length > 0 ? reportFiles : [reportFile];
  const merged = { files: {} };
  for (const f of files) {
    if (!existsSync(f)) {
      console.error(`mutants: no report at ${f}; run \`npm run mutants\` first (or, for a run stopped before its end, node test/mutation/scores.mjs --partial)`);
      process.exit(2);
    }
    Object.assign(merged.files, JSON.parse(readFileSync(f, 'utf8')).files);
  }
  return merged;
}

const report = partial ? fromEvents() : fromReports();
const groups = mutateGroups(root).map((g) => ({ ...g, paths: new Set(g.entries.map((e) => e.replace(/:\d+-\d+$/, ''))) }));

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);
const accounted = existsSync(survivorsFile) ? readFileSync(survivorsFile, 'utf8') : '';

/** How a survivor is named in the survivors report: `file:line:column`, then its mutator. */
function survivorId(file, m) {
  return `${file}:${m.location.start.line}:${m.location.start.column}`;
}

const rows = [];
const survivors = [];
const short = [];
for (const g of groups) {
  let detected = 0;
  let undetected = 0;
  let other = 0;
  for (const [file, { mutants }] of Object.entries(report.files)) {
    if (!g.paths.has(file)) continue;
    for (const m of mutants) {
      if (DETECTED.has(m.status)) detected++;
      else if (UNDETECTED.has(m.status)) {
        undetected++;
        survivors.push({ file, m });
      } else other++;
    }
  }
  const total = detected + undetected;
  // A group with no mutant tested (left out with MUTANTS_GROUPS, or not reached by a stopped run) has no score, not a perfect one.
  if (total === 0) {
    rows.push([g.name, '0', '0', '0', String(other), 'not run']);
    if (REQUIRED[g.name] !== undefined) short.push(`the ${g.name} group was not run`);
    continue;
  }
  const score = (100 * detected) / total;
  rows.push([g.name, String(total), String(detected), String(undetected), String(other), `${score.toFixed(2)}%`]);
  if (REQUIRED[g.name] !== undefined && score < REQUIRED[g.name]) short.push(`the ${g.name} score is below ${REQUIRED[g.name]}%`);
}

const head = ['group', 'mutants', 'killed', 'survived', 'invalid', 'score'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
console.log(`\nmutation score per group\n${line(head)}`);
for (const r of rows) console.log(line(r));

// A static mutant (one reached while a module loads, outside any test) runs against the whole
// suite; the run is held to at most 10% of them among the mutants it plants.
let planted = 0;
let statics = 0;
for (const { mutants } of Object.values(report.files)) {
  for (const m of mutants) {
    if (m.status === 'Ignored') continue;
    planted++;
    if (m.static) statics++;
  }
}
if (planted > 0) console.log(`\nstatic mutants: ${statics} of ${planted} planted (${((100 * statics) / planted).toFixed(1)}%)`);

if (survivors.length > 0) {
  console.log(`\n${survivors.length} surviving mutants (test/mutation/survivors.md says why each survives):`);
  const unexplained = [];
  for (const { file, m } of survivors) {
    const id = survivorId(file, m);
    const known = accounted.includes(`\`${id}\``);
    if (!known) unexplained.push(id);
    console.log(`  ${id}  ${m.mutatorName}  ${JSON.stringify(m.replacement ?? '')}${m.status === 'NoCoverage' ? '  (no test covers it)' : ''}${known ? '' : '  NOT IN survivors.md'}`);
  }
  if (unexplained.length > 0) console.log(`\n${unexplained.length} survivors are not accounted for in test/mutation/survivors.md`);
}
if (partial) {
  console.error('mutants: a partial run; the bar is judged on a whole run only');
  process.exit(1);
}
for (const s of short) console.error(`mutants: ${s}`);
process.exit(short.length > 0 ? 1 : 0);
