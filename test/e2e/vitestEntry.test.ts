// faultline/vitest: scenarios become vitest tests a team's own suite runs, and that suite spreads
// over a CI matrix with vitest's own --shard and --merge-reports: the shards' merged report holds
// every test the unsharded run holds, with the same results. A scenario whose verdict is not as
// expected fails its test with the line that replays the violation.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = resolve(import.meta.dirname, '../..');
const vitestBin = join(repo, 'node_modules/vitest/vitest.mjs');

/** A project of three test files over four scenarios, one of them a user's file whose expectation is wrong. */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'faultline-vitest-'));
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'));
  mkdirSync(join(dir, 'scenarios'));
  writeFileSync(
    join(dir, 'vitest.config.mjs'),
    `import { defineConfig } from 'vitest/config';
export default defineConfig({ resolve: { alias: [{ find: /^faultline\\/vitest$/, replacement: ${JSON.stringify(join(repo, 'src/vitest.ts'))} }] }, test: { include: ['*.test.mjs'] } });
`,
  );
  writeFileSync(join(dir, 'outbox.test.mjs'), `import { scenarioTests } from 'faultline/vitest';\nscenarioTests(['mercury-outbox', 'mercury-dual-write-commit-first']);\n`);
  writeFileSync(join(dir, 'inventory.test.mjs'), `import { scenarioTests } from 'faultline/vitest';\nscenarioTests('inventory-ack-before-commit', { mode: 'check', faults: 1 });\n`);
  // The design loses effects; its file claims it holds.
  writeFileSync(
    join(dir, 'scenarios', 'claims-too-much.ts'),
    `import { defineScenario } from ${JSON.stringify(join(repo, 'src/scenario/scenario.ts'))};
import { orderPipeline, reservationClaim } from ${JSON.stringify(join(repo, 'models/designs/orderPipeline.ts'))};
export default defineScenario({ name: 'claims-too-much', title: 'commit then publish, claimed safe', source: 'a test', lesson: 'a wrong expectation fails its test', build: orderPipeline({ design: 'dualWriteCommitFirst' }), workload: { size: 2 }, claims: [reservationClaim], expect: { verdict: 'holds' } });
`,
  );
  writeFileSync(join(dir, 'mine.test.mjs'), `import { scenarioTests } from 'faultline/vitest';\nscenarioTests('scenarios/', { failFast: true });\n`);
  return dir;
}

function vitest(dir: string, ...args: string[]) {
  return spawnSync(process.execPath, [vitestBin, 'run', '--config', join(dir, 'vitest.config.mjs'), '--root', dir, '--coverage.enabled=false', ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', CI: '1' } });
}

type Report = { numTotalTests: number; numPassedTests: number; numFailedTests: number; testResults: { assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[] };

const results = (r: Report) =>
  r.testResults
    .flatMap((f) => f.assertionResults.map((a) => `${a.fullName}: ${a.status}`))
    .sort();

describe('faultline/vitest', () => {
  it('runs each scenario as a test, fails a wrong expectation with its replay line, and shards and merges with vitest', () => {
    const dir = project();
    const whole = vitest(dir, '--reporter=json', `--outputFile=${join(dir, 'whole.json')}`);
    expect(whole.status).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'whole.json'), 'utf8')) as Report;
    expect(results(report)).toEqual([
      'faultline check inventory-ack-before-commit: passed',
      'faultline windows mercury-dual-write-commit-first: passed',
      'faultline windows mercury-outbox: passed',
      'faultline windows scenarios/claims-too-much.ts: failed',
    ]);
    const failed = report.testResults.flatMap((f) => f.assertionResults).find((a) => a.status === 'failed')!;
    expect(failed.failureMessages.join('\n')).toContain('claims-too-much: expected holds, got violated');
    expect(failed.failureMessages.join('\n')).toMatch(/replay: npx faultline replay scenarios\/claims-too-much\.ts --seed 1 --plan '\[/);

    const blobs = join(dir, 'blobs');
    for (const i of [1, 2, 3]) vitest(dir, `--shard=${i}/3`, '--reporter=blob', `--outputFile=${join(blobs, `blob-${i}.json`)}`);
    const merged = spawnSync(process.execPath, [vitestBin, '--config', join(dir, 'vitest.config.mjs'), '--root', dir, '--merge-reports', blobs, '--reporter=json', `--outputFile=${join(dir, 'merged.json')}`], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', CI: '1' } });
    expect(merged.status).toBe(1);
    expect(results(JSON.parse(readFileSync(join(dir, 'merged.json'), 'utf8')) as Report)).toEqual(results(report));
  }, 600_000);
});
