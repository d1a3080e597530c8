// Bad input never crashes the command line: fast-check generates malformed argument vectors
// (unknown flags, flags without values or given twice, negative, huge and non-numeric figures,
// malformed plans and lists of fault kinds, paths to things that are not scenario files, report
// folders that cannot be written, unknown commands) and malformed scenario files (wrong shapes,
// unknown fields, bad values, builders that throw, syntax errors, a process.exit), and runs each
// in-process through main(). Every case must end with exit code 2, exactly one line on stderr,
// nothing on stdout, no stack trace, and nothing written anywhere.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALC_SUBCOMMANDS, calcArgvSpec } from '../../src/capacity/runCalc.ts';
import { bufferIo } from '../../src/cli/io.ts';
import { COMMAND_NAMES, loadCommand, main } from '../../src/cli/main.ts';
import { FAULT_KINDS } from '../../src/faults/faults.ts';
import type { ArgvSpec } from '../../src/base/parseArgv.ts';

let sandbox: string;
let specs: Record<string, ArgvSpec>;
/** What the sandbox holds before the cases run: every case must leave it exactly so. */
let fixture: string[];
const listing = (dir: string): string[] => readdirSync(dir, { recursive: true }).map(String).sort();

beforeAll(async () => {
  sandbox = mkdtempSync(join(tmpdir(), 'faultline-bad-'));
  specs = Object.fromEntries(await Promise.all(COMMAND_NAMES.map(async (n) => [n, (await loadCommand(n)).spec] as const)));
  mkdirSync(join(sandbox, 'empty-folder'));
  // A whole sweep's one part, so a merge starts from a valid command line as the others do.
  const part = join(sandbox, 'part');
  expect(await main(['windows', 'mercury-dual-write-commit-first', '--shard', '1/1', '--out', part], bufferIo())).toBe(0);
  BASE['merge'] = [part, '--out', join(sandbox, 'merged')];
  mkdirSync(join(sandbox, 'not-faultlines'));
  writeFileSync(join(sandbox, 'not-faultlines', 'notes.txt'), 'mine');
  writeFileSync(join(sandbox, 'a-file.txt'), 'x');
  execFileSync('mkfifo', [join(sandbox, 'pipe.ts')]);
  mkdirSync(join(sandbox, 'scenarios'));
  fixture = listing(sandbox);
});
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

async function expectRefused(argv: readonly string[]): Promise<void> {
  const io = bufferIo();
  const code = await main(argv, io);
  const lines = io.stderr.split('\n').filter((l) => l !== '');
  const why = `faultline ${JSON.stringify(argv)}\nexit ${code}\nstdout: ${io.stdout}\nstderr: ${io.stderr}`;
  expect(code, why).toBe(2);
  expect(io.stdout, why).toBe('');
  expect(lines, why).toHaveLength(1);
  expect(lines[0], why).toMatch(/^faultline: \S/);
  expect(io.stderr, why).not.toMatch(/\n\s+at |\bat .+:\d+:\d+\)\n/);
}

// The building blocks of a malformed command line.

