// Sweeps spread over threads (--workers) and over machines (--shard i/n, then faultline merge)
// give the result one run in one thread gives, byte for byte: the tally of any cut of the plans
// merges back to the tally of all of them, and the commands' JSON and report sets are equal.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/catalogue.ts';
import { bufferIo } from '../../src/cli/io.ts';
import { main } from '../../src/cli/main.ts';
import { exploreRange, mergeExploreParts } from '../../src/modes/explore.ts';
import { shardRange } from '../../src/sweep/shard.ts';
import { sweepSettings } from '../../src/modes/windows.ts';
import { mergeWindowsParts, sweepPlan, sweepWindows, type WindowsPart } from '../../src/modes/windowsPart.ts';

const load = async (name: string) => (await loadScenario(name)).scenario;

async function run(...args: string[]) {
  const io = bufferIo();
  const code = await main(args, io);
  return { code, stdout: io.stdout, stderr: io.stderr };
}

/** Every file of a report folder, by name. */
function folder(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).sort().map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}

/** Cut points in [1, total): the stretches they make cover every plan once. */
const cuts = (total: number) => fc.uniqueArray(fc.integer({ min: 1, max: total - 1 }), { maxLength: 6 }).map((c) => [0, ...c.sort((a, b) => a - b), total]);

describe('a windows sweep cut into stretches', () => {
  it('merges back into the tally of one sweep, whatever the cuts, with and without --fail-fast', async () => {
    // Small violated designs: each property run sweeps the whole plan again, so a large one costs minutes.
    for (const [name, failFast] of [
      ['topic-read-process-write-separate-commit', false],
      ['topic-read-process-write-separate-commit', true],
      ['flow-rating-changed-fire-and-forget', false],
    ] as const) {
      const s = await load(name);
      const plan = sweepPlan(s, sweepSettings(s, { pairs: true, failFast, maxOccurrence: 1 }));
      const whole = sweepWindows(s, plan, 0, plan.total);
      fc.assert(
        fc.property(cuts(plan.total), (points) => {
          const parts: WindowsPart[] = [];
          for (let i = 0; i + 1 < points.length; i++) parts.push(sweepWindows(s, plan, points[i]!, points[i + 1]!));
          expect(mergeWindowsParts(parts)).toEqual(whole);
        }),
        { numRuns: 5, seed: 1 },
      );
      if (failFast) expect(whole.stopped).toBe(true);
    }
  }, 300_000);

  it('refuses parts that leave plans out', async () => {
    const s = await load('mercury-dual-write-commit-first');
    const plan = sweepPlan(s, sweepSettings(s));
    expect(() => mergeWindowsParts([sweepWindows(s, plan, 0, 5), sweepWindows(s, plan, 6, 9)])).toThrow(/leave plans 5 to 5 out/);
  });

  it('gives every shard an equal stretch, and every plan to one shard', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 1, max: 64 }), (total, count) => {
        let next = 0;
        for (let index = 1; index <= count; index++) {
          const [from, to] = shardRange(total, { index, count });
          expect(from).toBe(next);
          expect(to - from).toBeLessThanOrEqual(Math.ceil(total / count));
          next = to;
        }
        expect(next).toBe(total);
      }),
    );
  });
});

describe('an explore search cut into stretches', () => {
  it('merges back into one search: the same runs, outcomes, clauses and shrunk counterexample', async () => {
    for (const name of ['mercury-outbox', 'mercury-dual-write-commit-first']) {
      const s = await load(name);
      const whole = exploreRange(s, { seed: 3 }, 0, 300);
      const parts = [exploreRange(s, { seed: 3 }, 0, 70), exploreRange(s, { seed: 3 }, 70, 130), exploreRange(s, { seed: 3 }, 200, 100)];
      expect(mergeExploreParts(parts)).toEqual({ ...whole });
      if (name === 'mercury-dual-write-commit-first') expect(whole.failed).toBeDefined();
    }
  }, 120_000);
});

