// The command line's contract for every command, in-process through main(): each command's
// --help lists every flag it takes, every flag given twice is refused, every numeric flag has
// bounds; scenarios are named one by one, by folder or by pattern, with "did you mean" for a
// mistyped name; a user's scenario file that misbehaves (throws, ends the process, never
// loads) is reported as one line naming it; and nothing is written when a command fails.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALC_SUBCOMMANDS, calcArgvSpec } from '../../src/capacity/runCalc.ts';
import { bufferIo } from '../../src/cli/io.ts';
import { COMMAND_NAMES, loadCommand, main } from '../../src/cli/main.ts';

const root = join(import.meta.dirname, '..', '..');
let sandbox: string;
beforeAll(() => {
  sandbox = mkdtempSync(join(tmpdir(), 'faultline-contract-'));
});
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

async function cli(...argv: string[]) {
  const io = bufferIo();
  const code = await main(argv, io);
  return { code, out: io.stdout, err: io.stderr };
}

/** Exit code 2 and one line on stderr, no stack trace, nothing on stdout. */
function refused(r: { code: number; out: string; err: string }, message: RegExp): void {
  expect(r.err).toMatch(message);
  expect(r.code).toBe(2);
  expect(r.out).toBe('');
  expect(r.err.split('\n').filter(Boolean)).toHaveLength(1);
  expect(r.err).not.toMatch(/\n\s+at /);
}

/** A first valid positional argument for each command, so each case fails on the flag alone. */
const FIRST: Readonly<Record<string, readonly string[]>> = {
  list: [],
  windows: ['mercury-outbox'],
  explore: ['mercury-outbox'],
  check: ['mercury-outbox'],
  replay: ['mercury-outbox'],
  record: ['all'],
  merge: ['no-such-part'],
  calc: ['dedup'],
  init: ['x'],
  schema: [],
};

describe('every command', () => {
  it('has an entry in the contract table', () => {
    expect([...COMMAND_NAMES].sort()).toEqual(Object.keys(FIRST).sort());
  });

  it.each(COMMAND_NAMES)('%s --help lists every flag it takes', async (name) => {
    const command = await loadCommand(name);
    const r = await cli(name, '--help');
    expect(r.code).toBe(0);
    for (const flag of Object.keys(command.spec.flags)) expect(r.out).toContain(`--${flag}`);
    expect(r.out).toContain(`Usage: faultline ${command.usage}`);
  });

  it.each(COMMAND_NAMES)('faultline --help lists every flag %s takes on its usage lines', async (name) => {
    const command = await loadCommand(name);
    const lines = (await cli('--help')).out.split('\n').filter((l) => l.startsWith(`  faultline ${name} `));
    expect(lines.length).toBeGreaterThan(0);
    for (const flag of Object.keys(command.spec.flags)) expect(lines.join('\n'), `--${flag}`).toMatch(new RegExp(`--${flag}\\b`));
  });

  it('a command that takes "all" for the whole catalogue says so on its usage lines, and one that does not refuses it', async () => {
    const top = (await cli('--help')).out.split('\n');
    for (const name of ['list', 'windows', 'explore', 'check', 'record']) {
      const command = await loadCommand(name);
      expect(command.usage, name).toMatch(/\|all>/);
      expect(top.filter((l) => l.startsWith(`  faultline ${name} `)).every((l) => /\|all>/.test(l)), name).toBe(true);
    }
    expect((await cli('list', 'all')).code).toBe(0);
    expect((await loadCommand('replay')).usage).not.toMatch(/\ball\b/);
    refused(await cli('replay', 'all', '--seed', '1'), /all names \d+ scenarios; give one/);
  });

  it('check --help says a search its state bound stops is inconclusive, as a verdict is', async () => {
    const help = (await cli('check', '--help')).out;
    const line = (flag: string) => help.split('\n').find((l) => l.trimStart().startsWith(flag))!;
    expect(line('--max-states')).toMatch(/"inconclusive" \(exit code 3\)/);
    expect(line('--max-states')).not.toMatch(/holds within bound/);
    expect(line('--max-depth')).toMatch(/"holds within bound".*"inconclusive"/);
  });

  it('check\'s summary line counts the states the table shows, and a depth-first retry\'s apart from them', async () => {
    const r = await cli('check', 'mercury-outbox', '--max-states', '500', '--out', join(sandbox, 'bounded'));
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/^mercury-outbox +500 /m);
    expect(r.out).toMatch(/\n1 scenario, 500 states \(and 500 more in a depth-first search after the breadth-first one stopped\) in [\d.]+ s, 1 inconclusive; /);
  });

  it.each(CALC_SUBCOMMANDS)('calc %s --help lists every flag it takes', async (sub) => {
    const r = await cli('calc', sub, '--help');
    expect(r.code).toBe(0);
    for (const flag of Object.keys(calcArgvSpec(sub).flags)) expect(r.out).toContain(`--${flag}`);
  });

  it.each(COMMAND_NAMES)('%s refuses each of its flags given twice', async (name) => {
    const command = await loadCommand(name);
    for (const [flag, spec] of Object.entries(command.spec.flags)) {
      const value = spec.type === 'string' ? ['1'] : [];
      refused(await cli(name, ...FIRST[name]!, `--${flag}`, ...value, `--${flag}`, ...value), new RegExp(`--${flag} is given more than once`));
    }
  });

  it.each(CALC_SUBCOMMANDS)('calc %s refuses each of its flags given twice', async (sub) => {
    for (const flag of Object.keys(calcArgvSpec(sub).flags)) refused(await cli('calc', sub, `--${flag}`, '1', `--${flag}`, '1'), new RegExp(`--${flag} is given more than once`));
  });

  it.each(COMMAND_NAMES)('%s refuses a negative, huge, fractional or non-numeric value for each numeric flag', async (name) => {
    const command = await loadCommand(name);
    const numeric = Object.entries(command.spec.flags).filter(([, f]) => f.value === 'N' || f.value === 'S' || f.value === 'K');
    for (const [flag] of numeric) {
      for (const bad of ['-1', '99999999999999999999', '1.5', 'abc', '1e3', '0x10']) {
        // replay's fault budget goes with a choice path; its other figures with a seed.
        const extra = name !== 'replay' || flag === 'seed' ? [] : flag === 'faults' ? ['--choices', '0'] : ['--seed', '1'];
        refused(await cli(name, ...FIRST[name]!, ...extra, `--${flag}`, bad), new RegExp(`--${flag} (must be|is too large)`));
      }
    }
  });
});

