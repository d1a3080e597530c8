// The command-line contract: each command is run in-process through `main(argv, io)` with an io
// that keeps what it printed, so every case checks the exit code, stdout and stderr exactly as a
// user would see them. Bad input is one line on stderr, exit code 2 and no stack trace. Only what
// needs a real process is spawned: the bin file starting at all, the exit codes the shell sees,
// a user's scenario file that imports the engine, and the same trace hash from two processes.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { bufferIo } from '../../src/cli/io.ts';
import { main, USAGE } from '../../src/cli/main.ts';

const root = join(import.meta.dirname, '..', '..');
const bin = join(root, 'bin', 'faultline.js');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };

interface Ran {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

async function cli(args: readonly string[], isTTY = false): Promise<Ran> {
  const io = bufferIo(isTTY);
  const code = await main(args, io);
  return { code, out: io.stdout, err: io.stderr };
}

/** Runs a command that must be refused: exit code 2, nothing on stdout, one line on stderr. */
async function refused(args: readonly string[]): Promise<string> {
  const r = await cli(args);
  expect(r.code, `exit code of ${JSON.stringify(args)}`).toBe(2);
  expect(r.out).toBe('');
  const lines = r.err.trimEnd().split('\n');
  expect(lines, r.err).toHaveLength(1);
  expect(r.err).toMatch(/^faultline: \S/);
  expect(r.err).not.toMatch(/\bat \S+ \(|Error:/); // no stack trace, no error class name
  return lines[0]!;
}

let out = '';
beforeAll(() => {
  // Every windows run writes reports; none of them may land in the project's own reports/.
  out = mkdtempSync(join(tmpdir(), 'faultline-cli-'));
});

describe('faultline with no command', () => {
  it.each([['--help'], ['-h'], ['help']])('%s prints the usage and every command, exit code 0', async (flag) => {
    const r = await cli([flag]);
    expect(r).toEqual({ code: 0, out: `${USAGE}\n`, err: '' });
    for (const name of ['list', 'windows', 'explore', 'check', 'replay', 'record', 'calc', 'init']) expect(r.out).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    expect(r.out).toMatch(/Exit codes: 0 .*; 1 .*\n2 bad input or usage/);
  });

  it.each([['--version'], ['-v']])('%s prints the package version alone', async (flag) => {
    expect(await cli([flag])).toEqual({ code: 0, out: `${pkg.version}\n`, err: '' });
  });

  it('prints the usage and exits 2 when no command is given, saying so on stderr', async () => {
    const r = await cli([]);
    expect(r).toEqual({ code: 2, out: `${USAGE}\n`, err: 'faultline: no command given (try faultline --help)\n' });
  });

  it('takes help before a command as the command’s own help, and refuses anything after --version', async () => {
    for (const argv of [['--help', 'windows'], ['help', 'windows']]) expect((await cli(argv)).out).toBe((await cli(['windows', '--help'])).out);
    expect(await refused(['--version', '2'])).toBe('faultline: --version takes nothing after it, got "2"');
    expect(await refused(['calc', 'dedup', '--rate', '10', '--window', '12h', '--entry-bytes', '96', '--json=1'])).toBe('faultline: --json is a switch and takes no value, got "--json=1"');
  });

  it('refuses an unknown command, naming the nearest one', async () => {
    expect(await refused(['wnidows', 'all'])).toBe('faultline: unknown command wnidows (did you mean windows?) (try faultline --help)');
    expect(await refused(['exploer'])).toMatch(/unknown command exploer \(did you mean explore\?\)/);
    // Nothing near: no guess is offered.
    expect(await refused(['frobnicate'])).toBe('faultline: unknown command frobnicate (try faultline --help)');
    // A name inherited from Object.prototype is not a command either.
    expect(await refused(['constructor'])).toMatch(/unknown command constructor/);
  });

  it('refuses an unknown flag in place of a command', async () => {
    expect(await refused(['--bogus'])).toBe('faultline: unknown flag --bogus (try faultline --help)');
  });
});

describe('each command’s --help lists that command’s flags and no other', () => {
  const flags: Record<string, readonly string[]> = {
    list: ['--json'],
    windows: ['--out DIR', '--reporter LIST', '--format LIST', '--pairs', '--only PLACE', '--seed S', '--max-occurrence N', '--fail-fast', '--watch', '--workers N', '--shard i/n', '--json'],
    explore: ['--runs N', '--seed S', '--max-faults N', '--max-occurrence N', '--workers N', '--shard i/n', '--out DIR', '--json'],
    check: ['--faults K', '--kinds LIST', '--size N', '--max-states N', '--max-depth N', '--dfs', '--no-reduction', '--full', '--fail-fast', '--world-latency', '--out DIR', '--reporter LIST', '--format LIST', '--watch', '--workers N', '--shard i/n', '--json'],
    replay: ['--seed S', '--choices PATH', '--faults K', '--kinds LIST', '--world-latency', '--plan JSON', '--path P', '--size N', '--max-faults N', '--max-occurrence N', '--trace', '--json'],
    record: ['--out DIR'],
    merge: ['--out DIR', '--reporter LIST', '--format LIST', '--json'],
    calc: ['--json'],
  };
  const every = [...new Set(Object.values(flags).flat().map((f) => f.split(' ')[0]!))];

  it.each(Object.entries(flags))('%s --help', async (name, own) => {
    for (const args of [[name, '--help'], [name, '-h'], [name, 'some-scenario', '--help']]) {
      const r = await cli(args);
      expect(r.code).toBe(0);
      expect(r.err).toBe('');
      expect(r.out).toMatch(new RegExp(`^Usage: faultline ${name} `));
      const listed = r.out.split('\n').filter((l) => /^ {2}--/.test(l)).map((l) => l.trim().split(/ {2,}/)[0]);
      expect(listed).toEqual([...own, '--help']);
      for (const other of every.filter((f) => !own.some((o) => o.split(' ')[0] === f))) expect(r.out).not.toContain(`${other} `);
    }
  });

  it('a misspelt flag beside --help is refused as it is without it (exit code 2), not hidden by the help text', async () => {
    for (const args of [['windows', '--pairz', '--help'], ['check', '-h', '--fautls', '2'], ['calc', 'dedup', '--rat', '5', '--help']]) {
      const r = await cli(args);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toMatch(/^faultline: (windows|check|calc dedup): unknown flag --(pairz|fautls|rat)(; did you mean --(pairs|faults|rate)\?)?/);
    }
    // Known flags and a missing scenario are not mistakes when help is asked for.
    expect((await cli(['check', '--faults', '2', '--help'])).code).toBe(0);
  });

  it('marks the flags a command requires', async () => {
    const r = await cli(['calc', 'dedup', '--help']);
    expect(r.out).toMatch(/--rate VALUE .*\(required\)/);
    expect(r.out).not.toMatch(/--replication VALUE .*\(required\)/);
  });

  it('calc <subcommand> --help lists that subcommand’s own flags', async () => {
    const r = await cli(['calc', 'dedup', '--help']);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/^Usage: faultline calc dedup /);
    const listed = r.out.split('\n').filter((l) => /^ {2}--/.test(l)).map((l) => l.trim().split(/ +/)[0]);
    expect(listed).toEqual(['--rate', '--window', '--entry-bytes', '--replication', '--amplification', '--json', '--help']);
    expect(r.out).toMatch(/--rate VALUE .*\(required\)/);
    expect(r.out).not.toMatch(/--replication VALUE .*\(required\)/);
    const retry = await cli(['calc', 'retry', '-h']);
    expect(retry.out).toMatch(/^Usage: faultline calc retry /);
    expect(retry.out).not.toContain('--entry-bytes');
  });
});

describe('the argument parser refuses, for every command alike', () => {
  it.each([
    // An unknown flag, with the nearest known one, or the list of known ones.
    [['windows', 'mercury-outbox', '--pair'], 'faultline: windows: unknown flag --pair (did you mean --pairs?); known flags: --out, --reporter, --format, --pairs, --only, --seed, --max-occurrence, --fail-fast, --watch, --workers, --shard, --json'],
    [['windows', 'mercury-outbox', '--frobnicate'], 'faultline: windows: unknown flag --frobnicate; known flags: --out, --reporter, --format, --pairs, --only, --seed, --max-occurrence, --fail-fast, --watch, --workers, --shard, --json'],
    [['explore', 'mercury-outbox', '--run', '5'], 'faultline: explore: unknown flag --run (did you mean --runs?); known flags: --runs, --seed, --max-faults, --max-occurrence, --workers, --shard, --out, --json'],
    [['list', '--jsno'], 'faultline: list: unknown flag --jsno (did you mean --json?); known flags: --json'],
    [['replay', 'mercury-outbox', '-s', '1'], 'faultline: replay: unknown flag -s'],
    [['replay', 'mercury-outbox', '-seed', '1'], 'faultline: replay: unknown flag -seed (did you mean --seed?)'],
    [['calc', 'dedup', '--rat', '1'], 'faultline: calc dedup: unknown flag --rat (did you mean --rate?); known flags: --rate, --window, --entry-bytes, --replication, --amplification'],
    // A flag given twice, whether as two words or with `=`.
    [['windows', 'mercury-outbox', '--seed', '1', '--seed', '2'], 'faultline: windows: --seed is given more than once'],
    [['explore', 'mercury-outbox', '--json', '--json'], 'faultline: explore: --json is given more than once'],
    [['replay', 'mercury-outbox', '--seed=1', '--seed', '1'], 'faultline: replay: --seed is given more than once'],
    [['calc', 'dedup', '--json', '--json', '--rate', '1', '--window', '1h', '--entry-bytes', '9'], 'faultline: calc: --json is given more than once'],
    [['calc', 'retry', '--base', '1s', '--base', '2s', '--factor', '2', '--cap', '60s', '--retries', '8'], 'faultline: calc retry: --base is given more than once'],
    // A flag without its value: at the end, before another flag, or empty after `=`.
    [['explore', 'mercury-outbox', '--runs'], 'faultline: explore: --runs needs a value'],
    [['explore', 'mercury-outbox', '--runs', '--json'], 'faultline: explore: --runs needs a value'],
    [['windows', 'mercury-outbox', '--out='], 'faultline: windows: --out needs a value'],
    [['calc', 'dedup', '--rate', '--window', '1h', '--entry-bytes', '9'], 'faultline: calc dedup: --rate needs a value'],
    // A switch given a value.
    [['list', '--json=yes'], 'faultline: list: --json is a switch and takes no value, got "--json=yes"'],
    [['windows', 'mercury-outbox', '--pairs=true'], 'faultline: windows: --pairs is a switch and takes no value, got "--pairs=true"'],
    // The wrong number of positional arguments.
    // (list, windows, explore and check take any number of scenarios; replay takes exactly one.)
    [['windows'], 'faultline: windows: takes at least one: scenario names, files, folders, patterns or "all"'],
    [['explore'], 'faultline: explore: takes at least one: scenario names, files, folders, patterns or "all"'],
    [['check', '--faults', '2'], 'faultline: check: takes at least one: scenario names, files, folders, patterns or "all"'],
    [['replay', '--seed', '1'], 'faultline: replay: takes one scenario name or scenario file'],
    [['replay', 'mercury-outbox', 'mercury-outbox', '--seed', '1'], 'faultline: replay: takes one scenario name or scenario file; unexpected argument "mercury-outbox"'],
    [['replay', 'mercury-outbox', '--seed', '1', '--', '--plan'], 'faultline: replay: takes one scenario name or scenario file; unexpected argument "--plan"'],
    [['calc', 'dedup', 'now', '--rate', '1', '--window', '1h', '--entry-bytes', '9'], 'faultline: calc dedup: takes no arguments; unexpected argument "now"'],
    // A required flag left out.
    [['replay', 'mercury-outbox'], 'faultline: replay needs --seed S (with --plan or --path), or --faults K --choices PATH'],
    [['calc', 'dedup', '--rate', '1'], 'faultline: calc dedup: missing required --window, --entry-bytes'],
  ])('%j', async (args, line) => {
    expect(await refused(args)).toBe(line);
  });
});

describe('refusals of values, scenarios and plans', () => {
  it.each(([
    [['explore', 'mercury-outbox', '--runs', '-5'], /^faultline: --runs must be at least 1, got -5$/],
    [['explore', 'mercury-outbox', '--runs', '0'], /--runs must be at least 1, got 0/],
    [['explore', 'mercury-outbox', '--runs', '1.5'], /--runs must be a whole number, got "1\.5"/],
    [['explore', 'mercury-outbox', '--seed', 'abc'], /--seed must be a whole number, got "abc"/],
    [['explore', 'mercury-outbox', '--seed', '99999999999999999999'], /--seed is too large, got 99999999999999999999 \(at most 2,147,483,647\)/],
    [['explore', 'mercury-outbox', '--max-faults', '65'], /--max-faults is too large, got 65 \(at most 64\)/],
    [['windows', 'mercury-outbox', '--max-occurrence', '0', '--out', '{out}'], /--max-occurrence must be at least 1, got 0/],
    [['windows', 'no-such-scenario', '--out', '{out}'], /^faultline: unknown scenario no-such-scenario \(faultline list shows the catalogue\)$/],
    // After `--` every word is a scenario reference, even one that looks like a flag.
    [['explore', 'mercury-outbox', '--', '--runs'], /^faultline: unknown scenario --runs \(faultline list shows the catalogue\)$/],
    [['list', 'extra'], /^faultline: unknown scenario extra \(faultline list shows the catalogue\)$/],
    [['explore', 'no/such/file.ts'], /^faultline: no scenario file no\/such\/file\.ts$/],
    [['windows', 'mercury-outbox', '--out', '/dev/null/x'], /^faultline: --out \/dev\/null\/x is not a writable folder: ENOTDIR \(a part of the path is not a folder\)$/],
    [['check', 'mercury-outbox', '--out', '/dev/null/x'], /^faultline: --out \/dev\/null\/x is not a writable folder: ENOTDIR \(a part of the path is not a folder\)$/],
    [['check', 'mercury-outbox', '--faults', '9'], /^faultline: --faults is too large, got 9 \(at most 8\)$/],
    [['check', 'mercury-outbox', '--kinds', 'crash,melt'], /^faultline: --kinds: no fault kind "melt"; valid: crash, lose, duplicate, delay, reorder, rebalance, restore, skew$/],
    [['check', 'mercury-outbox', '--kinds', 'crash,,lose'], /^faultline: --kinds must be fault kinds joined by commas/],
    [['check', 'no-such-scenario'], /^faultline: unknown scenario no-such-scenario \(faultline list shows the catalogue\)$/],
    [['replay', 'mercury-outbox', '--seed', '1', '--plan', 'crash it'], /--plan must be a JSON array of faults, got "crash it"/],
    [['replay', 'mercury-outbox', '--seed', '1', '--plan', '{"kind":"crash"}'], /^faultline: --plan must be a JSON array of faults$/],
    [['replay', 'mercury-outbox', '--seed', '1', '--plan', JSON.stringify(Array(65).fill({ kind: 'crash', window: 'relay.polling', occurrence: 1 }))], /--plan has 65 faults; at most 64 are accepted/],
    [['replay', 'mercury-outbox', '--seed', '1', '--plan', '[1]'], /--plan fault 1: must be an object such as \{"kind":"crash"/],
    [['replay', 'mercury-outbox', '--seed', '1', '--plan', '[{"kind":"melt"}]'], /--plan fault 1: kind must be one of crash, lose, duplicate, delay, reorder, rebalance, restore, skew, got "melt"$/],
    [['replay', 'mercury-outbox', '--seed', '1', '--plan', '[{"kind":"lsoe"}]'], /kind must be one of .*, got "lsoe" \(did you mean lose\?\)/],
    [['replay', 'mercury-outbox', '--seed', '1', '--plan', '[{"kind":"crash","window":"relay.polling","occurrence":0}]'], /--plan fault 1: occurrence must be a positive whole number/],
    [['replay', 'mercury-outbox', '--seed', '1', '--plan', '[{"kind":"crash","window":"relay.polling","occurrence":1},{"kind":"crash","occurrence":1}]'], /--plan fault 2: a crash needs a window/],
    [['replay', 'mercury-outbox', '--seed', '1', '--plan', '[{"kind":"lose","occurrence":1}]'], /--plan fault 1: a lose fault needs a point/],
    [['replay', 'mercury-outbox', '--seed', '1', '--plan', '[{"kind":"crash","window":"nope.x","occurrence":1}]'], /^faultline: --plan: mercury-outbox has no failure window nope\.x$/],
    [['replay', 'mercury-outbox', '--seed', '1', '--plan', '[{"kind":"crash","window":"relay.poling","occurrence":1}]'], /has no failure window relay\.poling \(did you mean relay\.polling\?\)/],
    [['replay', 'mercury-outbox', '--seed', '1', '--plan', '[{"kind":"lose","point":"relay->nobody:x","occurrence":1}]'], /--plan: relay->nobody:x is not a message point of mercury-outbox/],
    [['replay', 'mercury-outbox', '--seed', '1', '--plan', '[{"kind":"lose","point":"relay","occurrence":1}]'], /--plan: relay is not a message point/],
    [['replay', 'mercury-outbox', '--seed', '1', '--path', '3:x'], /--path must look like 3:0:1 \(whole numbers joined by ':'\), got "3:x"/],
    [['replay', 'mercury-outbox', '--seed', '1', '--path', '3:0', '--plan', '[]'], /give --path \(an explore replay\) or --plan \(a windows replay\), not both/],
    [['replay', 'mercury-outbox', '--seed', '1', '--path', '3:0', '--size', '2'], /--size goes with --plan; an explore path carries its own size/],
    [['replay', 'mercury-outbox', '--seed', '1', '--size', '0'], /--size must be at least 1, got 0/],
    // A path that does not fit the search space, and one that fits but finds nothing.
    [['replay', 'mercury-dual-write-commit-first', '--seed', '1', '--path', '9:9:9:9:9:9:9:9:9:9:9'], /^faultline: seed 1 and path 9(:9){10} do not replay for mercury-dual-write-commit-first: Unable to replay/],
    [['replay', 'mercury-dual-write-commit-first', '--seed', '1', '--path', '9:9:9:9:9'], /^faultline: seed 1 and path 9:9:9:9:9 reproduce no failure for mercury-dual-write-commit-first: a path replays only with the --max-faults and --max-occurrence of the search that printed it, on the same design$/],
    [['replay', 'mercury-outbox', '--seed', '1', '--path', '0'], /seed 1 and path 0 reproduce no failure for mercury-outbox/],
    // fast-check would step over a billion runs first, for a minute, to find nothing.
    [['replay', 'mercury-outbox', '--seed', '1', '--path', '999999999:0'], /^faultline: path 999999999:0 starts at run 999999999, past the last run a search of at most 100,000,000 runs makes: no search printed it$/],
    [['calc'], /^faultline: calc needs a subcommand: dedup\|checkpoint\|backfill\|retry\|horizon$/],
    [['calc', 'dedpu', '--rate', '1'], /^faultline: calc: unknown subcommand "dedpu" \(did you mean dedup\?\); expected /],
    [['calc', 'dedup', '--rate', '-18000', '--window', '12h', '--entry-bytes', '96'], /--rate/],
    [['calc', 'horizon', '--window', 'soon'], /--window/],
  ] as [string[], RegExp][]).map(([args, message]) => [JSON.stringify(args).slice(0, 120), args, message] as const))('%s', async (_title, args, message) => {
    expect(await refused(args.map((a) => a.replace('{out}', out)))).toMatch(message);
  });

  it('refuses a malformed scenario file, or one that does not compile, with one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-bad-'));
    const file = join(dir, 'broken.ts');
    writeFileSync(file, "export default { name: 'Broken Name', title: 'x' };\n");
    expect(await refused(['windows', file, '--out', out])).toMatch(/^faultline: malformed scenario .*broken\.ts: name must be lower-case/);
    const garbled = join(dir, 'garbled.ts');
    writeFileSync(garbled, 'export default {{{ this is not typescript\n');
    expect(await refused(['explore', garbled])).toMatch(/^faultline: malformed scenario .*garbled\.ts: /);
    const empty = join(dir, 'empty.ts');
    writeFileSync(empty, 'export const nothing = 1;\n');
    expect(await refused(['explore', empty])).toMatch(/malformed scenario .*empty\.ts: it has no default export/);
  });
});