const word = fc.stringMatching(/^[a-z][a-z0-9-]{0,14}$/);
/** A figure no numeric flag accepts: negative, too large, fractional, in another notation, or not a number. */
const badNumber = fc.oneof(
  fc.integer({ min: -1_000_000, max: -1 }).map(String),
  fc.stringMatching(/^[1-9][0-9]{19,40}$/),
  fc.tuple(fc.nat(1000), fc.integer({ min: 1, max: 99 })).map(([a, b]) => `${a}.${b}`),
  fc.constantFrom('1e3', '0x10', '1_000', 'NaN', 'Infinity', '-0.5', ' ', 'one', '٣'),
  fc.stringMatching(/^[a-z%$#@!?]{1,8}$/),
);
/** Paths that are not scenario files: devices, /proc, pipes, folders without scenarios, missing files. */
const notAScenario = () =>
  fc.constantFrom('/dev/null', '/dev/full', '/dev/zero', '/proc/self/status', '/proc/kmsg', '/proc/self/mem', join(sandbox, 'empty-folder'), join(sandbox, 'pipe.ts'), join(sandbox, 'a-file.txt'), './no-such-design.ts', 'designs/*.ts', join(sandbox, 'missing', 'x.mts'));
/** Report folders that cannot be written or must not be replaced. */
const badOut = () => fc.constantFrom('/proc/faultline-reports', '/proc/self/x/y', '/dev/null/x', '/dev/full', join(sandbox, 'a-file.txt'), join(sandbox, 'a-file.txt', 'sub'), join(sandbox, 'not-faultlines'), '/', '.', '..', join(sandbox, 'x'.repeat(300)), '/sys/faultline');
/** Lists that are not fault kinds joined by commas. */
const badKinds = fc.oneof(
  fc.constantFrom('', ',', 'crash,', ',lose', 'crash,,lose', 'melt', 'crash,melt', 'CRASH', 'crash;lose', 'crash lose'),
  word.filter((w) => !(FAULT_KINDS as readonly string[]).includes(w)),
);
/** Lists that are not report forms joined by commas. */
const badReporters = fc.constantFrom('', ',', 'pdf', 'html,', 'html,,md', 'HTML', 'html;md', 'xml', 'json.zip', 'all,pdf');
/** Places no design of the catalogue's mercury-outbox has. */
const badPlace = fc.constantFrom('relay.nowhere', 'relay', 'a->b:x', 'relay->broker:broker.publish ', 'RELAY.afterSend');

/** Plans that are not JSON arrays of faults. */
const badPlan = fc.oneof(
  fc.string({ maxLength: 30 }).filter((s) => {
    try {
      JSON.parse(s);
      return false;
    } catch {
      return true;
    }
  }),
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)).filter((s) => s !== '[]' && s !== '""'),
  fc.constantFrom('[{"kind":"melt","occurrence":1}]', '[{"kind":"crash","occurrence":1}]', '[{"kind":"lose","point":"a->b:x","occurrence":0}]', '[{"kind":"crash","window":"nope.nowhere","occurrence":1}]', `[${'{"kind":"crash","window":"relay.x","occurrence":1},'.repeat(70)}{}]`),
);

type Tokens = readonly string[];
/** A valid start for each command, so that every case fails on what was added to it. */
const BASE: Record<string, Tokens> = { list: [], windows: ['mercury-outbox'], explore: ['mercury-outbox'], check: ['mercury-outbox'], record: ['all'], replay: ['mercury-outbox', '--seed', '1'], calc: ['dedup', '--rate', '18000', '--window', '12h', '--entry-bytes', '96'], init: [], schema: ['scenario'] };

