// The conventions a terminal and a CI system expect of a command: colour by FORCE_COLOR, NO_COLOR
// and the terminal, in that order; a progress line with its rate and an estimate on a
// terminal's stderr for every long command; in GitHub Actions, a job summary and an annotation
// on the scenario file of each verdict that is not as expected; and --watch, which runs again
// when a scenario file changes.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { bufferIo } from '../../src/cli/io.ts';
import { main } from '../../src/cli/main.ts';

const root = join(import.meta.dirname, '..', '..');
const bin = join(root, 'bin', 'faultline.js');
let work = '';
/** A scenario that expects the dual write to hold: every run of it is NOT as expected. */
let broken = '';

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'faultline-ci-'));
  broken = join(work, 'broken.ts');
  writeFileSync(broken, `import base from ${JSON.stringify(join(root, 'scenarios', 'mercury-dual-write-commit-first.ts'))};\nexport default { ...base, name: 'ci-broken', expect: { verdict: 'holds' } };\n`);
});

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('colour', () => {
  /** The environment without the variables under test, then with those a case sets. */
  const clean = (env: Record<string, string | undefined>) => Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv;
  const ansi = /\u001b\[\d+m/;

  it('is on when FORCE_COLOR=1 asks, though stdout is a pipe, and off in a pipe otherwise', () => {
    const piped = (e: Record<string, string>) => spawnSync(process.execPath, [bin, 'list', 'mercury-outbox'], { cwd: root, encoding: 'utf8', env: clean({ ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, ...e }) }).stdout;
    expect(piped({ FORCE_COLOR: '1' })).toMatch(ansi);
    expect(piped({})).not.toMatch(ansi);
    expect(piped({ NO_COLOR: '1' })).not.toMatch(ansi);
  });

  it.skipIf(!existsSync('/usr/bin/script'))('is off on a terminal when FORCE_COLOR=0 or NO_COLOR says so, and on otherwise', () => {
    // `script` runs the command on a pseudo-terminal, as a user's shell would.
    const onTty = (e: Record<string, string>) => spawnSync('script', ['-qec', `${process.execPath} ${bin} list mercury-outbox`, '/dev/null'], { cwd: root, encoding: 'utf8', env: clean({ ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, TERM: 'xterm', CI: undefined, ...e }) }).stdout;
    expect(onTty({})).toMatch(ansi);
    expect(onTty({ FORCE_COLOR: '0' })).not.toMatch(ansi);
    expect(onTty({ NO_COLOR: '1' })).not.toMatch(ansi);
  });
});

describe('progress on a terminal', () => {
  it('check draws states, their rate and the time at most left to its bound', async () => {
    const io = bufferIo(true);
    expect(await main(['check', 'flow-page-viewed', '--max-states', '100000', '--out', join(work, 'check')], io)).toBe(0);
    expect(io.stderr).toMatch(/^\r\[1\/1\] flow-page-viewed: state [\d,]+ · [\d,]+ states\/s · at most .* to its bound of 100,000\u001b\[K/);
    expect(io.stderr.endsWith('\r\u001b[K')).toBe(true);
  });

  it('explore draws runs of the search, their rate and an estimate', async () => {
    const io = bufferIo(true);
    expect(await main(['explore', 'mercury-outbox', '--runs', '20'], io)).toBe(0);
    expect(io.stderr).toContain('\r[1/1] mercury-outbox: run 1 of 20 · 1 runs/s · about 19 s left\u001b[K');
    expect(io.stderr.endsWith('\r\u001b[K')).toBe(true);
  });
});

describe('GitHub Actions', () => {
  it('annotates the scenario file of a verdict not as expected and appends a job summary', async () => {
    const summary = join(work, 'summary.md');
    writeFileSync(summary, '# earlier step\n');
    vi.stubEnv('GITHUB_ACTIONS', 'true');
    vi.stubEnv('GITHUB_STEP_SUMMARY', summary);
    const io = bufferIo();
    expect(await main(['windows', broken, 'mercury-outbox', '--out', join(work, 'gh')], io)).toBe(1);
    const file = relative(process.cwd(), broken);
    expect(io.stdout).toMatch(new RegExp(`^::error file=${file.replace(/[.]/g, '\\.')},title=faultline windows%3A ci-broken::ci-broken: expected holds, got violated%0Athe verdict is violated but holds was expected%0A.*%0Areplay: npx faultline replay `, 'm'));
    expect(io.stdout.match(/^::error /gm)).toHaveLength(1);
    const md = readFileSync(summary, 'utf8');
    expect(md.startsWith('# earlier step\n### faultline windows\n\n2 scenarios, **1 not as expected**.\n')).toBe(true);
    expect(md).toMatch(/^\| `ci-broken` \| violated \| holds \| \*\*NOT as expected\*\* \| source\.committing crash: lost effect \(unexpected\) \| `npx faultline replay /m);
    expect(md).toMatch(/^\| `mercury-outbox` \| holds \| holds \| as expected \| — \| — \|$/m);
  });

  it('keeps stdout for the JSON document with --json, annotating on stderr', async () => {
    vi.stubEnv('GITHUB_ACTIONS', 'true');
    vi.stubEnv('GITHUB_STEP_SUMMARY', '');
    const io = bufferIo();
    expect(await main(['windows', broken, '--json', '--out', join(work, 'gh-json')], io)).toBe(1);
    expect(() => JSON.parse(io.stdout) as unknown).not.toThrow();
    expect(io.stderr).toMatch(/^::error file=/);
  });

  it('says nothing of the kind outside GitHub Actions', async () => {
    vi.stubEnv('GITHUB_ACTIONS', '');
    const summary = join(work, 'untouched.md');
    vi.stubEnv('GITHUB_STEP_SUMMARY', summary);
    const io = bufferIo();
    expect(await main(['windows', broken, '--out', join(work, 'no-gh')], io)).toBe(1);
    expect(io.stdout).not.toContain('::error');
    expect(existsSync(summary)).toBe(false);
  });
});

describe('--watch', () => {
  it('runs the scenario file, and again when it changes, until interrupted, ending with the last run’s exit code', async () => {
    const file = join(work, 'watched.ts');
    const write = (title: string) => writeFileSync(file, `import base from ${JSON.stringify(join(root, 'scenarios', 'flow-page-viewed.ts'))};\nexport default { ...base, name: 'watched', title: ${JSON.stringify(title)}, windows: { maxOccurrence: 1 } };\n`);
    write('first');
    const child = spawn(process.execPath, [bin, 'windows', file, '--watch', '--out', join(work, 'watched-reports')], { cwd: root, env: { ...process.env, NO_COLOR: '1' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const until = async (what: () => boolean) => {
      while (!what()) await new Promise((r) => setTimeout(r, 50));
    };
    const runs = () => out.match(/^1 scenarios, \d+ runs, every verdict as expected/gm)?.length ?? 0;
    await until(() => runs() === 1 && /watching .* for changes/.test(err));
    write('second');
    await until(() => runs() === 2);
    expect(err).toMatch(/faultline: watched\.ts changed; running again/);
    // A run that fails (here a file that does not parse) is what an interrupt right after it ends with.
    writeFileSync(file, 'export default {\n');
    await until(() => /exit code 2; watching/.test(err));
    const ended = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.kill('SIGINT');
    expect(await ended).toBe(2);
  }, 120_000);
});
