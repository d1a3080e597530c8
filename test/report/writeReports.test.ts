// Writing a run's reports: every form lands in the directory (created if needed), nothing is left
// half-written, and a second run over the same results writes byte-identical files.
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_FORMS, writeReports } from '../../src/report/writeReports.ts';
import outbox from '../../scenarios/mercury-outbox.ts';
import dualWrite from '../../scenarios/mercury-dual-write-commit-first.ts';
import { runWindows } from '../../src/modes/windows.ts';
import { loadResults, type Results } from './results.ts';

let results: Results;
let root: string;
beforeAll(() => {
  results = loadResults();
  root = mkdtempSync(join(tmpdir(), 'faultline-reports-'));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

const snapshot = (dir: string) => Object.fromEntries(readdirSync(dir).sort().map((f) => [f, readFileSync(join(dir, f))]));

describe('writeReports', () => {
  it('writes the HTML pages and junit.xml unless asked for other forms', () => {
    const dir = join(root, 'default');
    const files = ['mercury-outbox.html', 'mercury-dual-write-commit-first.html', 'report.css', 'report.js', 'report.html', 'junit.xml'];
    expect(writeReports(results.all, dir)).toEqual(files.map((f) => join(dir, f)));
    expect(readdirSync(dir).sort()).toEqual([...files, '.faultline-reports.json'].sort());
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('<a href="mercury-outbox.html">');
    expect(readFileSync(join(dir, 'mercury-dual-write-commit-first.html'), 'utf8')).toContain('<svg');
  });

  it('writes every form asked for into a new directory and returns the paths', () => {
    const dir = join(root, 'a', 'nested');
    const paths = writeReports(results.all, dir, {}, REPORT_FORMS);
    const files = ['mercury-outbox.md', 'mercury-dual-write-commit-first.md', 'index.md', 'mercury-outbox.html', 'mercury-dual-write-commit-first.html', 'report.css', 'report.js', 'report.html', 'report.json', 'junit.xml'];
    expect(paths).toEqual(files.map((f) => join(dir, f)));
    // No temporary files are left behind; the manifest lists the set.
    expect(readdirSync(dir).sort()).toEqual([...files, '.faultline-reports.json'].sort());
    expect(readdirSync(join(root, 'a'))).toEqual(['nested']);
    expect(JSON.parse(readFileSync(join(dir, '.faultline-reports.json'), 'utf8'))).toEqual({ writtenBy: 'faultline', files: [...files].sort() });
    const index = readFileSync(join(dir, 'index.md'), 'utf8');
    for (const r of results.all) expect(index).toContain(`[${r.name}](${r.name}.md)`);
    expect(readFileSync(join(dir, 'mercury-outbox.md'), 'utf8')).toContain('`consumer.beforeTransportProgress`');
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('<a href="report.json">report.json</a>');
  });

  it('writes through a symbolic link into the folder it leads to, and keeps the link', () => {
    const real = join(root, 'linked-real');
    const link = join(root, 'linked');
    writeReports(results.all, real, {}, ['json']);
    symlinkSync(real, link);
    writeReports(results.all, link, {}, ['md']);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readdirSync(real).sort()).toEqual(['.faultline-reports.json', 'index.md', 'mercury-dual-write-commit-first.md', 'mercury-outbox.md']);
    // Nothing is left beside the folder it replaced.
    expect(readdirSync(root).filter((f) => f.startsWith('.faultline-'))).toEqual([]);
  });

  it('writes byte-identical files when run twice, even from fresh runs with the same seed', () => {
    const first = join(root, 'first');
    const second = join(root, 'second');
    writeReports(results.all, first);
    writeReports([runWindows(outbox), runWindows(dualWrite)], second);
    writeReports(results.all, first);
    expect(snapshot(second)).toEqual(snapshot(first));
  });

  it('refuses a scenario name that would escape the directory or clobber the index', () => {
    expect(() => writeReports([{ ...results.outbox, name: '../evil' }], join(root, 'bad'))).toThrow(/cannot be used/);
    expect(() => writeReports([{ ...results.outbox, name: 'index' }], join(root, 'bad'))).toThrow(/cannot be used/);
    expect(() => writeReports([results.outbox, results.outbox], join(root, 'bad'))).toThrow(/two scenarios/);
  });
});