/** One mistake that the command refuses before it runs anything, as tokens and where they go. */
function poison(command: string): fc.Arbitrary<{ readonly tokens: Tokens; readonly last?: boolean }> {
  const spec = specs[command]!;
  const flags = Object.entries(spec.flags);
  const known = new Set([...Object.keys(spec.flags), 'help', 'h']);
  const stringFlags = flags.filter(([, f]) => f.type === 'string').map(([n]) => n);
  const numeric = flags.filter(([, f]) => f.value === 'N' || f.value === 'S' || f.value === 'K').map(([n]) => n);
  const options: fc.Arbitrary<{ tokens: Tokens; last?: boolean }>[] = [
    word.filter((w) => !known.has(w)).map((w) => ({ tokens: [`--${w}`] })),
    fc.constantFrom(...flags.map(([n]) => n)).map((n) => ({ tokens: spec.flags[n]!.type === 'string' ? [`--${n}`, '7', `--${n}`, '7'] : [`--${n}`, `--${n}`] })),
  ];
  if (command === 'calc') {
    options.push(word.filter((w) => !CALC_SUBCOMMANDS.includes(w)).map((w) => ({ tokens: ['--x-unknown', w] })));
    const dedup = calcArgvSpec('dedup');
    // calc reads units and fractions (1.5, 1e3, 12h) as figures: only a negative or a word is bad for every flag.
    const calcBad = fc.oneof(fc.integer({ min: -1_000_000, max: -1 }).map(String), fc.stringMatching(/^[a-z%$#@!?]{1,8}$/).filter((w) => !/^(k|m|b|s|h|d|ms|kb|mb|gb|tb)$/i.test(w)));
    options.push(fc.tuple(fc.constantFrom(...Object.keys(dedup.flags)), calcBad).map(([f, v]) => ({ tokens: [`--${f}=${v}`] })));
    return fc.oneof(...options);
  }
  if (stringFlags.length > 0) options.push(fc.constantFrom(...stringFlags).map((n) => ({ tokens: [`--${n}`], last: true })));
  if (numeric.length > 0) options.push(fc.tuple(fc.constantFrom(...numeric), badNumber, fc.boolean()).map(([n, v, eq]) => ({ tokens: eq ? [`--${n}=${v}`] : [`--${n}`, v] })));
  if (command === 'replay') options.push(badPlan.map((p) => ({ tokens: ['--plan', p] })));
  if (command === 'windows' || command === 'check' || command === 'record') options.push(badOut().map((o) => ({ tokens: ['--out', o] })));
  if (command === 'check') options.push(badKinds.map((k) => ({ tokens: ['--kinds', k] })));
  if (command === 'windows' || command === 'check') options.push(fc.tuple(badReporters, fc.constantFrom('--reporter', '--format')).map(([r, f]) => ({ tokens: [f, r] })), fc.constant({ tokens: ['--reporter', 'html', '--format', 'md'] }));
  if (command === 'windows') options.push(badPlace.map((p) => ({ tokens: ['--only', p] })));
  if (command === 'init') options.push(fc.constantFrom('Our_Relay', 'UPPER', '-', 'a b', '../escape', '.hidden', 'x'.repeat(120)).map((n) => ({ tokens: ['--', n] })), fc.constantFrom('/proc/faultline', '/dev/null/x', join(sandbox, 'a-file.txt')).map((d) => ({ tokens: ['--dir', d] })));
  if (command === 'list' || command === 'windows' || command === 'explore' || command === 'check' || command === 'replay') options.push(notAScenario().map((p) => ({ tokens: [p] })));
  return fc.oneof(...options);
}

/** A command line with one to three mistakes, and maybe some valid flags around them. */
const badArgv: fc.Arbitrary<string[]> = fc
  .constantFrom(...COMMAND_NAMES)
  .chain((command) =>
    fc.tuple(
      fc.constant(command),
      fc.array(poison(command), { minLength: 1, maxLength: 3 }),
      fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
      fc.boolean(),
    ),
  )
  .map(([command, mistakes, positions, json]) => {
    const argv: string[] = [...BASE[command]!];
    if (json && specs[command]!.flags['json'] && !mistakes.some((m) => m.tokens.includes('--json'))) argv.push('--json');
    for (const [i, m] of mistakes.entries()) {
      if (m.last) continue;
      // Tokens go in as a group, at a position between whole groups of the valid start.
      const at = m.tokens[0] === '--' ? argv.length : Math.min(argv.length, positions[i]! % (argv.length + 1));
      const safe = at > 0 && argv[at - 1]!.startsWith('--') && specs[command]!.flags[argv[at - 1]!.slice(2)]?.type === 'string' ? at + 1 : at;
      argv.splice(Math.min(safe, argv.length), 0, ...m.tokens);
    }
    for (const m of mistakes) if (m.last) argv.push(...m.tokens);
    return [command, ...argv];
  });

const unknownCommand = fc.oneof(
  word.filter((w) => !COMMAND_NAMES.includes(w) && w !== 'help'),
  fc.constantFrom('wndows', 'lst', 'explor', 'chekc', 'replya', 'clac', 'int', '--bogus', '-x', '--versoin'),
).map((c) => [c]);

describe('bad input', () => {
  it('every malformed command line is one line on stderr and exit code 2, writing nothing', async () => {
    const cwdBefore = readdirSync(process.cwd()).sort();
    await fc.assert(fc.asyncProperty(fc.oneof({ weight: 9, arbitrary: badArgv }, { weight: 1, arbitrary: unknownCommand }), expectRefused), { numRuns: 1000, seed: 20261201 });
    expect(listing(sandbox)).toEqual(fixture);
    expect(readdirSync(process.cwd()).sort()).toEqual(cwdBefore);
    expect(readdirSync('/proc').some((f) => f.startsWith('faultline'))).toBe(false);
  });

  it('every malformed scenario file is one line on stderr and exit code 2, writing nothing', async () => {
    // A scenario that would be whole but for one mistake (it builds nothing: a builder the cases replace).
    const fields = {
      name: "'broken-design'",
      title: "'A design with one mistake'",
      source: "'a generated case'",
      lesson: "'none'",
      build: '() => []',
      workload: '{ size: 2 }',
      claims: "[{ effect: 'reservation', key: ['orderId'], outcomes: () => [] }]",
      expect: "{ verdict: 'holds' }",
    };
    const source = (f: Record<string, string>, extra = '') => `${extra}export default {\n${Object.entries(f).map(([k, v]) => `  ${k}: ${v},`).join('\n')}\n};\n`;
    const base = source(fields);
    const thrown = fc.constantFrom("new Error('no such component')", "new TypeError('x is not a function')", "'a plain string'", 'undefined', 'null', '42', "{ message: 'an object' }", "new RangeError('a\\nsecond line')");
    const badValue = fc.oneof(fc.jsonValue({ maxDepth: 1 }).map((v) => JSON.stringify(v) ?? 'undefined'), fc.constantFrom('undefined', 'null', '() => 1', 'Symbol()', '[]', '{}', "'UPPER Case'", '-1', '1.5', "'x'.repeat(0)"));
    const file = fc.oneof(
      // Not a scenario at all.
      fc.jsonValue({ maxDepth: 2 }).map((v) => `export default ${JSON.stringify(v) ?? 'undefined'};\n`),
      fc.constantFrom('export const notDefault = 1;\n', 'export default function () {}\n', 'export default class {}\n', 'export default Promise.resolve({});\n', ''),
      // A field it does not know, or one missing.
      word.filter((w) => !(w in fields) && w !== 'world' && w !== 'windows').map((k) => source({ ...fields, [k]: '1' })),
      fc.constantFrom(...Object.keys(fields)).map((k) => source(Object.fromEntries(Object.entries(fields).filter(([f]) => f !== k)))),
      // A field with a value of the wrong kind or out of range.
      fc.tuple(fc.constantFrom('name', 'title', 'workload', 'claims', 'expect'), badValue).map(([k, v]) => source({ ...fields, [k]: v })),
      fc.tuple(fc.constantFrom('size', 'unknownField'), badValue).map(([k, v]) => source({ ...fields, workload: `{ ${k}: ${v} }` })),
      badValue.map((v) => source({ ...fields, expect: `{ verdict: 'violated', violations: [${v}] }` })),
      badValue.map((v) => source({ ...fields, world: `{ quietTicks: ${v} }` })),
      // A builder that throws whatever it throws.
      thrown.map((t) => source({ ...fields, build: `() => { throw ${t}; }` })),
      // A syntax error: the scenario cut short, or something that is no TypeScript spliced in.
      fc.nat().map((n) => base.slice(0, 10 + (n % (base.length - 12)))),
      fc.tuple(fc.nat(), fc.constantFrom('{{{', ')', '<<<', '@@', 'export export', '`', '=>')).map(([n, junk]) => {
        const at = n % base.length;
        return `${base.slice(0, at)}${junk}${base.slice(at)}`;
      }),
      // Code that ends the process while it loads.
      fc.constantFrom(0, 1, 2, undefined).map((code) => source(fields, `process.exit(${code ?? ''});\n`)),
    );
    const command = fc.constantFrom(['list'], ['windows', '--out', join(sandbox, 'scenario-reports')], ['explore', '--runs', '5'], ['check', '--out', join(sandbox, 'scenario-reports')]);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(file, command, fc.constantFrom('.ts', '.mts'), async (text, cmd, ext) => {
        // Each case gets a file of its own: a loaded module stays cached under its path.
        const path = join(sandbox, 'scenarios', `case-${++n}${ext}`);
        writeFileSync(path, text);
        try {
          await expectRefused([cmd[0]!, path, ...cmd.slice(1)]);
        } finally {
          rmSync(path);
        }
      }),
      { numRuns: 250, seed: 20261202 },
    );
    expect(listing(sandbox)).toEqual(fixture);
    expect(existsSync(join(sandbox, 'scenario-reports'))).toBe(false);
    expect(statSync(join(sandbox, 'scenarios')).isDirectory()).toBe(true);
  });

  it('a design that names what it does not have is refused before any run, one line naming the nearest name', async () => {
    const root = join(import.meta.dirname, '..', '..');
    const head = [
      `import { compose, defineScenario } from '${root}/src/index.ts';`,
      `import { broker } from '${root}/models/broker.ts';`,
      `import { consumerGroup } from '${root}/models/consumer.ts';`,
      `import { rowsOf } from '${root}/models/database.ts';`,
      `import { database } from '${root}/models/designs/databaseComponent.ts';`,
      `import { publisher, publishedFacts } from '${root}/models/publisher.ts';`,
      `import { providerClaim } from '${root}/models/designs/providerPipeline.ts';`,
      `import { carrierPipeline } from '${root}/models/designs/carrier.ts';`,
      `const records = (n) => Array.from({ length: n }, (_, i) => ({ event_id: 'e-' + i, order_id: 'o-' + i }));`,
      `const facts = (v) => publishedFacts(v.durable('publisher')).map((p) => String(p.order_id));`,
    ].join('\n');
    const scenario = (db: string, claim: string, build = `compose(publisher({ records, keyField: 'order_id' }), broker(), consumerGroup({ consumers: 2, group: 'shipping', db: '${db}', inbox: 'none', effect: { op: 'insert', table: 'shipments', columns: { order_id: 'order_id' } } }), database({ name: 'shipmentsDb', tables: { shipments: { key: ['order_id'] } } }))`) =>
      `${head}\nexport default defineScenario({ name: 'shipping', title: 't', source: 's', lesson: 'l', build: ${build}, workload: { size: 2 }, claims: [${claim}], expect: { verdict: 'holds' } });\n`;
    const shipment = (table: string, db = 'shipmentsDb', extra = '') => `{ effect: 'shipment', key: ['order_id'], authority: 'a', lifetime: 'l', outcomes: (v) => rowsOf(v.durable('${db}'), '${table}').map((r) => ({ key: String(r.order_id) })), facts, tables: { effect: { table: '${table}', key: ['order_id'] } }${extra} }`;
    const cases: readonly (readonly [string, string])[] = [
      [scenario('shipmentDb', shipment('shipments')), 'consumer1 talks to shipmentDb, which the design does not have (did you mean shipmentsDb?)'],
      [scenario('shipmentsDb', shipment('shipments', 'shipmentDb')), 'claim "shipment": outcomes() reads component shipmentDb, which the design does not have (did you mean shipmentsDb?)'],
      [scenario('shipmentsDb', shipment('shipmentz')), 'claim "shipment": outcomes() reads table shipmentz, which the database read does not have (did you mean shipments?)'],
      [
        scenario('shipmentsDb', `providerClaim(['order_id', 'pickup_versoin'], { effect: 'pickup', authority: 'a', lifetime: 'l' })`, `carrierPipeline({ sendKey: true, statusLookup: true, recordIntent: true }, { idempotency: 'honoured', statusLookup: 'byKey' })`),
        'claim "pickup": it is keyed on pickup_versoin, which the intent caller sends the provider does not carry (did you mean pickup_version?)',
      ],
      [scenario('shipmentsDb', shipment('shipments', 'shipmentsDb', `, guarantee: 'atMostOnce', facts: () => []`)), 'claim "shipment" has a facts() that gives none, so every outcome would be a phantom effect'],
    ];
    const lines: string[] = [];
    for (const [i, [text, message]] of cases.entries()) {
      const path = join(sandbox, 'scenarios', `wiring-${i}.mts`);
      writeFileSync(path, text);
      try {
        const io = bufferIo();
        expect(await main(['windows', path, '--out', join(sandbox, 'scenario-reports')], io), io.stderr).toBe(2);
        expect(io.stdout).toBe('');
        expect(io.stderr.trim().split('\n')).toHaveLength(1);
        expect(io.stderr).toContain(`faultline: malformed scenario ${path}: ${message}`);
        lines.push(io.stderr.trim());
      } finally {
        rmSync(path);
      }
    }
    expect(existsSync(join(sandbox, 'scenario-reports'))).toBe(false);
    // Each refusal names its mistake once per place it is made, and nothing else.
    expect(lines.every((l) => !l.includes(' at '))).toBe(true);
  });

  it('a table a model meets only when it runs (the outbox its service writes, in a database drawn by hand that declares no tables) is one line naming the file, the component and the step, never a stack trace', async () => {
    const root = join(import.meta.dirname, '..', '..');
    const text = [
      `import { compose, defineScenario } from '${root}/src/index.ts';`,
      `import { acceptOrders } from '${root}/models/designs/orderPipeline.ts';`,
      `import { client } from '${root}/models/client.ts';`,
      `import { source } from '${root}/models/source.ts';`,
      `import { relay } from '${root}/models/relay.ts';`,
      `import { broker } from '${root}/models/broker.ts';`,
      `import { rowsOf } from '${root}/models/database.ts';`,
      `import { databaseComponent } from '${root}/models/designs/databaseComponent.ts';`,
      // Drawn by hand without its list of tables, the database says nothing a load-time check could hold the service to.
      `const ordersDb = () => ({ ...databaseComponent('ordersDb', { orders: { key: ['order_id'] } }), tables: undefined });`,
      `const claim = { effect: 'order row', key: ['order_id'], authority: 'pk', lifetime: 'ever', unchecked: ['lost effect', 'phantom effect'], outcomes: (v) => rowsOf(v.durable('ordersDb'), 'orders').map((r) => ({ key: String(r.order_id) })) };`,
      `export default defineScenario({ name: 'no-outbox', title: 't', source: 's', lesson: 'l', build: compose(client({ commands: acceptOrders }), source({ design: 'outbox' }), ordersDb, relay({}), broker({})), workload: { size: 1 }, claims: [claim], expect: { verdict: 'holds' } });`,
    ].join('\n');
    const path = join(sandbox, 'scenarios', 'no-outbox.mts');
    writeFileSync(path, text);
    try {
      const io = bufferIo();
      expect(await main(['windows', path, '--out', join(sandbox, 'no-outbox-reports')], io), io.stderr).toBe(2);
      // Met in the fault-free run the load makes, so it is said at load, with the file's name.
      expect(io.stderr.trim().split('\n')).toEqual([`faultline: malformed scenario ${path}: ordersDb failed on db.exec in state serving: no table outbox; tables: orders`]);
      expect(existsSync(join(sandbox, 'no-outbox-reports'))).toBe(false);
    } finally {
      rmSync(path);
    }
  });
});

/** The one line a refused command line prints, after checking it is one line, exit code 2, and nothing on stdout. */
async function refusal(argv: readonly string[]): Promise<string> {
  const io = bufferIo();
  const code = await main(argv, io);
  const why = `faultline ${JSON.stringify(argv)}\nexit ${code}\nstdout: ${io.stdout}\nstderr: ${io.stderr}`;
  expect(code, why).toBe(2);
  expect(io.stdout, why).toBe('');
  const lines = io.stderr.split('\n').filter((l) => l !== '');
  expect(lines, why).toHaveLength(1);
  expect(lines[0], why).not.toMatch(/\bat .+:\d+:\d+\)?$/);
  return lines[0]!;
}

describe('a refusal says what is wrong', () => {
  it('a plan fault at a message point the design never sends is refused with the nearest point it does send', async () => {
    const plan = (point: string, extra = '') => JSON.stringify([JSON.parse(`{"kind":"lose","point":${JSON.stringify(point)},"occurrence":1${extra}}`)]);
    expect(await refusal(['replay', 'mercury-outbox', '--seed', '1', '--plan', plan('relay->broker:broker.publsh')])).toBe(
      'faultline: --plan: mercury-outbox never sends a message at relay->broker:broker.publsh (did you mean relay->broker:broker.publish?)',
    );
    expect(await refusal(['replay', 'mercury-outbox', '--seed', '1', '--plan', plan('relay->brokr:broker.publish')])).toMatch(/is not a message point of mercury-outbox .*\(did you mean relay->broker:broker\.publish\?\)$/);
    // A real point at an occurrence the run never reaches is a fault that never struck, not a mistake.
    const io = bufferIo();
    expect(await main(['replay', 'mercury-outbox', '--seed', '1', '--plan', JSON.stringify([{ kind: 'lose', point: 'relay->broker:broker.publish', occurrence: 99 }])], io), io.stderr).toBe(0);
  });

  it('a plan fault with a field its kind does not have is refused, naming the field', async () => {
    expect(await refusal(['replay', 'mercury-outbox', '--seed', '1', '--plan', '[{"kind":"lose","point":"relay->broker:broker.publish","occurrence":1,"extra":2}]'])).toBe(
      'faultline: --plan fault 1: a lose fault has no field "extra" (its fields: kind, point, occurrence)',
    );
    expect(await refusal(['replay', 'mercury-outbox', '--seed', '1', '--plan', '[{"kind":"crash","window":"relay.afterBrokerAccept","occurrence":1,"occurence":2}]'])).toMatch(/a crash fault has no field "occurence" \(did you mean occurrence\?\)/);
  });

  it('merge of a path that holds no part says what is there: nothing, an empty folder, a report set, other files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-merge-'));
    try {
      mkdirSync(join(dir, 'empty'));
      const reports = join(dir, 'reports');
      expect(await main(['check', 'mercury-outbox', '--faults', '0', '--out', reports], bufferIo())).toBe(0);
      const lines = await Promise.all(['missing', 'empty', 'reports', join('missing', 'part.json')].map((p) => refusal(['merge', join(dir, p)])));
      expect(lines).toEqual([
        `faultline: ${join(dir, 'missing')} does not exist`,
        `faultline: ${join(dir, 'empty')} holds no part.json (it is empty; a part is the folder windows, explore or check wrote with --shard)`,
        `faultline: ${reports} holds no part.json (it is a report set, not a part; a part is the folder windows, explore or check wrote with --shard)`,
        `faultline: ${join(dir, 'missing', 'part.json')} does not exist`,
      ]);
      expect(lines.join('\n')).not.toMatch(/ENOENT|cannot be created/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('merge refuses a part whose tally is damaged, naming the field, and an --out that holds a part being merged', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-merge-'));
    try {
      const good = JSON.parse(readFileSync(join(BASE['merge']![0]!, 'part.json'), 'utf8')) as { scenarios: { part: Record<string, unknown> }[] };
      const damaged = (name: string, change: (part: Record<string, unknown>) => void) => {
        const copy = structuredClone(good);
        change(copy.scenarios[0]!.part);
        mkdirSync(join(dir, name));
        writeFileSync(join(dir, name, 'part.json'), JSON.stringify(copy));
        return join(dir, name);
      };
      const lots = damaged('lots', (p) => (p['done'] = 'lots'));
      const noClauses = damaged('no-clauses', (p) => delete p['clauses']);
      const why = 'is not a faultline part (one that windows, explore or check wrote with --shard)';
      expect(await refusal(['merge', lots])).toBe(`faultline: ${lots} ${why}: scenarios[0].part.done is not a number (mercury-dual-write-commit-first)`);
      expect(await refusal(['merge', noClauses])).toBe(`faultline: ${noClauses} ${why}: scenarios[0].part.clauses is not a list (mercury-dual-write-commit-first)`);
      // Well formed, but no sweep writes it: a part that says it stopped at a violation it does not hold, or ran fewer plans than its range.
      const stopped = damaged('stopped', (p) => ((p['stopped'] = true), (p['firstOf'] = [])));
      expect(await refusal(['merge', stopped])).toMatch(/^faultline: the parts do not make one sweep: mercury-dual-write-commit-first: the part of plans 0 to \d+ says it ran \d+ of them and stopped at a violation, which no sweep writes$/);
      const fewer = damaged('fewer', (p) => (p['done'] = 1));
      expect(await refusal(['merge', fewer])).toMatch(/^faultline: the parts do not make one sweep: mercury-dual-write-commit-first: the part of plans 0 to \d+ says it ran 1 of them, which no sweep writes$/);
      const part = BASE['merge']![0]!;
      expect(await refusal(['merge', part, '--out', part])).toBe(`faultline: --out ${part} holds a part being merged, which the report set would replace; give another folder`);
      expect(existsSync(join(part, 'part.json'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('calc refuses a value outside what its flag means, as it refuses a negative one', async () => {
    const dedup = ['calc', 'dedup', '--rate', '18000', '--window', '12h', '--entry-bytes', '96'];
    expect(await refusal([...dedup, '--amplification', '0.5'])).toBe('faultline: amplification must be at least 1 (1 is none: the store holds at least the entries it keeps), got 0.5');
    expect((await main([...dedup, '--amplification', '1'], bufferIo()))).toBe(0);
    expect(await refusal([...dedup, '--replication', '1.5'])).toMatch(/replication/);
    expect(await refusal(['calc', 'retry', '--base', '1s', '--factor', '0.5', '--cap', '1m', '--retries', '3'])).toMatch(/factor must be at least 1/);
  });

  it('a folder run skips a module with no default export, saying so, and refuses a folder of nothing else; a file named directly is refused', async () => {
    const root = join(import.meta.dirname, '..', '..');
    const dir = mkdtempSync(join(tmpdir(), 'faultline-folder-'));
    try {
      const designs = join(dir, 'designs');
      mkdirSync(designs);
      writeFileSync(join(designs, 'common.mts'), 'export const size = 1;\n');
      writeFileSync(join(designs, 'mine.mts'), `import outbox from '${root}/scenarios/mercury-outbox.ts';\nimport { size } from './common.mts';\nexport default { ...outbox, workload: { size } };\n`);
      const io = bufferIo();
      expect(await main(['list', designs], io), io.stderr).toBe(0);
      expect(io.stdout).toMatch(/^mercury-outbox /m);
      expect(io.stderr).toBe(`faultline: skipped ${join(designs, 'common.mts')}: it has no default export, so it is a module the scenarios share, not a scenario\n`);
      expect(await refusal(['list', join(designs, 'common.mts')])).toBe(`faultline: malformed scenario ${join(designs, 'common.mts')}: it has no default export`);
      const shared = join(dir, 'shared');
      mkdirSync(shared);
      writeFileSync(join(shared, 'common.mts'), 'export const size = 1;\n');
      expect(await refusal(['list', shared])).toBe(`faultline: ${shared} holds no scenario: its one file, ${join(shared, 'common.mts')}, has no default export`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a file that exports a second scenario beside its default, which would never run', async () => {
    const root = join(import.meta.dirname, '..', '..');
    const dir = mkdtempSync(join(tmpdir(), 'faultline-two-'));
    try {
      const file = join(dir, 'two.mts');
      writeFileSync(file, `import outbox from '${root}/scenarios/mercury-outbox.ts';\nexport default outbox;\nexport const second = { ...outbox, name: 'second' };\nexport const size = 1;\n`);
      expect(await refusal(['list', file])).toBe(`faultline: malformed scenario ${file}: it exports another scenario besides its default (second), which would never run; a scenario file exports one scenario, as its default (put each in a file of its own)`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an existing file without a scenario\'s extension is not a scenario file, not an unknown scenario name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-notes-'));
    const cwd = process.cwd();
    try {
      writeFileSync(join(dir, 'run.sh'), 'echo');
      process.chdir(dir);
      for (const command of ['list', 'windows', 'explore', 'check', 'replay']) {
        expect(await refusal(command === 'replay' ? [command, 'run.sh', '--seed', '1'] : [command, 'run.sh'])).toBe('faultline: run.sh is not a scenario file: it must end in .ts, .mts, .cts, .js, .mjs, .cjs');
      }
      expect(await refusal(['list', 'no-such-name'])).toMatch(/^faultline: unknown scenario no-such-name/);
    } finally {
      process.chdir(cwd);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a choice path refused says what a choice path looks like and what is wrong with this one', async () => {
    const replay = (choices: string) => refusal(['replay', 'mercury-outbox', '--faults', '1', '--choices', choices]);
    expect(await replay('999999')).toMatch(/^faultline: --choices: step 1 takes choice 999999, but that state offers \d+ \(0 to \d+\)$/);
    expect(await replay('99999999999')).toMatch(/step 1 takes choice 99999999999, more than any state offers/);
    expect(await replay('0.abc')).toMatch(/step 2, "abc", is not a choice index; a choice path is the indices check printed: whole numbers joined by '\.'/);
    expect(await replay('0.1.')).toMatch(/step 3 is empty/);
    expect(await replay('99999999x0')).toMatch(/longer than ten million steps/);
    expect(await replay('0x1')).toMatch(/a run of 0x1 repeats nothing/);
  });
});
