// The command-line contract, exercised as a user would: a spawned process, its stdout, stderr
// and exit code.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const bin = join(root, 'bin', 'faultline.js');

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('faultline command line', () => {
  it('prints its version and help', () => {
    expect(cli('--version').out.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const help = cli('--help');
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/faultline windows <scenario\|file\|all>/);
  });

  it.each([
    [['bogus'], /unknown command bogus/],
    [['--bogus'], /unknown flag --bogus/],
    [['windows', 'no-such-scenario'], /unknown scenario no-such-scenario/],
    [['windows', 'mercury-outbox', '--frobnicate'], /windows: unknown flag --frobnicate; known flags: --out, --pairs/],
    [['windows', 'mercury-outbox', '--pair'], /unknown flag --pair \(did you mean --pairs\?\)/],
    [['windows', 'mercury-outbox', '--seed', '1', '--seed', '2'], /--seed is given more than once/],
    [['calc', 'dedup', '--json', '--json', '--rate', '1', '--window', '1h', '--entry-bytes', '9'], /--json is given more than once/],
    [['wnidows', 'all'], /unknown command wnidows \(did you mean windows\?\)/],
    [['explore', 'mercury-outbox', '--runs', '-5'], /--runs must be/],
    [['explore', 'mercury-outbox', '--seed', 'abc'], /--seed must be a whole number, got "abc"/],
    [['replay', 'mercury-outbox', '--seed', '1', '--plan', '[{"kind":"melt"}]'], /kind must be one of/],
    [['calc', 'dedup', '--rate', '-18000', '--window', '12h', '--entry-bytes', '96'], /rate/],
    [['replay', 'mercury-outbox', '--seed', '1', '--plan', '[{"kind":"crash","window":"nope.x","occurrence":1}]'], /has no failure window nope\.x/],
    [['replay', 'mercury-dual-write-commit-first', '--seed', '1', '--path', '9:9:9:9:9'], /seed 1 and path 9:9:9:9:9/],
    [['windows', 'mercury-outbox', '--out', '/dev/null/x'], /--out \/dev\/null\/x is not a writable folder/],
    [['explore', 'mercury-outbox', '--seed', '99999999999999999999'], /--seed is too large/],
  ])('refuses %j with one line on stderr and exit code 2', (args, message) => {
    const r = cli(...args);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('refuses a malformed scenario file with one line and exit code 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-'));
    const file = join(dir, 'broken.ts');
    writeFileSync(file, "export default { name: 'Broken Name', title: 'x' };\n");
    const r = cli('windows', file);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/malformed scenario .*broken\.ts: name must be lower-case/);
    writeFileSync(file, 'export default {{{ this is not typescript\n');
    const s = cli('windows', file);
    expect(s.code).toBe(2);
    expect(s.err.trim().split('\n')).toHaveLength(1);
  });

  it('lists the catalogue with expected verdicts, as JSON too', () => {
    const list = JSON.parse(cli('list', '--json').out) as { name: string; expect: string; title: string; file: string }[];
    expect(list.find((s) => s.name === 'mercury-outbox')).toMatchObject({ expect: 'holds', file: 'scenarios/mercury-outbox.ts' });
    expect(list.find((s) => s.name === 'mercury-dual-write-commit-first')?.expect).toBe('violated');
  });

  it('gives the same trace hash for the same seed and plan in two separate processes', () => {
    const plan = '[{"kind":"crash","window":"relay.afterBrokerAccept","occurrence":1}]';
    const run = () => JSON.parse(execFileSync(process.execPath, [bin, 'replay', 'mercury-outbox', '--seed', '42', '--plan', plan, '--json'], { cwd: root, encoding: 'utf8' })) as { traceHash: string; verdict: string };
    const a = run();
    const b = run();
    expect(a.traceHash).toMatch(/^[0-9a-f]{64}$/);
    expect(b.traceHash).toBe(a.traceHash);
    expect(a.verdict).toBe('holds');
  });

  it('explores, prints a minimal counterexample and a replay line that reproduces its hash', () => {
    const r = cli('explore', 'mercury-dual-write-commit-first', '--runs', '300', '--seed', '5', '--json');
    expect(r.code).toBe(0); // the violation is expected
    const doc = JSON.parse(r.out) as { verdict: string; seed: number; path: string; traceHash: string; plan: unknown[]; counterexample: { replay: string } };
    expect(doc.verdict).toBe('violated');
    const line = doc.counterexample.replay.split(' ').slice(2);
    const replay = JSON.parse(cli(...line, '--json').out) as { traceHash: string };
    expect(replay.traceHash).toBe(doc.traceHash);
  });

  it('prints one JSON document for windows --json and exits 1 only for an unexpected verdict', () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-out-'));
    const r = cli('windows', 'mercury-dual-write-commit-first', '--json', '--out', dir);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out) as { scenarios: { name: string; verdict: string; windows: { window: string; outcome: string; repairQuery: string }[] }[] };
    expect(doc.scenarios[0]!.verdict).toBe('violated');
    expect(doc.scenarios[0]!.windows.find((w) => w.window === 'source.afterSourceCommit')?.outcome).toBe('lost effect');
    // A design that claims to hold but does not: exit code 1 and the line that replays it.
    const mine = join(dir, 'mine.ts');
    writeFileSync(
      mine,
      `import base from '${join(root, 'scenarios', 'mercury-dual-write-commit-first.ts')}';\nexport default { ...base, name: 'mine', expect: { verdict: 'holds' } };\n`,
    );
    const bad = cli('windows', mine, '--out', dir);
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(/mine: expected holds, got violated/);
    expect(bad.out).toContain(`replay: npx faultline replay ${mine} --seed 1 --plan`);
  });

  it.each([
    ['checkpoint --rate 18000 --interval 30s --recovery-rate 24000', [/= 270,000 events/, /= 540,000 events/, /= 6,000\/s/, /= 45 s/, /= 90 s/]],
    ['dedup --rate 20000000/d --window 7d --entry-bytes 64', [/= 140,000,000\n/, /= 8\.96 GB/]],
    ['backfill --events 1.2e9 --envelope 25000 --live-reserve 20000 --variance-reserve 1000 --cap 4000', [/300,000 s ≈ 83\.33 hours/]],
    ['retry --base 1s --factor 2 --cap 60s --retries 8', [/7 +60 s +123 s/, /8 +60 s +183 s/]],
    ['horizon --window 12h --approved-replay 7d', [/INVALID/]],
    ['horizon --window 7d --partner-redelivery 30d', [/gap += 30 d − 7 d = 23 d/]],
  ])('calc %s prints the seeds\' figures with units', (line, patterns) => {
    const r = cli('calc', ...line.split(' '));
    expect(r.code).toBe(0);
    for (const p of patterns) expect(r.out).toMatch(p);
  });

  it('runs calc with exact figures', () => {
    const r = cli('calc', 'dedup', '--rate', '18000', '--window', '12h', '--entry-bytes', '96');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/777,600,000/);
    expect(r.out).toMatch(/74\.6496 GB/);
    const j = JSON.parse(cli('calc', 'dedup', '--rate', '18000', '--window', '12h', '--entry-bytes', '96', '--json').out) as Record<string, unknown>;
    expect(JSON.stringify(j)).toMatch(/"74\.6496"/);
  });
});