describe('list', () => {
  it('lists every catalogue scenario with its expected verdict, and counts them', async () => {
    // record.ts beside the scenarios is the catalogue's decision record, not a scenario.
    const files = readdirSync(join(root, 'scenarios')).filter((f) => f.endsWith('.ts') && f !== 'record.ts');
    const r = await cli(['list']);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    const lines = r.out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^scenario +expect +title$/);
    expect(lines.at(-1)).toBe(`${files.length} scenarios`);
    expect(r.out).toMatch(/^mercury-outbox +holds +Mercury order acceptance/m);
    expect(r.out).toMatch(/^mercury-dual-write-commit-first +violated \(lost effect\) /m);
    expect(r.out).not.toMatch(/\u001b\[/); // not a terminal: no colour
  });

  it('prints one JSON document with a row per scenario', async () => {
    const r = await cli(['list', '--json']);
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.out) as { name: string; expect: string; violations: string[]; file: string }[];
    expect(rows).toHaveLength(readdirSync(join(root, 'scenarios')).filter((f) => f.endsWith('.ts') && f !== 'record.ts').length);
    expect(rows.map((x) => x.name)).toEqual([...rows.map((x) => x.name)].sort());
    expect(rows.find((s) => s.name === 'mercury-outbox')).toMatchObject({ expect: 'holds', violations: [], file: 'scenarios/mercury-outbox.ts' });
    expect(rows.find((s) => s.name === 'mercury-dual-write-commit-first')).toMatchObject({ expect: 'violated', violations: ['lost effect'] });
  });
});

