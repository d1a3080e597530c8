// A mutation run stopped before its end writes no report, only the events its event-recorder
// reporter wrote as each mutant was tested. The score printer reads those with --partial: it
// must count the latest run's mutants alone (an earlier run's files stay in the folder under
// numbers the new run has not reached), say how many of the planned ones were tested, give a group
// it never reached no score, and never pass a bar on part of a run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const mutant = (id: string, file: string, line: number, status: string) => ({
  fileName: join(root, file),
  id,
  location: { start: { line, column: 5 }, end: { line, column: 9 } },
  mutatorName: 'ConditionalExpression',
  replacement: 'true',
  status,
  coveredBy: [],
  static: false,
});

function events(): string {
  const dir = mkdtempSync(join(tmpdir(), 'faultline-events-'));
  dirs.push(dir);
  const write = (name: string, data: unknown, secondsAgo: number) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(data));
    const t = Date.now() / 1000 - secondsAgo;
    utimesSync(path, t, t);
  };
  // An earlier run's fourth event, older than this run's dry run: not this run's.
  write('00004-onMutantTested.json', mutant('9', 'src/checkers/atMostOne.ts', 3, 'Survived'), 600);
  write('00000-onDryRunCompleted.json', { result: { tests: [] } }, 60);
  write('00001-onMutationTestingPlanReady.json', { mutantPlans: [{}, {}, {}, {}, {}] }, 50);
  write('00002-onMutantTested.json', mutant('1', 'src/checkers/atMostOne.ts', 10, 'Killed'), 40);
  write('00003-onMutantTested.json', mutant('2', 'src/checkers/atMostOne.ts', 11, 'Survived'), 30);
  return dir;
}

describe('node test/mutation/scores.mjs --partial', () => {
  it('scores the latest run from its events, says how much of the plan that is, and exits 1', () => {
    const r = spawnSync(process.execPath, ['test/mutation/scores.mjs', '--events', events()], { cwd: root, encoding: 'utf8' });
    expect(r.stdout).toContain('partial run: 2 of 5 planned mutants tested');
    expect(r.stdout).toMatch(/checkers and claims\s+2\s+1\s+1\s+0\s+50\.00%/);
    // A group none of whose mutants was tested has no score, never a perfect one.
    expect(r.stdout).toMatch(/model guards\s+0\s+0\s+0\s+0\s+not run/);
    expect(r.stdout).toContain('src/checkers/atMostOne.ts:11:5');
    expect(r.stdout).not.toContain('src/checkers/atMostOne.ts:3:5');
    expect(r.stderr).toContain('a partial run; the bar is judged on a whole run only');
    expect(r.status).toBe(1);
  });

  it('refuses a folder that holds no run', () => {
    const empty = mkdtempSync(join(tmpdir(), 'faultline-events-'));
    dirs.push(empty);
    const r = spawnSync(process.execPath, ['test/mutation/scores.mjs', '--events', empty], { cwd: root, encoding: 'utf8' });
    expect(r.stderr).toMatch(/^mutants: no events of a run in /);
    expect(r.status).toBe(2);
  });
});
