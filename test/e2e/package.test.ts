// faultline as a user gets it: `npm pack`, installed from the tarball into a fresh project, then
// used the ways the README and docs/ say: the API from plain Node, the types under a default
// `tsc --init`, the command on the user's own scenario file, and every runnable code block of
// the README and then of each page of docs/, in order, in that project (a TypeScript block is
// saved as its file and compiled with the others in one run of tsc; a shell block is run). The install uses the local npm cache first and the
// registry only for what the cache lacks.
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readmeBlocks, type ReadmeBlock } from './readmeBlocks.ts';

const root = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

function npmWorks(): string | undefined {
  const r = spawnSync('npm', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? undefined : `npm cannot run here (${r.error?.message ?? r.stderr.trim()}), so the package cannot be packed`;
}
const skipReason = npmWorks();
if (skipReason) console.warn(`package.test.ts skipped: ${skipReason}`);

/** The newest modification time under `path`. */
function newest(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(s.mtimeMs, ...readdirSync(path).map((f) => newest(join(path, f))));
}

let work: string;
let project: string;
let tarball: string;
let packed: { files: { path: string }[]; size: number; unpackedSize: number; entryCount: number };

function run(cmd: string, args: readonly string[], cwd = project, env: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', npm_config_update_notifier: 'false', ...env } });
}

/** The installed command, run with node directly (npx adds a second of its own to every call). */
const bin = () => join(project, 'node_modules', 'faultline', 'dist', 'src', 'cli', 'bin.js');

function runAsync(cmd: string, args: readonly string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd: project, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

function must(r: SpawnSyncReturns<string>, what: string): string {
  if (r.status !== 0) throw new Error(`${what} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** The shell commands already run, by their text: a page repeating one does not run it again. */
const ran = new Set<string>();

/**
 * Runs a page's runnable blocks in order in the project: a TypeScript block is saved as the file it
 * names (the type-check below compiles every one), a shell block runs with the project's own
 * bin folder first on PATH and must exit 0. Two blocks saving one file must agree.
 */
function runBlocks(page: string, blocks: readonly ReadmeBlock[]): void {
  for (const block of blocks.filter((b) => b.runs)) {
    if (block.lang === 'ts') {
      const file = block.file;
      expect(file, `${page} line ${block.line}: a TypeScript block names its file on its first line or in a comment before it`).toBeDefined();
      const path = join(project, file!);
      if (existsSync(path)) expect(readFileSync(path, 'utf8'), `${page} line ${block.line}: ${file} differs from an earlier block's`).toBe(block.code);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, block.code);
      continue;
    }
    if (block.lang === 'console') {
      expectPrinted(page, block);
      continue;
    }
    if (ran.has(block.code)) continue;
    ran.add(block.code);
    const r = run('bash', ['-e', '-c', block.code], project, { PATH: `${join(project, 'node_modules', '.bin')}:${process.env['PATH']}` });
    expect(r.status, `${page} line ${block.line}:\n${block.code}\n${r.stdout}\n${r.stderr}`).toBe(0);
  }
}

/**
 * Runs a `console` block's command with the installed bin and holds what it prints to the block:
 * every line, or, where the block leaves lines out (`…`), each stretch between them in order.
 */
function expectPrinted(page: string, block: ReadmeBlock): void {
  const [first, ...shown] = block.code.trimEnd().split('\n');
  const command = /^\$ faultline (.+)$/.exec(first!)?.[1];
  expect(command, `${page} line ${block.line}: a console block opens with "$ faultline …"`).toBeDefined();
  const r = run(process.execPath, [bin(), ...command!.split(' ')]);
  expect(r.status, `${page} line ${block.line}: ${first}\n${r.stderr}`).toBe(0);
  const stretches = shown.join('\n').split(/^…$/m).map((s) => s.replace(/^\n|\n$/g, ''));
  if (stretches.length === 1) {
    expect(r.stdout.trimEnd(), `${page} line ${block.line}`).toBe(stretches[0]);
    return;
  }
  let from = 0;
  for (const stretch of stretches.filter((s) => s !== '')) {
    const at = r.stdout.indexOf(stretch, from);
    expect(at, `${page} line ${block.line}: ${first} prints\n${r.stdout}\nwithout\n${stretch}`).toBeGreaterThanOrEqual(0);
    from = at + stretch.length;
  }
}

beforeAll(() => {
  if (skipReason) return;
  work = mkdtempSync(join(tmpdir(), 'faultline-package-'));
  // The build runs only when the sources changed since the last one: the same dist/ npm pack's prepack would make.
  const built = existsSync(join(root, 'dist', 'src', 'index.js')) ? statSync(join(root, 'dist', 'src', 'index.js')).mtimeMs : 0;
  const sources = Math.max(...['src', 'models', 'scenarios', 'package.json', 'tsconfig.json', 'tsconfig.build.json'].map((p) => newest(join(root, p))));
  if (sources > built) must(run('npm', ['run', 'build'], root), 'npm run build');
  const out = must(run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], root), 'npm pack');
  packed = (JSON.parse(out) as (typeof packed & { filename: string })[])[0]!;
  tarball = join(work, (JSON.parse(out) as { filename: string }[])[0]!.filename);
  project = join(work, 'project');
  mkdirSync(project);
  must(run('npm', ['init', '-y']), 'npm init');
  const install = (mode: string) => run('npm', ['install', mode, '--no-audit', '--no-fund', tarball]);
  const offline = install('--offline');
  if (offline.status !== 0) must(install('--prefer-offline'), 'npm install --prefer-offline');
  // The project's test runner and compiler: this repository's own, linked rather than installed.
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
  for (const dep of ['vitest', 'typescript']) symlinkSync(join(root, 'node_modules', dep), join(project, 'node_modules', dep), 'dir');
  symlinkSync(join(root, 'node_modules', 'vitest', 'vitest.mjs'), join(project, 'node_modules', '.bin', 'vitest'));
  // A module hook that logs every module Node loads, to see what a command pulls in.
  writeFileSync(join(work, 'log-hooks.mjs'), "export async function resolve(s, c, next) { const r = await next(s, c); process.stderr.write(`loaded ${r.url}\\n`); return r; }\n");
  writeFileSync(join(work, 'log-modules.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${join(work, 'log-hooks.mjs')}`)});\n`);
}, 300_000);
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe.skipIf(skipReason !== undefined)('the packed package', () => {
  it('holds the compiled code, the catalogue, the JSON Schemas, the README, the docs and package.json, and nothing else', () => {
    const paths = packed.files.map((f) => f.path);
    const outside = paths.filter((p) => !p.startsWith('dist/') && !/^schemas\/[a-z]+\.schema\.json$/.test(p) && !/^docs\/[a-z-]+\.md$/.test(p) && !['package.json', 'README.md', 'bench/README.md'].includes(p));
    expect(outside).toEqual([]);
    // Every page the README links to ships with it, and every relative link of a shipped page
    // lands on a shipped file: a user reading the installed package follows no dead link.
    const pages = paths.filter((p) => p.endsWith('.md'));
    expect(pages).toEqual(expect.arrayContaining(readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)));
    const dead = pages.flatMap((page) =>
      [...readFileSync(join(root, page), 'utf8').matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
        .map((m) => m[1]!)
        .filter((target) => !/^[a-z]+:/.test(target))
        .map((target) => join(dirname(page), target))
        .filter((target) => !paths.includes(target))
        .map((target) => `${page} -> ${target}`),
    );
    expect(dead).toEqual([]);
    expect(paths.filter((p) => p.startsWith('schemas/')).sort()).toEqual(['calc', 'check', 'explore', 'list', 'replay', 'windows'].map((c) => `schemas/${c}.schema.json`));
    expect(paths.filter((p) => /^(src|test|bench|\.ci|models|scenarios|bin)\//.test(p) && p !== 'bench/README.md')).toEqual([]);
    expect(paths).toContain('dist/src/index.js');
    expect(paths).toContain('dist/src/index.d.ts');
    expect(paths).toContain('dist/src/index.js.map');
    expect(paths).toContain('dist/src/cli/bin.js');
    expect(paths).toContain('dist/src/cli/checkCommand.js');
    expect(paths).toContain('dist/src/modes/check/check.js');
    // The JSON Schema of every input, generated at build from the schemas that validate them.
    expect(paths).toEqual(expect.arrayContaining(['dist/schemas/scenario.schema.json', 'dist/schemas/record.schema.json', 'dist/schemas/orderPipeline.schema.json']));
    const catalogue = readdirSync(join(root, 'scenarios')).filter((f) => f.endsWith('.ts'));
    expect(paths.filter((p) => /^dist\/scenarios\/[^/]+\.js$/.test(p))).toHaveLength(catalogue.length);
    // The compiled files import compiled files, never the TypeScript sources.
    expect(readFileSync(join(root, 'dist', 'src', 'index.js'), 'utf8')).not.toMatch(/from '\.\/[^']+\.ts'/);
    console.info(`npm pack: ${packed.entryCount} files, ${(packed.size / 1024).toFixed(0)} KiB packed, ${(packed.unpackedSize / 1024).toFixed(0)} KiB unpacked`);
  });

  it('runs a catalogue scenario from plain Node ESM, without any TypeScript loader', () => {
    writeFileSync(
      join(project, 'plain.mjs'),
      `import { loadScenario, runWindows } from 'faultline';
const { scenario } = await loadScenario('mercury-outbox');
const result = runWindows(scenario);
console.log(result.name, result.judgement.verdict, result.judgement.asExpected);
`,
    );
    const r = run(process.execPath, ['--import', join(work, 'log-modules.mjs'), 'plain.mjs']);
    expect(r.stdout.trim()).toBe('mercury-outbox holds true');
    expect(r.stderr).toMatch(/loaded file:\/\/.*node_modules\/faultline\/dist\/scenarios\/mercury-outbox\.js/);
    expect(r.stderr).not.toMatch(/\/tsx\//);
  });

  it('runs the command on a scenario file of the user importing faultline and a model', () => {
    writeFileSync(
      join(project, 'my-design.ts'),
      `import { defineScenario, type Scenario } from 'faultline';
import { orderPipeline, reservationClaim } from 'faultline/models/designs/orderPipeline';

const scenario: Scenario = defineScenario({
  name: 'my-relay',
  title: 'Our relay marks rows before it sends them',
  source: 'design review',
  lesson: 'Marking progress before the send turns a crash into a lost event.',
  build: orderPipeline({ design: 'outbox', relay: { mark: 'beforeSend' } }),
  workload: { size: 2 },
  claims: [reservationClaim],
  expect: { verdict: 'violated', violations: ['lost effect'] },
});
export default scenario;
`,
    );
    // npm init -y makes a CommonJS package: the file loads as CommonJS, faultline as an ES module.
    const r = run('npx', ['faultline', 'windows', './my-design.ts', '--out', 'my-reports']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/my-relay +\d+ +\d+ .*violated +violated \(lost effect\) +ok/);
    expect(readdirSync(join(project, 'my-reports'))).toContain('my-relay.html');
    // Its errors point at the user's own line, through the source map of the compiled TypeScript.
    writeFileSync(join(project, 'broken.ts'), `import base from './my-design.js';\n\nexport default { ...base, name: 'broken', build: () => {\n  throw new Error('no such component');\n} };\n`);
    const broken = run(process.execPath, [bin(), 'windows', './broken.ts', '--out', 'broken-reports']);
    expect(broken.status).toBe(2);
    expect(broken.stderr).toBe("faultline: malformed scenario ./broken.ts: build() threw: no such component (at broken.ts:4:9 in build)\n");
    expect(existsSync(join(project, 'broken-reports'))).toBe(false);
  });

  it("searches the user's scenario file with check, and replays the counterexample it prints", () => {
    const r = run(process.execPath, [bin(), 'check', './my-design.ts', '--kinds', 'crash', '--size', '1', '--out', 'my-check']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^my-relay +[\d,]+ +[\d,]+ +\d+ +[\d.]+ s +[\d,]+ +violated +violated \(lost effect\) +ok$/m);
    expect(readdirSync(join(project, 'my-check')).sort()).toEqual(['.faultline-reports.json', 'junit.xml', 'my-relay.html', 'report.css', 'report.html', 'report.js']);
    const line = /^ {2}replay: npx faultline (replay \.\/my-design\.ts --faults 1 --kinds crash --size 1 --choices \S+)$/m.exec(r.stdout)?.[1];
    expect(line, r.stdout).toBeDefined();
    const replayed = run(process.execPath, [bin(), ...line!.split(' ')]);
    expect(replayed.status).toBe(0);
    expect(replayed.stdout).toMatch(/^lost effect: committed fact \S+ has no inventory reservation$/m);
  });

  it("fills the catalogue's decision record from the compiled catalogue", () => {
    const r = run(process.execPath, [bin(), 'record', 'flow-review-posted', '--out', 'my-record']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^record EVT-REC-001: 1 flow, 1 scenarios, /);
    expect(readdirSync(join(project, 'my-record'))).toContain('record.md');
  });

  it('prints its version from the installed bin, and loads tsx only for a TypeScript scenario file', () => {
    const v = run('npx', ['faultline', '--version']);
    expect(v.stdout.trim()).toBe(pkg.version);
    const catalogue = run(process.execPath, ['--import', join(work, 'log-modules.mjs'), bin(), 'windows', 'mercury-outbox', '--out', 'catalogue-reports']);
    expect(catalogue.status).toBe(0);
    expect(catalogue.stderr).not.toMatch(/\/tsx\//);
    const user = run(process.execPath, ['--import', join(work, 'log-modules.mjs'), bin(), 'list', './my-design.ts']);
    expect(user.status).toBe(0);
    expect(user.stderr).toMatch(/node_modules\/tsx\//);
  });

  it('scaffolds a design with init that runs, and refuses to overwrite it', () => {
    const r = run(process.execPath, [bin(), 'init', 'our-relay', '--dir', 'designs']);
    expect(r.status).toBe(0);
    expect(readdirSync(join(project, 'designs')).sort()).toEqual(['our-relay.test.ts', 'our-relay.ts']);
    const again = run(process.execPath, [bin(), 'init', 'our-relay', '--dir', 'designs']);
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(/^faultline: init: .*our-relay\.ts and .*our-relay\.test\.ts already exist; nothing was written/);
    const windows = run(process.execPath, [bin(), 'windows', 'designs/', '--out', 'scaffold-reports']);
    expect(windows.stdout).toMatch(/our-relay .* ok/);
    expect(windows.status).toBe(0);
    // Its decision record, which the type-check below compiles with it; and the schemas it ships.
    expect(run(process.execPath, [bin(), 'init', 'our-relay', '--dir', 'designs', '--record']).status).toBe(0);
    const record = run(process.execPath, [bin(), 'record', 'designs/', '--out', 'scaffold-record']);
    expect(record.stderr).toBe('');
    expect(record.stdout).toMatch(/^record EVT-REC-001: 1 flow, 1 scenarios, /m);
    expect(JSON.parse(readFileSync(join(project, 'node_modules', 'faultline', 'dist', 'schemas', 'scenario.schema.json'), 'utf8'))).toMatchObject({ $id: 'urn:faultline:schema:scenario' });
    // Its test runs under the project's own vitest with the README's, in designs/, below.
  });

  it('runs every runnable code block of the README, in order', () => {
    const blocks = readmeBlocks(readFileSync(join(root, 'README.md'), 'utf8'));
    expect(blocks.filter((b) => b.runs).length).toBeGreaterThanOrEqual(6);
    // Every block the README declines to run says why, and they are few: this repository's own
    // commands, and the install the test replaces with the tarball's.
    expect(blocks.filter((b) => !b.runs).map((b) => b.line)).toHaveLength(2);
    runBlocks('README.md', blocks);
    expect(readdirSync(join(project, 'designs')).sort()).toEqual(['checkout-relay.ts', 'mark-first.ts', 'our-relay.test.ts', 'our-relay.ts', 'record.ts']);
  });

  it('runs every runnable code block of docs/, page by page, in the project the README made', () => {
    const pages = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort();
    expect(pages).toEqual(expect.arrayContaining(['composing.md', 'options.md', 'worked-example.md']));
    const skipped: string[] = [];
    for (const page of pages) {
      const blocks = readmeBlocks(readFileSync(join(root, 'docs', page), 'utf8'));
      skipped.push(...blocks.filter((b) => !b.runs).map((b) => `${page}:${b.line}`));
      runBlocks(`docs/${page}`, blocks);
    }
    // The blocks the pages decline to run (a search of the whole catalogue, a vitest run that
    // another test makes, two fragments of a claim, a fragment of a hand-drawn machine whose whole
    // file the held-out suite runs) say why, and they are few.
    expect(skipped).toHaveLength(5);
    // docs/ci.md's `npx vitest run designs/` (exit code 0 above) ran every test there, the scaffold's among them;
    // its crash-points.test.ts, written after that run, is type-checked below.
    expect(readdirSync(join(project, 'designs')).sort()).toEqual(['checkout-relay.test.ts', 'checkout-relay.ts', 'crash-points.test.ts', 'mark-first.ts', 'our-relay.test.ts', 'our-relay.ts', 'record.ts']);
    expect(existsSync(join(project, 'orders-shipping.ts'))).toBe(true);
  });

  it('type-checks the user\'s files, the scaffold and every block of the README and docs/ under a default tsc --init, and with library checks on', async () => {
    // The README's blocks have made the project an ES module package; tsc --init's defaults are as
    // TypeScript writes them. One compilation checks every file, the worked example's twelve
    // components (docs/worked-example.md, test/example/ordersShipping.ts) among them.
    must(run(process.execPath, [tsc, '--init']), 'tsc --init');
    writeFileSync(
      join(project, 'gate.ts'),
      `import { explore, formatPlace, replayLine, runWindows, type ExploreResult, type WindowsResult } from 'faultline';
import design from './my-design.js';

const result: WindowsResult = runWindows(design, { maxOccurrence: 1 });
const lines: string[] = result.counterexamples.map((c) => replayLine(c.replay));
const places: string[] = result.rows.map((r) => formatPlace(r.place));
const search: ExploreResult = explore(design, { runs: 10, seed: 7 });
console.log(result.judgement.asExpected, lines.length, places.length, search.judgement.verdict);
`,
    );
    // Both checks at once: each is a few seconds of one core.
    const [strict, libCheck] = await Promise.all([runAsync(process.execPath, [tsc, '--noEmit', '-p', '.']), runAsync(process.execPath, [tsc, '--noEmit', '-p', '.', '--skipLibCheck', 'false'])]);
    expect(strict.stdout + strict.stderr).toBe('');
    expect(strict.status).toBe(0);
    // With the libraries' declarations checked too, the only complaints are xstate's own (under
    // exactOptionalPropertyTypes), none in faultline's declarations or the user's files.
    expect(libCheck.stdout.split('\n').filter((l) => /error TS/.test(l) && !l.startsWith('node_modules/xstate/'))).toEqual([]);
  });
});