describe('windows', () => {
  it('prints the table, what the verdict covers clause by clause, and writes the reports', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-windows-'));
    const r = await cli(['windows', 'mercury-dual-write-commit-first', '--out', dir]);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/^mercury-dual-write-commit-first +33 +131 +lost effect, holds +violated +violated \(lost effect\) +ok$/m);
    expect(r.out).toMatch(/^covers: violated, in runs of every single fault: 130 faults at 17 windows and 16 message points \(crash, lose, duplicate, delay, reorder, every occurrence the runs reached: 129, at most 4 at one place\)/m);
    expect(r.out).toMatch(/^ {2}every committed fact yields its effect: violated \(judged in 131 runs\)$/m);
    expect(r.out).toMatch(/^ {2}the same intent returns the recorded result: not checked/m);
    expect(r.out).toMatch(new RegExp(`1 scenarios, 131 runs, every verdict as expected; reports in ${dir}/\n$`));
    expect(readdirSync(dir).sort()).toEqual(['.faultline-reports.json', 'junit.xml', 'mercury-dual-write-commit-first.html', 'report.css', 'report.html', 'report.js']);
  });

  it('says at once, with the line that replays it, when the run with no fault never goes quiet, and sweeps on', async () => {
    // Inside the project, so the file's own import of xstate resolves as a user's would.
    mkdirSync(join(root, 'test-artifacts'), { recursive: true });
    const dir = mkdtempSync(join(root, 'test-artifacts', 'runaway-'));
    // A process that works every 5 ticks for ever, as a relay that republishes the same rows does;
    // the design expects to hold, or (its lesson) to be stuck.
    const design = (name: string, expect: string) => {
      const file = join(dir, `${name}.ts`);
      writeFileSync(
        file,
        `import { assign, setup } from 'xstate';\nimport { defineScenario } from '${join(root, 'src', 'index.ts')}';\n` +
          `const busy = setup({ delays: { tick: 5 } }).createMachine({ id: 'busy', context: { durable: { n: 0 } }, initial: 'working', states: { working: { after: { tick: { target: 'working', reenter: true, actions: assign({ durable: ({ context }) => ({ n: context.durable.n + 1 }) }) } } } } });\n` +
          `export default defineScenario({ name: '${name}', title: 'A process that never rests', source: 'test', lesson: 'A loop with no end is stuck.', build: () => [{ name: 'busy', machine: busy, process: true }], workload: { size: 1 }, claims: [{ effect: 'ping', key: ['n'], authority: 'none', lifetime: 'the run', outcomes: () => [{ key: 'x' }], facts: () => ['x'] }], expect: ${expect} });\n`,
      );
      return file;
    };
    const file = design('runaway', "{ verdict: 'holds' }");
    const warning = `faultline: runaway: the run with no fault is stuck (no quiescence within 4000 ticks after healing), so every run of its sweep goes on to that bound; see why: npx faultline replay ${file} --seed 1 --plan '[]'`;
    const r = await cli(['windows', file, '--out', join(dir, 'out')]);
    expect(r.err.trimEnd().split('\n'), r.err).toEqual([warning]);
    expect(r.out).toMatch(/^runaway +\d+ +\d+ +stuck +violated +holds +UNEXPECTED$/m);
    // On a terminal it comes on a line of its own, after the last scenario's progress is erased,
    // and before its own runs: their progress is drawn after it.
    const tty = await cli(['windows', 'mercury-dual-write-commit-first', file, '--out', join(dir, 'tty')], true);
    const at = tty.err.indexOf(warning);
    expect(at, tty.err).toBeGreaterThan(0);
    expect(tty.err.slice(0, at)).toMatch(/\[1\/2\] mercury-dual-write-commit-first: run [\s\S]*\r\u001b\[K$/);
    expect(tty.err.slice(at + warning.length)).toMatch(/\[2\/2\] runaway: run \d+ of \d+/);
    // A design whose lesson is that loop, and one that goes quiet, say nothing of the kind.
    expect((await cli(['windows', design('runaway-expected', "{ verdict: 'violated', violations: ['stuck'] }"), '--out', join(dir, 'expected')])).err).toBe('');
    expect((await cli(['windows', 'mercury-dual-write-commit-first', '--out', join(dir, 'quiet')])).err).toBe('');
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints one JSON document with --json', async () => {
    const r = await cli(['windows', 'mercury-dual-write-commit-first', '--json', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    const doc = JSON.parse(r.out) as { scenarios: { name: string; verdict: string; windows: { window: string; outcome: string }[] }[] };
    expect(doc.scenarios).toHaveLength(1);
    expect(doc.scenarios[0]!.verdict).toBe('violated');
    expect(doc.scenarios[0]!.windows.find((w) => w.window === 'source.afterSourceCommit')?.outcome).toBe('lost effect');
  });

  it('takes --seed and --max-occurrence: fewer occurrences, fewer runs', async () => {
    const one = JSON.parse((await cli(['windows', 'flow-page-viewed', '--json', '--max-occurrence', '1', '--seed', '7', '--out', out])).out) as { scenarios: { verdict: string; coverage: { runs: number; maxOccurrence: number; interleavings: string } }[] };
    const two = JSON.parse((await cli(['windows', 'flow-page-viewed', '--json', '--out', out])).out) as typeof one;
    // A bound that leaves occurrences unstruck holds only within it; without one, every occurrence is struck.
    expect(one.scenarios[0]!.verdict).toBe('holds within bound');
    expect(two.scenarios[0]!.verdict).toBe('holds');
    expect(one.scenarios[0]!.coverage.maxOccurrence).toBe(1);
    expect(two.scenarios[0]!.coverage.maxOccurrence).toBeUndefined();
    expect(one.scenarios[0]!.coverage.runs).toBeLessThan(two.scenarios[0]!.coverage.runs);
    expect(JSON.stringify(one.scenarios[0]!.coverage)).toContain('seed 7');
  });

  it('runs pairs of faults with --pairs, judged against the pair expectation', async () => {
    const singles = await cli(['windows', 'flow-page-viewed', '--max-occurrence', '1', '--out', out]);
    const r = await cli(['windows', 'flow-page-viewed', '--pairs', '--max-occurrence', '1', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^covers: holds within bound for every single fault and every pair: /m);
    const runs = (text: string) => Number(/^1 scenarios, (\d+) runs/m.exec(text)![1]);
    expect(runs(r.out)).toBeGreaterThan(runs(singles.out) ** 1.5);
  });

  it('shows progress with its rate and an estimate on a terminal\'s stderr, and erases it before the table', async () => {
    // bufferIo's clock advances a second at every reading: one run a second, every run drawn.
    const r = await cli(['windows', 'mercury-dual-write-commit-first', '--out', out], true);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/^\r\[1\/1\] mercury-dual-write-commit-first: run 1 of 131 · 1 runs\/s · about 2 m 10 s left\u001b\[K/);
    expect(r.err).toContain('\r[1/1] mercury-dual-write-commit-first: run 61 of 131 · 1 runs/s · about 1 m 10 s left\u001b[K');
    expect(r.err).toMatch(/run 131 of 131 · 1 runs\/s\u001b\[K\r\u001b\[K$/);
    // A terminal on stdout alone (stderr piped): no progress line.
    const io = bufferIo(true, { errIsTTY: false });
    expect(await main(['windows', 'flow-page-viewed', '--max-occurrence', '1', '--out', out], io)).toBe(0);
    expect(io.stderr).toBe('');
    // --json on a terminal: no progress, the document alone.
    const j = await cli(['windows', 'flow-page-viewed', '--json', '--max-occurrence', '1', '--out', out], true);
    expect(j.err).toBe('');
    expect(() => JSON.parse(j.out) as unknown).not.toThrow();
  });

  it('writes the report forms --reporter (or --format) names, json.gz the same document gzipped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-forms-'));
    const r = await cli(['windows', 'mercury-dual-write-commit-first', '--reporter', 'md,json', '--out', dir]);
    expect(r.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['.faultline-reports.json', 'index.md', 'mercury-dual-write-commit-first.md', 'report.json']);
    const json = readFileSync(join(dir, 'report.json'), 'utf8');
    expect((await cli(['windows', 'mercury-dual-write-commit-first', '--format', 'json.gz,junit', '--out', dir])).code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['.faultline-reports.json', 'junit.xml', 'report.json.gz']);
    expect(gunzipSync(readFileSync(join(dir, 'report.json.gz'))).toString('utf8')).toBe(json);
    expect((await cli(['windows', 'mercury-dual-write-commit-first', '--reporter', 'all', '--out', dir])).code).toBe(0);
    expect(readdirSync(dir).filter((f) => !f.startsWith('.')).sort()).toEqual(['index.md', 'junit.xml', 'mercury-dual-write-commit-first.html', 'mercury-dual-write-commit-first.md', 'report.css', 'report.html', 'report.js', 'report.json']);
  });

  it('runs one place with --only, judged on unexpected violations alone, and says so', async () => {
    const r = await cli(['windows', 'mercury-dual-write-commit-first', '--only', 'source.idle', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^mercury-dual-write-commit-first +1 +4 +holds +holds +violated \(lost effect\) +ok$/m);
    expect(r.out).toMatch(/^covers: holds for every single fault: 3 faults at 1 window and 0 message points .*; only the faults at source\.idle were run \(--only\), so the other places say nothing here/m);
    const lost = await cli(['windows', 'mercury-dual-write-commit-first', '--only', 'ordersDb->source:db.committed', '--json', '--out', out]);
    const doc = JSON.parse(lost.out) as { scenarios: { verdict: string; windows: { window: string }[]; coverage: { only: string } }[] };
    expect(doc.scenarios[0]!.verdict).toBe('violated');
    expect(new Set(doc.scenarios[0]!.windows.map((w) => w.window))).toEqual(new Set(['ordersDb->source:db.committed']));
    expect(doc.scenarios[0]!.coverage.only).toBe('ordersDb->source:db.committed');
  });
});

describe('check', () => {
  it('searches every scenario named, a row each, and writes one report set for them all', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'faultline-check-')), 'reports');
    const r = await cli(['check', 'flow-page-viewed', 'scenarios/dedup-horizon-7d-*.ts', '--out', dir]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^flow-page-viewed +[\d,]+ +[\d,]+ +\d+ +[\d.]+ s +[\d,]+ +holds +holds +ok$/m);
    expect(r.out).toMatch(/^dedup-horizon-7d-vs-30d +[\d,]+ +[\d,]+ +\d+ +[\d.]+ s +[\d,]+ +violated +violated \(duplicate effect\) +ok$/m);
    expect(r.out).toMatch(new RegExp(`\n2 scenarios, [\\d,]+ states in [\\d.]+ s, every verdict as expected; reports in ${dir}/\n$`));
    expect(readdirSync(dir).sort()).toEqual(['.faultline-reports.json', 'dedup-horizon-7d-vs-30d.html', 'flow-page-viewed.html', 'junit.xml', 'report.css', 'report.html', 'report.js']);
    // The next run replaces the set whole: no page of the scenario it did not search is left.
    const again = await cli(['check', 'flow-page-viewed', '--out', dir]);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/^covers: holds for every zero-latency interleaving with at most 1 fault: /m);
    expect(readdirSync(dir).sort()).toEqual(['.faultline-reports.json', 'flow-page-viewed.html', 'junit.xml', 'report.css', 'report.html', 'report.js']);
    expect(readdirSync(join(dir, '..'))).toEqual(['reports']);
  });

  it('refuses a report folder it may not replace before any search, and creates --out only once the searches finish', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'faultline-check-'));
    const theirs = join(parent, 'theirs');
    mkdirSync(theirs);
    writeFileSync(join(theirs, 'notes.txt'), 'mine');
    // On a terminal a search shows its progress on stderr: the one line alone shows none began.
    const r = await cli(['check', 'flow-page-viewed', '--out', theirs], true);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toBe(`faultline: --out ${theirs} holds a file faultline did not write (notes.txt); give a new or empty folder, or one faultline wrote\n`);
    expect(readdirSync(theirs)).toEqual(['notes.txt']);
    // A second scenario that fails to load, after the folder was checked: nothing is created.
    const broken = join(parent, 'broken.ts');
    writeFileSync(broken, 'export default {{{ this is not typescript\n');
    const fresh = join(parent, 'fresh');
    expect(await refused(['check', 'flow-page-viewed', broken, '--out', fresh])).toMatch(/^faultline: malformed scenario .*broken\.ts: /);
    expect(readdirSync(parent).sort()).toEqual(['broken.ts', 'theirs']);
  });

  it('stops each search at its first violation unless --full asks for the whole bound, and refuses both at once', async () => {
    type Doc = { scenarios: { verdict: string; coverage: { covers: string }; check: { states: number }; counterexamples: unknown[] }[] };
    const args = ['check', 'mercury-dual-write-commit-first', '--kinds', 'crash', '--json', '--out', out];
    const gate = JSON.parse((await cli(args)).out) as Doc;
    const whole = JSON.parse((await cli([...args, '--full'])).out) as Doc;
    const explicit = JSON.parse((await cli([...args, '--fail-fast'])).out) as Doc;
    expect(gate.scenarios[0]!.verdict).toBe('violated');
    expect(gate.scenarios[0]!.counterexamples).toHaveLength(1);
    expect(gate.scenarios[0]!.coverage.covers).toContain('the search stopped at its first violation (check --full searches the whole bound)');
    expect(whole.scenarios[0]!.coverage.covers).not.toContain('first violation');
    expect(whole.scenarios[0]!.check.states).toBeGreaterThan(gate.scenarios[0]!.check.states);
    expect(explicit).toEqual(gate);
    expect(await refused([...args, '--full', '--fail-fast'])).toBe('faultline: --full and --fail-fast contradict each other: --full searches on after the first violation, --fail-fast stops there');
  });

  it('skips commuting transitions by sleep sets and says how many, unless --no-reduction takes them all, to the same states and verdict', async () => {
    type Doc = { scenarios: { verdict: string; coverage: { covers: string; interleavings: { states: number; transitions: number; slept?: number } } }[] };
    const args = ['check', 'flow-page-viewed', '--json', '--out', out];
    const reduced = (JSON.parse((await cli(args)).out) as Doc).scenarios[0]!;
    const whole = (JSON.parse((await cli([...args, '--no-reduction'])).out) as Doc).scenarios[0]!;
    expect(whole.verdict).toBe(reduced.verdict);
    expect(whole.coverage.interleavings.states).toBe(reduced.coverage.interleavings.states);
    expect(reduced.coverage.interleavings.slept).toBeGreaterThan(0);
    expect(whole.coverage.interleavings).not.toHaveProperty('slept');
    expect(reduced.coverage.interleavings.transitions).toBeLessThan(whole.coverage.interleavings.transitions);
    expect(reduced.coverage.covers).toMatch(/ transitions \(and [\d,]+ commuting transitions? skipped by sleep sets\), depth \d+/);
    expect(whole.coverage.covers).not.toContain('sleep sets');
  });

  it('prints one JSON document with each search under "check", and a replay line per counterexample that reruns it', async () => {
    const r = await cli(['check', 'mercury-dual-write-commit-first', '--kinds', 'crash', '--full', '--json', '--out', out]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out) as { scenarios: { name: string; verdict: string; check: { states: number }; counterexamples: { violation: string; traceHash: string; replay: string }[] }[] };
    expect(doc.scenarios.map((s) => [s.name, s.verdict])).toEqual([['mercury-dual-write-commit-first', 'violated']]);
    expect(doc.scenarios[0]!.check.states).toBeGreaterThan(0);
    const ce = doc.scenarios[0]!.counterexamples.find((c) => c.violation === 'lost effect')!;
    expect(ce.replay).toMatch(/^npx faultline replay mercury-dual-write-commit-first --faults 1 --kinds crash --choices \S+$/);
    const replayed = await cli([...ce.replay.split(' ').slice(2), '--json']);
    expect(replayed.code).toBe(0);
    expect((JSON.parse(replayed.out) as { traceHash: string }).traceHash).toBe(ce.traceHash);
  });
});

