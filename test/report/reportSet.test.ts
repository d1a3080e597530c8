// A report set is written as a whole: whatever interrupts a write (a failure between two files,
// a full disk, a crash, SIGTERM, a kill at any moment of a real run), the folder holds the
// previous set or the new one, never files of both, and the next write leaves no temporary
// entry behind.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import commitFirst from '../../scenarios/mercury-dual-write-commit-first.ts';
import outbox from '../../scenarios/mercury-outbox.ts';
import { InputError } from '../../src/base/inputError.ts';
import { checkReportDir, cleanLeftovers, REPORT_FORMS, writeReports } from '../../src/report/writeReports.ts';
import { runWindows, type WindowsResult } from '../../src/modes/windows.ts';

const root = join(import.meta.dirname, '..', '..');

let work: string;
let setA: WindowsResult[];
let setB: WindowsResult[];
/** The files of a folder and their bytes. */
const snapshot = (dir: string) => Object.fromEntries(readdirSync(dir).sort().map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
let snapA: Record<string, string>;
let snapB: Record<string, string>;
const leftovers = (parent: string) => readdirSync(parent).filter((f) => f.startsWith('.faultline-'));

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'faultline-set-'));
  setA = [runWindows(outbox)];
  setB = [runWindows(commitFirst)];
  writeReports(setA, join(work, 'a'));
  writeReports(setB, join(work, 'b'));
  snapA = snapshot(join(work, 'a'));
  snapB = snapshot(join(work, 'b'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A fresh parent folder holding set A at `<parent>/out`. */
function withSetA(): { parent: string; out: string } {
  const parent = mkdtempSync(join(work, 'p-'));
  const out = join(parent, 'out');
  writeReports(setA, out);
  return { parent, out };
}

/** Runs a child that writes set B into `out` and interrupts itself as `body` says. */
function child(out: string, body: string): { status: number | null; signal: NodeJS.Signals | null; stderr: string } {
  const file = join(work, `child-${Math.random().toString(36).slice(2)}.mts`);
  writeFileSync(
    file,
    `import scenario from ${JSON.stringify(join(root, 'scenarios', 'mercury-dual-write-commit-first.ts'))};
import { runWindows } from ${JSON.stringify(join(root, 'src', 'modes', 'windows.ts'))};
import { writeReports } from ${JSON.stringify(join(root, 'src', 'report', 'writeReports.ts'))};
import { deferSignals } from ${JSON.stringify(join(root, 'src', 'cli', 'deferSignals.ts'))};
const results = [runWindows(scenario)];
const out = ${JSON.stringify(out)};
${body}
`,
  );
  const r = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: root, encoding: 'utf8' });
  return { status: r.status, signal: r.signal, stderr: r.stderr };
}

describe('a report set is written as a whole', () => {
  it('keeps the previous set when a write fails between two files, and leaves no temporary folder', () => {
    const { parent, out } = withSetA();
    expect(() => writeReports(setB, out, { afterFile: (f) => { if (f === 'report.html') throw new Error('injected between two files'); } })).toThrow('injected');
    expect(snapshot(out)).toEqual(snapA);
    expect(leftovers(parent)).toEqual([]);
  });

  it('reports a full disk as one line naming the code, and keeps the previous set', () => {
    const { parent, out } = withSetA();
    const full = () => writeReports(setB, out, { afterFile: () => { throw Object.assign(new Error('write failed'), { code: 'ENOSPC' }); } });
    expect(full).toThrow(InputError);
    expect(full).toThrow(/^cannot write the reports to .*out: ENOSPC \(no space left on the device\)$/);
    expect(snapshot(out)).toEqual(snapA);
    expect(leftovers(parent)).toEqual([]);
  });

  it('puts the previous set back when the swap fails after moving it aside', () => {
    const { parent, out } = withSetA();
    expect(() => writeReports(setB, out, { afterMoveAside: () => { throw new Error('injected in the swap'); } })).toThrow('injected');
    expect(snapshot(out)).toEqual(snapA);
    expect(leftovers(parent)).toEqual([]);
  });

  it('keeps the previous set when the process is killed mid-write, and the next write removes what it left', () => {
    const { parent, out } = withSetA();
    const r = child(out, `writeReports(results, out, { afterFile: (f) => f === 'report.html' && process.kill(process.pid, 'SIGKILL') });`);
    expect(r.signal).toBe('SIGKILL');
    expect(snapshot(out)).toEqual(snapA);
    expect(leftovers(parent)).toHaveLength(1);
    expect(leftovers(parent)[0]).toMatch(/^\.faultline-\d+-\d+\.new$/);
    writeReports(setB, out);
    expect(snapshot(out)).toEqual(snapB);
    expect(leftovers(parent)).toEqual([]);
  });

  it('restores the previous set when a crash strikes between the two renames', () => {
    const { parent, out } = withSetA();
    const r = child(out, `writeReports(results, out, { afterMoveAside: () => process.kill(process.pid, 'SIGKILL') });`);
    expect(r.signal).toBe('SIGKILL');
    expect(existsSync(out)).toBe(false);
    cleanLeftovers(parent);
    expect(snapshot(out)).toEqual(snapA);
    expect(leftovers(parent)).toEqual([]);
  });

  it('finishes the swap before SIGTERM takes effect, then ends as terminated', () => {
    const { parent, out } = withSetA();
    const r = child(out, `await deferSignals(() => writeReports(results, out, { afterFile: (f) => f === 'report.html' && process.kill(process.pid, 'SIGTERM') }));
console.log('not reached');`);
    expect(r.signal).toBe('SIGTERM');
    expect(snapshot(out)).toEqual(snapB);
    expect(leftovers(parent)).toEqual([]);
  });

  it('holds one whole set whenever a real run is killed', async () => {
    const { parent, out } = withSetA();
    // Kills spread over a run's life: start-up, loading, the runs, and the write at the end.
    for (const delay of [150, 600, 900, 1200, 1500, 1800, 2100, 2600]) {
      const proc = spawn(process.execPath, [join(root, 'bin', 'faultline.js'), 'windows', 'mercury-dual-write-commit-first', '--out', out], { stdio: 'ignore' });
      const ended = new Promise((r) => proc.on('exit', r));
      const timer = setTimeout(() => proc.kill('SIGKILL'), delay);
      await ended;
      clearTimeout(timer);
      const now = snapshot(out);
      expect([snapA, snapB]).toContainEqual(now);
      // Put set A back so a later kill can show a mix if there were one.
      writeReports(setA, out);
    }
    expect(leftovers(parent)).toEqual([]);
  });
});

