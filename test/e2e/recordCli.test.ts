// `faultline record` as a user runs it: the catalogue's record and the reports it cites written
// as one set, a single scenario's share of it (naming the scenarios behind the rows it does not
// measure), a folder whose record a run contradicts (exit 1), and bad input as one line on
// stderr with exit code 2.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bufferIo } from '../../src/cli/io.ts';
import { main } from '../../src/cli/main.ts';
import { backingScenarios } from '../../src/scenario/recordSpec.ts';
import catalogueRecord from '../../scenarios/record.ts';

const root = join(import.meta.dirname, '..', '..');
const bin = join(root, 'bin', 'faultline.js');

async function cli(args: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  const io = bufferIo(false);
  const code = await main(args, io);
  return { code, out: io.stdout, err: io.stderr };
}

describe('faultline record', () => {
  it('writes the catalogue record and every report it cites, and exits 0', async () => {
    const out = mkdtempSync(join(tmpdir(), 'faultline-record-'));
    const r = await cli(['record', 'all', '--out', out]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const cited = backingScenarios(catalogueRecord);
    expect(r.out).toMatch(new RegExp(`^record EVT-REC-001: 4 flows, ${cited.length} scenarios, \\d+ runs, \\d+ open items; written to ${out}/record\\.md and ${out}/record\\.html\\n$`));
    expect(readdirSync(out).sort()).toEqual([...cited.flatMap((n) => [`${n}.md`, `${n}.html`]), '.faultline-reports.json', 'index.md', 'junit.xml', 'record.html', 'record.md', 'report.css', 'report.html', 'report.js', 'report.json'].sort());
    const md = readFileSync(join(out, 'record.md'), 'utf8');
    expect(md).toMatch(/^\| EV-01 \| `review\.posted` \| Reviews \| Notifications \|/m);
    // Each run the record cites has its page in the HTML report written beside it, holding the id linked to.
    const html = readFileSync(join(out, 'record.html'), 'utf8');
    const links = [...html.matchAll(/href="([A-Za-z0-9._-]+\.html)#([^"]+)"/g)];
    expect(links.length).toBeGreaterThanOrEqual(cited.length);
    for (const [, page, id] of links) expect(readFileSync(join(out, page!), 'utf8')).toContain(`id="${id}"`);
  }, 120_000);

  it('fills one scenario’s share of the catalogue record, the same bytes each time', async () => {
    const out = mkdtempSync(join(tmpdir(), 'faultline-record-'));
    const r = await cli(['record', 'flow-review-posted', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^record EVT-REC-001: 1 flow, 1 scenarios, /);
    const md = readFileSync(join(out, 'record.md'), 'utf8');
    expect(md).toContain('| EV-01 |');
    expect(md).not.toContain('| EV-02 |');
    // The same record twice is the same bytes: nothing in it reads a clock. One scenario's share
    // is rendered by the same code as the whole record's, at a fraction of its runs.
    const again = mkdtempSync(join(tmpdir(), 'faultline-record-'));
    await cli(['record', 'flow-review-posted', '--out', again]);
    for (const file of ['record.md', 'record.html']) expect(readFileSync(join(again, file), 'utf8')).toBe(readFileSync(join(out, file), 'utf8'));
  }, 60_000);

  // The rows the catalogue record measures with other scenarios name them rather than reading as
  // unmeasured, and no figure those scenarios back is printed.
  it('names the scenario behind each row one scenario’s share leaves to another', async () => {
    const out = mkdtempSync(join(tmpdir(), 'faultline-record-'));
    const r = await cli(['record', 'mercury-outbox', '--out', out]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^record EVT-REC-001: 0 flows, 1 scenarios, \d+ runs, /);
    const md = readFileSync(join(out, 'record.md'), 'utf8');
    expect(md).toMatch(/^\| Ordering \| .* \| backed by ordering-per-aggregate-relay, a scenario not in this record \|$/m);
    expect(md).toContain('Gift purchase saga (orchestrated): backed by gift-saga-email-last and gift-saga-email-first, scenarios not in this record.');
    expect(md).toContain('Dedup table sizing: backed by dedup-horizon-7d-vs-30d, a scenario not in this record.');
    expect(md).not.toMatch(/not measured|No multi-service transaction|140,000,000|2,700,000/);
    expect(readdirSync(out).filter((f) => f.endsWith('.md')).sort()).toEqual(['index.md', 'mercury-outbox.md', 'record.md']);
  }, 60_000);

  it.each([
    [['record'], /^faultline: record: takes one scenario name, scenario file, folder of scenarios or "all"/],
    [['record', 'nope'], 'faultline: unknown scenario nope (faultline list shows the catalogue)'],
    [['record', 'carrier-no-key-no-lookup'], /^faultline: scenario carrier-no-key-no-lookup has no record field and the catalogue's record \(scenarios\/record\.ts\) cites it nowhere/],
    [['record', 'all', '--out', join(root, 'package.json', 'inside')], /^faultline: --out .*package\.json\/inside is not a writable folder: ENOTDIR \(a part of the path is not a folder\)$/],
    // A folder faultline did not write is refused before any run, not emptied.
    [['record', 'flow-review-posted', '--out', join(root, 'scenarios')], /^faultline: --out .*scenarios holds files faultline did not write \(/],
    [['record', 'all', '--bogus'], /^faultline: record: unknown flag --bogus/],
  ])('refuses %j with one line and exit code 2', async (args, message) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err.trimEnd().split('\n')).toHaveLength(1);
    if (typeof message === 'string') expect(r.err.trimEnd()).toBe(message);
    else expect(r.err.trimEnd()).toMatch(message);
  });

  // A folder's scenario carries a record whose flow a run contradicts: the record is still
  // written, the row flagged, and the exit code is 1. Spawned, because tsx compiles the user's file.
  it('exits 1 and flags the row when a folder’s record is contradicted by its run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-record-dir-'));
    const scenarios = join(dir, 'designs');
    mkdirSync(scenarios);
    writeFileSync(
      join(scenarios, 'ratings.ts'),
      [
        `import base from '${join(root, 'scenarios', 'flow-rating-changed-fire-and-forget.ts')}';`,
        `import catalogue from '${join(root, 'scenarios', 'record.ts')}';`,
        `const flow = { ...catalogue.flows[1], scenario: 'ratings' };`,
        `export default { ...base, name: 'ratings', record: { ...catalogue, flows: [flow], outbox: { ...catalogue.outbox, relay: { choice: 'polling' }, eventId: { choice: 'uuid' }, ordering: { choice: 'per key' }, cleanup: { choice: 'after 3 days' } },`,
        `  figures: { dedup: { eventsPerDay: 1000, window: '1d', entryBytes: 64 }, retry: { ...catalogue.figures.retry, scenario: undefined }, checkpoint: { ...catalogue.figures.checkpoint, interval: '30s', scenario: undefined }, backfill: { ...catalogue.figures.backfill, scenario: undefined } },`,
        `  rules: [], limits: [], saga: undefined, monitoring: [], decisions: [], eventTime: [] } };`,
        '',
      ].join('\n'),
    );
    const out = join(dir, 'out');
    const r = spawnSync(process.execPath, [bin, 'record', scenarios, '--out', out], { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^ED-01: Repair flow EV-02 rating\.changed or change its semantics: declared effectively-once, but its claim "a rating's contribution to the book's feature" is violated \(order regression\)$/m);
    const md = readFileSync(join(out, 'record.md'), 'utf8');
    expect(md).toMatch(/^\| EV-02 \| .*⚠ \*\*\[Effectively-once, at-least-once delivery, idempotent upsert\. NOT MET: /m);
    // The replay line names the scenario by its file, as the folder gave it.
    expect(md).toContain(`npx faultline replay ${join(scenarios, 'ratings.ts')} --seed 1 --plan `);
    expect(readdirSync(out).sort()).toEqual(['.faultline-reports.json', 'index.md', 'junit.xml', 'ratings.html', 'ratings.md', 'record.html', 'record.md', 'report.css', 'report.html', 'report.js', 'report.json']);
  }, 60_000);

  // A flow is measured by a claim of its scenario: one it does not make is bad input, before any run.
  it('refuses a flow tied to a claim its scenario does not make, with one line and exit code 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-record-claim-'));
    writeFileSync(
      join(dir, 'email.ts'),
      [
        `import base from '${join(root, 'scenarios', 'email-confirmation.ts')}';`,
        `import catalogue from '${join(root, 'scenarios', 'record.ts')}';`,
        `const flow = { ...catalogue.flows[0], scenario: 'email', claim: 'confirmation sent' };`,
        `export default { ...base, name: 'email', record: { ...catalogue, flows: [flow], rules: [], limits: [], saga: undefined, monitoring: [], decisions: [], eventTime: [], figures: undefined,`,
        `  outbox: { ...catalogue.outbox, relay: { choice: 'polling' }, eventId: { choice: 'uuid' }, ordering: { choice: 'per key' }, cleanup: { choice: 'after 3 days' } } } };`,
        '',
      ].join('\n'),
    );
    const r = spawnSync(process.execPath, [bin, 'record', dir, '--out', join(dir, 'out')], { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      `faultline: malformed scenario ${join(dir, 'email.ts')}: record.flows[0] (EV-01) names claim "confirmation sent", which scenario email does not make (did you mean confirmation send intent?); its claims: "confirmation send intent", "provider acceptance of the confirmation email"`,
    ]);
  }, 60_000);
});