describe('naming scenarios', () => {
  it('suggests the nearest catalogue name for a mistyped one', async () => {
    refused(await cli('windows', 'mercury-outbx'), /unknown scenario mercury-outbx \(did you mean mercury-outbox\?\)/);
    refused(await cli('explore', 'mercury-dual-write-comit-first'), /did you mean mercury-dual-write-commit-first\?/);
    refused(await cli('check', 'mercury-outbox', 'mercury-dual-write-publish-frist'), /did you mean mercury-dual-write-publish-first\?/);
  });

  it('takes several names, files, a folder or a pattern, each scenario once', async () => {
    const names = async (...refs: string[]) => (JSON.parse((await cli('list', ...refs, '--json')).out) as { name: string }[]).map((s) => s.name);
    expect(await names('mercury-outbox', 'scenarios/mercury-dual-write-commit-first.ts')).toEqual(['mercury-outbox', 'mercury-dual-write-commit-first']);
    expect(await names('scenarios/mercury-dual-*.ts')).toEqual(['mercury-dual-write-commit-first', 'mercury-dual-write-publish-first']);
    expect(await names('scenarios/mercury-outbox.ts', 'scenarios/mercury-outbox*.ts')).toEqual(['mercury-outbox', 'mercury-outbox-cdc-offset-before-ack', 'mercury-outbox-cdc', 'mercury-outbox-restore-database', 'mercury-outbox-restore-offsets', 'mercury-outbox-two-relays']);
    // A folder's record.ts is its decision record, not a scenario.
    expect((await names('scenarios/')).length).toBe(readdirSync(join(root, 'scenarios')).filter((f) => f.endsWith('.ts') && f !== 'record.ts').length);
  });

  it('refuses a pattern with no match, a folder with no scenario, a file that is not one, and two scenarios of one name', async () => {
    refused(await cli('list', 'nowhere/*.ts'), /no scenario file matches nowhere\/\*\.ts/);
    const empty = mkdtempSync(join(sandbox, 'empty-'));
    refused(await cli('windows', empty), /holds no scenario files/);
    refused(await cli('check', empty), /holds no scenario files/);
    refused(await cli('list', '/dev/null'), /\/dev\/null is not a regular file/);
    refused(await cli('list', '/proc/self/status'), /is not a scenario file: it must end in \.ts/);
    refused(await cli('list', './missing.ts'), /no scenario file \.\/missing\.ts/);
    const twin = join(sandbox, 'twin.ts');
    writeFileSync(twin, `export { default } from ${JSON.stringify(join(root, 'scenarios', 'mercury-outbox.ts'))};\n`);
    refused(await cli('list', 'mercury-outbox', twin), /two scenarios are named mercury-outbox: scenarios\/mercury-outbox\.ts and /);
  });
});