/** Mounts a small tmpfs at a new folder, or says why it cannot (not root, or no mount here). */
function tinyDisk(kib: number): { readonly dir?: string; readonly why?: string; readonly unmount: () => void } {
  const dir = mkdtempSync(join(work, 'disk-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${kib}k`, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) return { why: `cannot mount a tmpfs here (${(r.stderr || String(r.error)).trim()})`, unmount: () => {} };
  return { dir, unmount: () => spawnSync('umount', [dir]) };
}

describe('real file-system failures', () => {
  it('reports a disk that fills up mid-write as one line, keeps the previous set and leaves nothing behind', (ctx) => {
    const disk = tinyDisk(96);
    if (disk.dir === undefined) return ctx.skip(disk.why);
    try {
      const out = join(disk.dir, 'reports');
      writeReports(setA.slice(0, 0), out);
      const before = snapshot(out);
      // Every form, so the set is larger than the disk.
      expect(() => writeReports(setB, out, {}, REPORT_FORMS)).toThrow(/^cannot write the reports to .*reports: ENOSPC \(no space left on the device\)$/);
      expect(snapshot(out)).toEqual(before);
      expect(leftovers(disk.dir)).toEqual([]);
    } finally {
      disk.unmount();
    }
  });

  it('refuses a read-only file system before any run', (ctx) => {
    const disk = tinyDisk(64);
    if (disk.dir === undefined) return ctx.skip(disk.why);
    try {
      expect(spawnSync('mount', ['-o', 'remount,ro', disk.dir]).status).toBe(0);
      expect(() => checkReportDir(join(disk.dir!, 'reports'))).toThrow(/is not a writable folder: EROFS \(read-only file system\)/);
    } finally {
      disk.unmount();
    }
  });
});

describe('the folder a set replaces', () => {
  it('is refused when it holds files faultline did not write, and is left as it was', () => {
    const dir = mkdtempSync(join(work, 'mine-'));
    writeFileSync(join(dir, 'notes.txt'), 'my notes');
    expect(() => writeReports(setA, dir)).toThrow(/holds a file faultline did not write \(notes\.txt\)/);
    expect(readdirSync(dir)).toEqual(['notes.txt']);
    // A report set written to a folder inside it is a folder the outer set did not write: the
    // line says so, rather than that faultline wrote none of it.
    const outer = mkdtempSync(join(work, 'outer-'));
    writeReports(setA, join(outer, 'windows'));
    expect(() => writeReports(setA, outer)).toThrow(/holds a folder that is not part of the report set written there \(windows\/\); give a new or empty folder, or one faultline wrote a report set to$/);
    expect(readdirSync(outer)).toEqual(['windows']);
    expect(() => checkReportDir('.')).toThrow(/holds the working folder/);
    expect(() => checkReportDir('/')).toThrow(/is the root folder/);
  });

  it('is refused when it is a file, sits under a file, or has a name too long', () => {
    const file = join(work, 'a-file');
    writeFileSync(file, 'x');
    expect(() => checkReportDir(file)).toThrow(/is not a writable folder: it is a file/);
    expect(() => checkReportDir(join(file, 'sub'))).toThrow(/is not a writable folder/);
    expect(() => checkReportDir(join(work, 'x'.repeat(300)))).toThrow(/ENAMETOOLONG/);
    expect(() => checkReportDir('/proc/faultline-reports')).toThrow(/is not a writable folder: E[A-Z]+/);
  });

  it('accepts an empty folder and creates nothing when only checked', () => {
    const dir = mkdtempSync(join(work, 'empty-'));
    checkReportDir(join(dir, 'new', 'nested'));
    expect(readdirSync(dir)).toEqual([]);
    mkdirSync(join(dir, 'e'));
    writeReports(setA, join(dir, 'e'));
    expect(snapshot(join(dir, 'e'))).toEqual(snapA);
  });
});