describe('explore', () => {
  it('prints a shrunk counterexample with its trace, claims and a replay line that reproduces its hash', async () => {
    const r = await cli(['explore', 'mercury-dual-write-commit-first', '--runs', '300', '--seed', '5']);
    expect(r.code).toBe(0); // the violation is what the scenario expects
    expect(r.err).toBe('');
    expect(r.out).toMatch(/^mercury-dual-write-commit-first: \d+ runs from seed 5; outcomes holds \d+, lost effect \d+$/m);
    expect(r.out).toMatch(/^lost effect found and shrunk, as far as fast-check shrinks it \(windows and check find the fewest faults\):$/m);
    expect(r.out).toMatch(/^schedule every message at the least latency.*, messages counted in the order sent$/m);
    expect(r.out).toMatch(/^claim {2}For inventory reservation, identified by \(order_id, reservation_version\)/m);
    expect(r.out).toMatch(/^plan {3}\S.* \(simulation seed \d+, workload \d+\)$/m);
    expect(r.out).toMatch(/^steps {2}Drawn around o-1\|1: .*Every event: add --trace\.$/m);
    expect(r.out).toMatch(/^lost effect: committed fact o-1\|1 has no inventory reservation$/m);
    expect(r.out).toMatch(/^verdict violated, expected violated \(lost effect\): as expected$/m);
    const hash = /^trace hash ([0-9a-f]{64})$/m.exec(r.out)![1]!;
    const line = /^replay npx faultline (replay .*)$/m.exec(r.out)![1]!;
    expect(line).toMatch(/^replay mercury-dual-write-commit-first --seed 5 --path \d+(:\d+)*$/);
    const replayed = await cli([...line.split(' '), '--json']);
    expect(replayed.code).toBe(0);
    expect((JSON.parse(replayed.out) as { traceHash: string }).traceHash).toBe(hash);
  });

  it('prints the same search as one JSON document, and replays it with the explore options repeated', async () => {
    const r = await cli(['explore', 'inventory-ack-before-commit', '--runs', '200', '--seed', '3', '--max-faults', '2', '--max-occurrence', '2', '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out) as { verdict: string; seed: number; path: string; traceHash: string; plan: unknown[]; trace: unknown[]; counterexample: { replay: string } };
    expect(doc).toMatchObject({ verdict: 'violated', seed: 3 });
    expect(doc.plan.length).toBeGreaterThan(0);
    expect(doc.plan.length).toBeLessThanOrEqual(2);
    expect(doc.counterexample.replay).toMatch(/ --max-faults 2 --max-occurrence 2$/);
    const replayed = JSON.parse((await cli([...doc.counterexample.replay.split(' ').slice(2), '--json'])).out) as { traceHash: string; path: string; seed: number };
    expect(replayed).toMatchObject({ traceHash: doc.traceHash, path: doc.path, seed: 3 });
  });

  it('says what a passing search covers: it holds only within its samples', async () => {
    const r = await cli(['explore', 'mercury-outbox', '--runs', '40', '--seed', '2']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^mercury-outbox: 40 runs from seed 2; outcomes holds 40$/m);
    expect(r.out).not.toContain('found and shrunk');
    expect(r.out).toMatch(/^covers: holds within bound for sampled plans of up to 3 faults: .*40 runs.*the search stopped after 40 samples/m);
    expect(r.out).toMatch(/^verdict holds within bound, expected holds: as expected$/m);
    const j = JSON.parse((await cli(['explore', 'mercury-outbox', '--runs', '40', '--seed', '2', '--json'])).out) as Record<string, unknown>;
    expect(j).toMatchObject({ verdict: 'holds within bound', path: null, traceHash: null, plan: null, trace: null, counterexample: null, runs: 40 });
  });

  it('exits 1 when a search misses the violation its scenario expects', async () => {
    // One run cannot show the expected lost effect: the verdict holds within that bound, which is
    // not what the scenario expects, and the exit code says so.
    const r = await cli(['explore', 'mercury-dual-write-commit-first', '--runs', '1']);
    expect(r.code).toBe(1);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/^mercury-dual-write-commit-first: 1 runs from seed 1; outcomes holds 1$/m);
    expect(r.out).toMatch(/^verdict holds within bound, expected violated \(lost effect\): NOT as expected$/m);
  });
});

describe('replay', () => {
  const plan = '[{"kind":"crash","window":"relay.afterBrokerAccept","occurrence":1}]';

  it('prints a summary: the plan, the verdict, the steps folded into groups, the clauses and the line that replays it', async () => {
    const r = await cli(['replay', 'mercury-outbox', '--seed', '42', '--plan', plan]);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/^plan {3}crash-and-restart at relay\.afterBrokerAccept \(simulation seed 42, workload 2\)$/m);
    expect(r.out).toMatch(/^verdict holds$/m);
    expect(r.out).toMatch(/^ {2}t=\d+ +✕ relay crashed at relay\.afterBrokerAccept$/m);
    expect(r.out).not.toMatch(/^ {2}t= +\d+ # +\d+ /m);
    const full = await cli(['replay', 'mercury-outbox', '--seed', '42', '--plan', plan, '--trace']);
    const events = (JSON.parse((await cli(['replay', 'mercury-outbox', '--seed', '42', '--plan', plan, '--json'])).out) as { trace: unknown[] }).trace.length;
    expect(full.out.split('\n').filter((l) => /^ {2}t= +\d+ # +\d+ /.test(l))).toHaveLength(events);
    expect(full.out).toMatch(/^ {2}t= +\d+ # +\d+ relay +crash \{"window":"relay\.afterBrokerAccept"\}$/m);
    expect(r.out.split('\n').length).toBeLessThan(full.out.split('\n').length / 2);
    expect(r.out).toMatch(/^every claim holds$/m);
    expect(r.out).toMatch(/^the same intent returns the recorded result: not checked/m);
    expect(r.out).toContain(`replay npx faultline replay mercury-outbox --seed 42 --plan '${plan}'\n`);
    expect(r.out).not.toContain('warning');
  });

  it('prints the same run as JSON, and --size changes the workload', async () => {
    const r = await cli(['replay', 'mercury-outbox', '--seed', '42', '--plan', plan, '--json']);
    const doc = JSON.parse(r.out) as { verdict: string; seed: number; path: null; traceHash: string; size: number; unstruck: unknown[]; trace: { kind: string }[] };
    expect(doc).toMatchObject({ verdict: 'holds', seed: 42, path: null, size: 2, unstruck: [] });
    expect(doc.traceHash).toBe(/^trace hash (\S+)$/m.exec((await cli(['replay', 'mercury-outbox', '--seed', '42', '--plan', plan])).out)![1]);
    const small = JSON.parse((await cli(['replay', 'mercury-outbox', '--seed', '42', '--plan', plan, '--size', '1', '--json'])).out) as typeof doc;
    expect(small.size).toBe(1);
    expect(small.traceHash).not.toBe(doc.traceHash);
    expect(JSON.parse((await cli(['replay', 'mercury-outbox', '--seed', '42', '--size', '1', '--json'])).out)).toMatchObject({ plan: [], size: 1, replay: 'npx faultline replay mercury-outbox --seed 42 --size 1 --plan \'[]\'' });
  });

  it('warns that a planned fault which never struck says nothing', async () => {
    const r = await cli(['replay', 'mercury-outbox', '--seed', '1', '--plan', '[{"kind":"crash","window":"relay.afterBrokerAccept","occurrence":9}]']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^warning: the planned fault "crash-and-restart at relay\.afterBrokerAccept \(occurrence 9\)" never struck/m);
    expect(r.out).not.toMatch(/ crashed at /);
  });

  it('replays a check counterexample on its choice path, with no schedule of latencies', async () => {
    const args = ['replay', 'mercury-dual-write-commit-first', '--faults', '1', '--choices', '41x0.3.3x0'];
    const r = await cli(args);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/^plan {3}lose ordersDb->source:db\.committed \(occurrence 2\) \(the interleaving its choice path names, workload 2\)$/m);
    expect(r.out).not.toMatch(/^schedule /m);
    expect(r.out).toContain('replay npx faultline replay mercury-dual-write-commit-first --faults 1 --choices 41x0.3.3x0\n');
    const doc = JSON.parse((await cli([...args, '--json'])).out) as { latencies: unknown; coverage: { covers: string } };
    expect(doc.latencies).toBeNull();
    expect(doc.coverage.covers).toMatch(/, 1 run, the interleaving its choice path names$/);
  });

  it('names each finding of a violated run', async () => {
    const r = await cli(['replay', 'mercury-dual-write-commit-first', '--seed', '1', '--plan', '[{"kind":"crash","window":"source.afterSourceCommit","occurrence":1}]']);
    expect(r.code).toBe(0); // replay reports; it does not judge the exit code
    expect(r.out).toMatch(/^lost effect: committed fact o-1\|1 has no inventory reservation$/m);
    expect(r.out).not.toContain('every claim holds');
  });
});

describe('calc', () => {
  it.each([
    ['checkpoint --rate 18000 --interval 30s --recovery-rate 24000', [/= 270,000 events/, /= 540,000 events/, /= 6,000\/s/, /= 45 s/, /= 90 s/]],
    ['dedup --rate 18000 --window 12h --entry-bytes 96', [/777,600,000/, /74\.6496 GB/]],
    ['dedup --rate 20000000/d --window 7d --entry-bytes 64', [/= 140,000,000\n/, /= 8\.96 GB/]],
    ['backfill --events 1.2e9 --envelope 25000 --live-reserve 20000 --variance-reserve 1000 --cap 4000', [/300,000 s ≈ 83\.33 hours/]],
    ['retry --base 1s --factor 2 --cap 60s --retries 8', [/7 +60 s +123 s/, /8 +60 s +183 s/]],
    ['horizon --window 12h --approved-replay 7d', [/INVALID/]],
    ['horizon --window 7d --partner-redelivery 30d', [/gap += 30 d − 7 d = 23 d/]],
  ])("calc %s prints the seeds' figures with units", async (line, patterns) => {
    const r = await cli(['calc', ...line.split(' ')]);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    for (const p of patterns) expect(r.out).toMatch(p);
  });

  it('prints exact decimal strings with --json, wherever --json stands', async () => {
    for (const args of [
      ['calc', 'dedup', '--rate', '18000', '--window', '12h', '--entry-bytes', '96', '--json'],
      ['calc', '--json', 'dedup', '--rate', '18000', '--window', '12h', '--entry-bytes', '96'],
    ]) {
      const r = await cli(args);
      expect(r.code).toBe(0);
      expect(r.out.trimEnd().split('\n')).toHaveLength(1);
      expect(r.out).toMatch(/"74\.6496"/);
    }
  });
});

// What needs a real process: the bin file, the shell's view of the exit code, a user's scenario
// file, and determinism across processes (nothing shared in memory can make two processes agree
// by accident).
describe('the faultline process', () => {
  const env = { ...process.env, NO_COLOR: '1' };

  /** A user's scenario file of `text`, in a folder of its own, swept by `windows` into that folder's `out`. */
  const windowsOfFile = (name: string, text: string, extraEnv: Record<string, string> = {}) => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-'));
    const file = join(dir, name);
    writeFileSync(file, text);
    const r = spawnSync(process.execPath, [bin, 'windows', file, '--out', join(dir, 'out')], { cwd: root, encoding: 'utf8', env: { ...env, ...extraEnv } });
    return { dir, file, r };
  };

  it('starts from its bin file and prints its version', () => {
    const r = spawnSync(process.execPath, [bin, '--version'], { cwd: root, encoding: 'utf8', env });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`${pkg.version}\n`);
    expect(r.stderr).toBe('');
  });

  it('gives the shell exit code 0 for success and 2 for bad input, with one line on stderr', () => {
    const sh = (args: string) => spawnSync('/bin/sh', ['-c', `"${process.execPath}" "${bin}" ${args}; echo "exit=$?"`], { cwd: root, encoding: 'utf8', env });
    const ok = sh('calc retry --base 1s --factor 2 --cap 60s --retries 8');
    expect(ok.stdout).toMatch(/8 +60 s +183 s/);
    expect(ok.stdout).toMatch(/\nexit=0\n$/);
    const bad = sh('wnidows all');
    expect(bad.stdout).toBe('exit=2\n');
    expect(bad.stderr).toBe('faultline: unknown command wnidows (did you mean windows?) (try faultline --help)\n');
  });

  it('stops quietly when the reader closes the pipe early', () => {
    const r = spawnSync('/bin/sh', ['-c', `"${process.execPath}" "${bin}" list | head -1; echo "exit=$?"`], { cwd: root, encoding: 'utf8', env });
    expect(r.stdout).toMatch(/^scenario +expect +title\nexit=0\n$/);
    expect(r.stderr).toBe('');
  });

  it('ends quietly with exit code 0 when the reader goes away in the middle of a long output', () => {
    const r = spawnSync('bash', ['-c', `set -o pipefail; ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} calc retry --base 1s --factor 1 --cap 1s --retries 10000 | head -1`], { cwd: root, encoding: 'utf8', env });
    expect(r.stdout).toMatch(/^retry schedule/);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it("names the line of a user's scenario that throws, mapped back to its TypeScript source", () => {
    const { dir, file, r } = windowsOfFile(
      'throws.mts',
      `import base from ${JSON.stringify(join(root, 'scenarios', 'mercury-outbox.ts'))};
type Size = { size: number };
export default { ...base, name: 'throws', build: (w: Size) => {
  if (w.size > 0) throw new Error('no relay configured');
  return base.build(w);
} };
`,
    );
    expect(r.stderr).toBe(`faultline: malformed scenario ${file}: build() threw: no relay configured (at ${file}:4:25 in build)\n`);
    expect(r.status).toBe(2);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('stops a scenario file stuck in an endless loop while loading, and refuses it in one line with exit code 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-'));
    const file = join(dir, 'spins.mts');
    writeFileSync(file, 'while (true) {}\nexport default {};\n');
    const r = spawnSync(process.execPath, [bin, 'list', file], { cwd: root, encoding: 'utf8', env: { ...env, FAULTLINE_LOAD_TIMEOUT_MS: '2000' } });
    // The inspector stops the loop, the load is refused in one line with exit code 2, and nothing
    // follows that line (Node once added "Waiting for the debugger to disconnect..." when the
    // process ended before the watchdog closed its inspector session).
    expect(r.stderr).toBe(`faultline: malformed scenario ${file}: it did not finish loading within 2 s and does not yield (an endless loop?)\n`);
    expect(r.status).toBe(2);
  });

  it('stops an observer stuck in an endless loop in some runs, in one line with exit code 2, and writes no reports', () => {
    // It loads (no fact is lost at the start, or in the fault-free run) and loops in the first run that loses one.
    const { dir, r } = windowsOfFile(
      'stuck.mts',
      `import base from '${join(root, 'scenarios', 'mercury-dual-write-commit-first.ts')}';\nconst [claim, ...rest] = base.claims;\nexport default { ...base, name: 'stuck-observer', claims: [{ ...claim, outcomes: (v) => { const out = claim.outcomes(v); if (out.length === 0 && claim.facts(v).length > 0) for (;;) {} return out; } }, ...rest] };\n`,
      { FAULTLINE_STALL_MS: '1500' },
    );
    expect(r.stderr).toBe("faultline: a scenario's code ran 1.5 s without returning (an endless loop in an observer or a machine?); the command is ended\n");
    expect(r.status).toBe(2);
    expect(existsSync(join(dir, 'out'))).toBe(false);
    // A limit stops nothing that only takes long: a search of several seconds (it stops at its
    // state bound, inconclusive, exit code 3) beats as it goes. The limit leaves the work around
    // the search (loading, the reports) room on a loaded machine.
    const long = spawnSync(process.execPath, [bin, 'check', 'mercury-outbox', '--faults', '2', '--max-states', '150000', '--out', join(dir, 'check')], { cwd: root, encoding: 'utf8', env: { ...env, FAULTLINE_STALL_MS: '2000' } });
    expect(long.stderr).not.toContain('without returning');
    expect(long.status, long.stderr).toBe(3);
    expect(spawnSync(process.execPath, [bin, 'list'], { cwd: root, encoding: 'utf8', env: { ...env, FAULTLINE_STALL_MS: '5' } }).stderr).toBe('faultline: FAULTLINE_STALL_MS must be a whole number of milliseconds from 100 to 3600000, got "5"\n');
  });

  // A user's scenario file is compiled by tsx's loader, which gives it (and the engine it imports)
  // its own copy of every module; in-process that copy would blur the coverage of the real one.
  it('runs a user’s scenario file, exits 1 when its verdict is not the one it expects, and names the file in the replay line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-mine-'));
    const mine = join(dir, 'mine.ts');
    writeFileSync(mine, `import base from '${join(root, 'scenarios', 'mercury-dual-write-commit-first.ts')}';\nexport default { ...base, name: 'mine', expect: { verdict: 'holds' } };\n`);
    const r = spawnSync(process.execPath, [bin, 'windows', mine, '--out', join(dir, 'reports')], { cwd: root, encoding: 'utf8', env });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^mine +33 +131 +lost effect, holds +violated +holds +UNEXPECTED$/m);
    expect(r.stdout).toMatch(/^mine: expected holds, got violated$/m);
    expect(r.stdout).toMatch(/^ {2}unexpected violations: lost effect$/m);
    expect(r.stdout).toMatch(/1 scenarios, 131 runs, 1 not as expected; reports in /);
    // The line names the file as the user named it; its seed and plan replay the lost effect
    // (checked here on the catalogue design the file builds on).
    const line = new RegExp(`replay: npx faultline replay ${mine} (--seed .*)$`, 'm').exec(r.stdout)![1]!;
    const words = line.match(/'[^']*'|\S+/g)!.map((w) => w.replace(/^'(.*)'$/, '$1'));
    const replayed = await cli(['replay', 'mercury-dual-write-commit-first', ...words, '--json']);
    expect(replayed.code).toBe(0);
    expect((JSON.parse(replayed.out) as { outcome: string }).outcome).toBe('lost effect');
  });

  it('keeps a scenario’s console output off stdout, so --json stays one JSON document', () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-chatty-'));
    const mine = join(dir, 'chatty.ts');
    writeFileSync(
      mine,
      `import base from '${join(root, 'scenarios', 'mercury-outbox.ts')}';\nconsole.log('loading chatty');\nconsole.info('still loading');\nexport default { ...base, name: 'chatty' };\n`,
    );
    const r = spawnSync(process.execPath, [bin, 'list', mine, '--json'], { cwd: root, encoding: 'utf8', env });
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as { name: string }[]).map((s) => s.name)).toEqual(['chatty']);
    expect(r.stderr).toBe('loading chatty\nstill loading\n');
  });

  it('gives the same trace hash for the same seed and plan in two separate processes', async () => {
    const plan = '[{"kind":"crash","window":"relay.afterBrokerAccept","occurrence":1}]';
    const run = async () => JSON.parse((await promisify(execFile)(process.execPath, [bin, 'replay', 'mercury-outbox', '--seed', '42', '--plan', plan, '--json'], { cwd: root, env })).stdout) as { traceHash: string; verdict: string };
    const [a, b] = await Promise.all([run(), run()]);
    expect(a.traceHash).toMatch(/^[0-9a-f]{64}$/);
    expect(b.traceHash).toBe(a.traceHash);
    expect(a.verdict).toBe('holds');
    // And the in-process run agrees with both.
    expect((JSON.parse((await cli(['replay', 'mercury-outbox', '--seed', '42', '--plan', plan, '--json'])).out) as { traceHash: string }).traceHash).toBe(a.traceHash);
  });
});

describe('a pattern reads the files a folder would', () => {
  it('leaves out the folder record, as listing the folder does', async () => {
    const byPattern = await cli(['list', 'scenarios/*.ts']);
    expect(byPattern.code).toBe(0);
    expect(byPattern.err).toBe('');
    expect(byPattern.out).toBe((await cli(['list', 'scenarios'])).out);
  });
});
