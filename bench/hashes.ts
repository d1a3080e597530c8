// A fingerprint of the kernel's behaviour: the trace hash of every windows-mode plan of every
// catalogue scenario (latencies drawn from the seed) plus a fixed sample of explore cases (each
// on its schedule of latencies), folded into one sha-256. A performance change to the World,
// Trace, Network or Schedule must leave it unchanged.
// Run: npx tsx bench/hashes.ts
// FAULTLINE_DRIVER=xstate|compiled (read only here) sets the World's default driver, so the same
// fingerprint can be checked under either way of stepping the machines.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { loadCatalogue } from '../src/scenario/catalogue.ts';
import { caseArbitrary } from '../src/modes/explore.ts';
import { runScenario } from '../src/run/runScenario.ts';
import { faultSpace } from '../src/modes/faultSpace.ts';
import { DEFAULT_SEED } from '../src/modes/windows.ts';
import { stableJson } from '../src/kernel/trace.ts';
import { DEFAULT_WORLD_OPTIONS } from '../src/kernel/worldOptions.ts';
import { type Driver } from '../src/run/world.ts';

const driver = process.env['FAULTLINE_DRIVER'];
if (driver !== undefined) {
  if (driver !== 'xstate' && driver !== 'compiled') throw new Error(`FAULTLINE_DRIVER must be xstate or compiled, got ${driver}`);
  (DEFAULT_WORLD_OPTIONS as { driver: Driver }).driver = driver;
}
console.log(`driver: ${DEFAULT_WORLD_OPTIONS.driver}`);

/** The plain definition stableJson must stay byte-equal to. */
function referenceStableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(referenceStableJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${referenceStableJson(obj[k])}`).join(',')}}`;
}
class Point {
  constructor(
    readonly y: number,
    readonly x: number,
  ) {}
}
const edgeCases: unknown[] = [
  undefined, null, 0, -0, 1.5, 1e21, NaN, Infinity, -Infinity, true, false, '', 'a"b\\c\n\u2028é😀',
  [], [undefined, null, () => 1, Symbol('s')], [1, , 3], // eslint-disable-line no-sparse-arrays
  { b: 1, a: 2, c: undefined, d: null, e: () => 1 }, { 10: 'x', 2: 'y', b: 'z', B: 'w', é: 1, '': 0 },
  Object.assign(Object.create(null), { z: 1, y: [{ b: 2, a: 1 }] }), new Point(1, 2), new Date(0), new Map([[1, 2]]), new Set([1]),
  { nested: { deep: [{ z: { y: { x: [3, 2, 1] } } }] }, type: 'db.exec', ops: [{ op: 'insert', row: { k: 'v' } }] },
];
for (const v of edgeCases) {
  if (stableJson(v) !== referenceStableJson(v)) throw new Error(`stableJson differs on ${String(referenceStableJson(v))}: ${stableJson(v)}`);
}

const all = createHash('sha256');
// The behaviour alone (outcome, steps, ticks of every run, no trace hashes): a change to what
// the trace records (a field added to an event) moves the fingerprint above but not this one.
const behaviour = createHash('sha256');
let runs = 0;
for (const { scenario } of await loadCatalogue()) {
  const per = createHash('sha256');
  const reference = runScenario(scenario, { seed: DEFAULT_SEED, plan: [] });
  const maxOccurrence = scenario.windows?.maxOccurrence ?? 2;
  const space = faultSpace(reference, { maxOccurrence, ...(scenario.windows?.kinds ? { kinds: scenario.windows.kinds } : {}) });
  const plans = [[], ...space.singles.map((f) => [f])];
  for (const plan of plans) {
    const r = runScenario(scenario, { seed: DEFAULT_SEED, plan });
    per.update(`${r.report.traceHash} ${r.outcome} ${r.report.steps} ${r.report.ticks}\n`);
    behaviour.update(`${scenario.name} ${r.outcome} ${r.report.steps} ${r.report.ticks}\n`);
    runs++;
  }
  // A traced run must hash the same as an untraced one, and its events must stay the same too.
  const traced = runScenario(scenario, { seed: DEFAULT_SEED, plan: plans[1] ?? [], keepTrace: true });
  per.update(JSON.stringify(traced.report.trace));
  for (const c of fc.sample(caseArbitrary(scenario), { seed: 42, numRuns: 300 })) {
    const r = runScenario(scenario, { seed: c.seed, plan: c.plan, size: c.size, latencies: c.latencies });
    per.update(`${r.report.traceHash} ${r.outcome}\n`);
    behaviour.update(`${scenario.name} ${r.outcome} ${r.report.steps} ${r.report.ticks}\n`);
    runs++;
  }
  const d = per.digest('hex');
  all.update(d);
  console.log(`${scenario.name.padEnd(36)} ${d.slice(0, 16)}`);
}
console.log(`all (${runs} runs)`.padEnd(37) + all.digest('hex'));
console.log('behaviour (outcomes, steps, ticks)'.padEnd(37) + behaviour.digest('hex'));