describe('--workers and --shard on the command line', () => {
  const names = ['mercury-dual-write-commit-first', 'inventory-ack-before-commit', 'mercury-outbox'];

  it('windows --pairs: two threads, and three shards merged, write what one thread writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-spread-'));
    // Three small designs, two violated and one that holds: the sweep runs five times over.
    const small = ['topic-read-process-write-separate-commit', 'flow-rating-changed-fire-and-forget', 'gift-saga-email-last'];
    const pairs = ['--pairs', '--max-occurrence', '1'];
    const one = await run('windows', ...small, ...pairs, '--json', '--out', join(dir, 'one'));
    const two = await run('windows', ...small, ...pairs, '--json', '--workers', '2', '--out', join(dir, 'two'));
    expect(one.code).toBe(0);
    expect(two).toEqual(one);
    expect(folder(join(dir, 'two'))).toEqual(folder(join(dir, 'one')));
    for (const i of [1, 2, 3]) {
      const shard = await run('windows', ...small, ...pairs, '--shard', `${i}/3`, '--out', join(dir, `part${i}`));
      expect(shard.code).toBe(0);
      expect(shard.stdout).toMatch(new RegExp(`^shard ${i}/3: 3 scenarios, \\d+ runs`));
    }
    const merged = await run('merge', join(dir, 'part3'), join(dir, 'part1'), join(dir, 'part2', 'part.json'), '--json', '--out', join(dir, 'merged'));
    expect(merged).toEqual(one);
    expect(folder(join(dir, 'merged'))).toEqual(folder(join(dir, 'one')));
  }, 600_000);

  it('windows --fail-fast: a sweep stopped at its first violation merges to the same stop', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-spread-'));
    const one = await run('windows', names[0]!, '--pairs', '--fail-fast', '--json', '--out', join(dir, 'one'));
    const two = await run('windows', names[0]!, '--pairs', '--fail-fast', '--json', '--workers', '2', '--out', join(dir, 'two'));
    for (const i of [1, 2]) await run('windows', names[0]!, '--pairs', '--fail-fast', '--shard', `${i}/2`, '--out', join(dir, `part${i}`));
    const merged = await run('merge', join(dir, 'part1'), join(dir, 'part2'), '--json', '--out', join(dir, 'merged'));
    expect(JSON.parse(one.stdout).scenarios[0].coverage.bound.kind).toBe('firstViolation');
    expect(two).toEqual(one);
    expect(merged).toEqual(one);
  }, 300_000);

  it('explore: two threads, and two shards merged, print what one thread prints', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-spread-'));
    const args = ['explore', names[0]!, names[2]!, '--runs', '300', '--seed', '5'];
    const one = await run(...args);
    expect(one.stdout).toContain('found and shrunk');
    expect(await run(...args, '--workers', '2')).toEqual(one);
    for (const i of [1, 2]) expect((await run(...args, '--shard', `${i}/2`, '--out', join(dir, `e${i}`))).code).toBe(0);
    expect(await run('merge', join(dir, 'e1'), join(dir, 'e2'))).toEqual(one);
  }, 300_000);

  it('check: two threads, and two shards merged, write what one thread writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-spread-'));
    const args = ['check', names[0]!, names[1]!, '--kinds', 'crash', '--json'];
    const one = await run(...args, '--out', join(dir, 'one'));
    expect(await run(...args, '--workers', '2', '--out', join(dir, 'two'))).toEqual(one);
    for (const i of [1, 2]) expect((await run('check', names[0]!, names[1]!, '--kinds', 'crash', '--shard', `${i}/2`, '--out', join(dir, `c${i}`))).code).toBe(0);
    expect(await run('merge', join(dir, 'c1'), join(dir, 'c2'), '--json', '--out', join(dir, 'merged'))).toEqual(one);
    expect(folder(join(dir, 'merged'))).toEqual(folder(join(dir, 'one')));
  }, 300_000);

  it('refuses a bad shard, a bad thread count and parts that are not one sweep, in one line with exit code 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-spread-'));
    for (const [args, message] of [
      [['windows', names[0]!, '--shard', '0/2'], /--shard: i must be between 1 and 2, got 0/],
      [['windows', names[0]!, '--shard', '3/2'], /--shard: i must be between 1 and 2, got 3/],
      [['windows', names[0]!, '--shard', 'half'], /--shard must be i\/n/],
      [['windows', names[0]!, '--shard', '1/2', '--json'], /give --json to faultline merge/],
      [['windows', names[0]!, '--workers', '0'], /--workers must be at least 1/],
      [['explore', names[0]!, '--out', dir], /--out is where a shard writes its part/],
      [['merge', join(dir, 'nothing')], /nothing does not exist/],
    ] as const) {
      const r = await run(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    await run('windows', names[0]!, '--shard', '1/2', '--out', join(dir, 'a1'));
    await run('windows', names[0]!, '--seed', '2', '--shard', '2/2', '--out', join(dir, 'b2'));
    await run('windows', names[1]!, '--shard', '2/2', '--out', join(dir, 'c2'));
    const cases = [
      [[join(dir, 'a1')], /shard 2\/2 missing/],
      [[join(dir, 'a1'), join(dir, 'a1')], /shard 1\/2 is given twice/],
      [[join(dir, 'a1'), join(dir, 'b2')], /ran with .*"seed":2.*parts of one sweep only/],
      [[join(dir, 'a1'), join(dir, 'c2')], /ran other scenarios/],
    ] as const;
    for (const [parts, message] of cases) {
      const r = await run('merge', ...parts, '--out', join(dir, 'm'));
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    // A shard given the default seed in so many words is a part of the same sweep as one left at it.
    await run('windows', names[0]!, '--seed', '1', '--shard', '2/2', '--out', join(dir, 'a2'));
    const merged = await run('merge', join(dir, 'a1'), join(dir, 'a2'), '--out', join(dir, 'ok'));
    expect(merged.stderr).toBe('');
    expect(merged.code).toBe(0);
  }, 120_000);
});
