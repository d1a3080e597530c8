// The score printer, node test/mutation/scores.mjs. A mutation run stopped before its end writes
// no report, only the events its event-recorder reporter wrote as each mutant was tested; the
// printer reads those with --partial: it must count the latest run's mutants alone (an earlier
// run's files stay in the folder under numbers the new run has not reached), say how many of the
// planned ones were tested, give a group it never reached no score, and never pass a bar on part
// of a run. Runs over different groups (MUTANTS_GROUPS) are read as one with --report, and each
// group is held to 90%.
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

describe('node test/mutation/scores.mjs --report A --report B', () => {
  /** A JSON report holding `mutants` of one file. */
  function report(file: string, mutants: ReturnType<typeof mutant>[]): string {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-report-'));
    dirs.push(dir);
    const path = join(dir, 'mutation.json');
    writeFileSync(path, JSON.stringify({ files: { [file]: { mutants } } }));
    return path;
  }
  const many = (file: string, killed: number, survived: number, statics = 0) =>
    Array.from({ length: killed + survived }, (_, i) => ({ ...mutant(String(i), file, i + 1, i < killed ? 'Killed' : 'Survived'), static: i < statics }));
  const checkers = 'src/checkers/atMostOne.ts';
  const verdict = 'src/checkers/verdict.ts';
  const kernel = 'src/kernel/quiet.ts';
  const guards = 'models/relay.ts';

  it('scores runs over different groups as one, counts the static mutants, and holds every group to 90%', () => {
    const args = ['test/mutation/scores.mjs', '--report', report(checkers, many(checkers, 19, 1, 1)), '--report', report(verdict, many(verdict, 9, 1)), '--report', report(kernel, many(kernel, 10, 0)), '--report', report(guards, many(guards, 17, 3))];
    const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
    expect(r.stdout).toMatch(/checkers and claims\s+20\s+19\s+1\s+0\s+95\.00%/);
    expect(r.stdout).toMatch(/verdict and clause tally\s+10\s+9\s+1\s+0\s+90\.00%/);
    expect(r.stdout).toMatch(/kernel phases and quiet rule\s+10\s+10\s+0\s+0\s+100\.00%/);
    expect(r.stdout).toMatch(/model guards\s+20\s+17\s+3\s+0\s+85\.00%/);
    expect(r.stdout).toContain('static mutants: 1 of 60 planted (1.7%)');
    expect(r.stderr).toContain('the model guards score is below 90%');
    expect(r.stderr).not.toContain('verdict and clause tally score');
    expect(r.status).toBe(1);
  });

  it('passes when every group is run and at 90% or more, and fails a group left out', () => {
    const all = ['--report', report(checkers, many(checkers, 9, 1)), '--report', report(verdict, many(verdict, 10, 0)), '--report', report(kernel, many(kernel, 10, 0)), '--report', report(guards, many(guards, 9, 1))];
    expect(spawnSync(process.execPath, ['test/mutation/scores.mjs', ...all], { cwd: root, encoding: 'utf8' }).status).toBe(0);
    const r = spawnSync(process.execPath, ['test/mutation/scores.mjs', ...all.slice(0, 6)], { cwd: root, encoding: 'utf8' });
    expect(r.stderr).toContain('the model guards group was not run');
    expect(r.status).toBe(1);
  });
});
