// The five Mercury verdicts from a cold start, as one command would give them: the benchmark
// times this whole process (node, tsx, loading the models, every windows run) to compare with a
// model checker's end-to-end time. Prints one line per scenario and exits 1 if any verdict is
// not the expected one.
import { runWindows } from '../src/modes/windows.ts';

const names = ['mercury-outbox', 'mercury-dual-write-commit-first', 'mercury-dual-write-publish-first', 'inventory-ack-before-commit', 'inventory-inbox-separate-tx'];
let ok = true;
for (const name of names) {
  const scenario = (await import(`../scenarios/${name}.ts`)).default;
  const r = runWindows(scenario);
  ok &&= r.judgement.asExpected;
  process.stdout.write(`${name} ${r.judgement.verdict} ${r.judgement.asExpected ? 'as expected' : 'NOT as expected'}\n`);
}
process.exitCode = ok ? 0 : 1;
