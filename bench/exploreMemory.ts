// A child process of the benchmark: explores one scenario and samples the resident set size as
// the runs go by, to show whether memory stays flat (explore keeps counts, not traces).
// Usage: node --expose-gc --import tsx bench/exploreMemory.ts <scenario> <runs>; prints one line
// of JSON. With --expose-gc each sample first collects garbage, so `heapMB` is what is retained.
import { loadScenario } from '../src/scenario/catalogue.ts';
import { explore } from '../src/modes/explore.ts';
import { World } from '../src/run/world.ts';

const [name = 'mercury-outbox', runsArg = '20000'] = process.argv.slice(2);
const runs = Number(runsArg);
const { scenario } = await loadScenario(name);
const every = Math.max(1, Math.floor(runs / 40));
const samples: { run: number; rssMB: number; heapMB: number }[] = [];
let count = 0;
let peak = 0;
const run = World.prototype.run;
World.prototype.run = function (this: World) {
  const result = run.call(this);
  count++;
  if (count % every === 0) {
    (globalThis as { gc?: () => void }).gc?.();
    const m = process.memoryUsage();
    peak = Math.max(peak, m.rss);
    samples.push({ run: count, rssMB: m.rss / 2 ** 20, heapMB: m.heapUsed / 2 ** 20 });
  }
  return result;
};
const start = performance.now();
const result = explore(scenario, { runs, seed: 1 });
const seconds = (performance.now() - start) / 1000;
console.log(JSON.stringify({ scenario: name, collected: typeof (globalThis as { gc?: unknown }).gc === 'function', runs: result.runs, verdict: result.judgement.verdict, seconds, peakRssMB: peak / 2 ** 20, samples }));