describe("a user's scenario file that misbehaves", () => {
  const file = (name: string, source: string) => {
    const path = join(sandbox, `${name}.mts`);
    writeFileSync(path, source);
    return path;
  };
  const pipeline = JSON.stringify(join(root, 'models', 'designs', 'orderPipeline.ts'));
  const scenario = (build: string) => `import { orderPipeline, reservationClaim } from ${pipeline};
const base = orderPipeline({ design: 'outbox' });
export default {
  name: 'misbehaving', title: 't', source: 's', lesson: 'l',
  build: ${build},
  workload: { size: 1 }, claims: [reservationClaim], expect: { verdict: 'holds' },
};
`;

  it('names the line of a build() that throws', async () => {
    const path = file('throws', scenario(`() => {\n    throw new Error('no relay configured');\n  }`));
    const out = join(sandbox, 'out-throws');
    // In-process the test runner owns stack traces, so the line is not mapped back to the source
    // here; the spawned command's mapping is checked in cli.test.ts and package.test.ts.
    refused(await cli('windows', path, '--out', out), /malformed scenario .*throws\.mts: build\(\) threw: no relay configured \(at .*throws\.mts:\d+:\d+ in build\)/);
    expect(existsSync(out)).toBe(false);
  });

  it("names the line of a describer that throws during the runs, and writes no report", async () => {
    const path = file('describer', scenario(`(w) => base(w).map((c) => (c.describe ? { ...c, describe: () => {\n    throw new RangeError('cannot describe');\n  } } : c))`));
    const out = join(sandbox, 'out-describer');
    refused(await cli('windows', path, '--out', out), /describer\.mts:\d+:\d+: RangeError: cannot describe \(in describe\)$/m);
    expect(existsSync(out)).toBe(false);
  });

  it('reports a file that calls process.exit while loading, and keeps the process alive', async () => {
    const path = file('exits', `process.exit(0);\nexport default {};\n`);
    refused(await cli('list', path), /malformed scenario .*exits\.mts: .*exits\.mts:1:9 called process\.exit\(0\); a scenario file must not end the process/);
  });

  it('reports a file whose loading does not finish within the limit', async () => {
    const path = file('hangs', `await new Promise((resolve) => setTimeout(resolve, 60_000));\nexport default {};\n`);
    const before = process.env['FAULTLINE_LOAD_TIMEOUT_MS'];
    process.env['FAULTLINE_LOAD_TIMEOUT_MS'] = '300';
    try {
      refused(await cli('list', path), /hangs\.mts: it did not finish loading within 0\.3 s/);
    } finally {
      if (before === undefined) delete process.env['FAULTLINE_LOAD_TIMEOUT_MS'];
      else process.env['FAULTLINE_LOAD_TIMEOUT_MS'] = before;
    }
  });

  it('gives a syntax error with its file, line and column', async () => {
    const path = file('syntax', `export default {\n  name: 'x',,\n};\n`);
    refused(await cli('list', path), /malformed scenario .*syntax\.mts: syntax error at .*syntax\.mts:2:12: /);
  });

  it('gives a syntax error in a module the scenario imports at that module, not the scenario', async () => {
    const helper = file('broken-helper', `export const size = 2;;\nexport const x = ;\n`);
    const path = file('imports-broken', `import { size } from './broken-helper.mts';\nexport default { size };\n`);
    refused(await cli('list', path), /malformed scenario .*imports-broken\.mts: syntax error at .*broken-helper\.mts:2:17: /);
    expect(helper).toMatch(/broken-helper\.mts$/);
  });
});

describe('init', () => {
  it('writes a scenario file and a test, then refuses to overwrite them', async () => {
    const dir = join(sandbox, 'designs');
    const r = await cli('init', 'our-relay', '--dir', dir);
    expect(r.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['our-relay.test.ts', 'our-relay.ts']);
    refused(await cli('init', 'our-relay', '--dir', dir), /already exist; nothing was written/);
    refused(await cli('init', 'Our_Relay', '--dir', dir), /the name must be lower-case words joined by '-'/);
    refused(await cli('init', 'x', '--dir', '/proc/faultline'), /init: cannot write into \/proc\/faultline: E[A-Z]+/);
    mkdirSync(join(sandbox, 'other'));
    expect(readdirSync(join(sandbox, 'other'))).toEqual([]);
  });
});
