// Writes every form of a windows run as one set: `<scenario>.md` per scenario, an `index.md`
// linking them, `report.html`, `report.json`, `junit.xml`, and `.faultline-reports.json`, the
// manifest that lists them and marks the folder as faultline's. The set is written into a
// temporary folder beside the target and swapped in with renames, so an interruption (a signal,
// a crash, a full disk) leaves the previous set or the new one, never files of two runs side by
// side, and a reader (a CI upload, a browser refreshing) never sees half a report. Temporary
// folders are named `.faultline-<pid>-<n>.new` (and `.old` for the previous set while it is moved
// aside); the next write into the same parent folder removes those of processes that are gone,
// and puts a previous set back if a crash struck between the two renames. Nothing written
// carries a time, so a rerun with the same seed leaves every file byte-identical.
//
// The whole target folder is replaced, so faultline only ever replaces a folder it wrote (its
// manifest lists everything in it) or an empty one: `--out .` or `--out src` is refused rather
// than emptied.
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, parse, relative, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describeFsError } from '../base/fsError.ts';
import { InputError } from '../base/inputError.ts';
import { makeDirs } from '../base/makeDirs.ts';
import type { WindowsResult } from '../modes/windows.ts';
import { renderHtml, renderScenarioHtml, renderScript, renderStyle, SCRIPT_FILE, STYLE_FILE } from './html.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdownFile, renderMarkdownIndex } from './markdown.ts';

/** File names the directory reserves for the run as a whole. */
const RESERVED = new Set(['index', 'report', 'junit', 'record']);
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** The manifest: what faultline wrote into the folder, and the mark that lets it replace the folder. */
export const MANIFEST = '.faultline-reports.json';
/** A temporary entry of a write in progress, by process id and sequence number. */
const LEFTOVER = /^\.faultline-(\d+)-(\d+)\.(new|old|target)$/;
/** Longest file name most file systems accept, in bytes. */
const NAME_MAX = 255;

/** Points between steps of a write, where tests inject a failure or an interruption. */
export interface WriteHooks {
  /** After each report file is written into the temporary folder. */
  readonly afterFile?: (file: string) => void;
  /** After the previous set is moved aside and before the new one takes its place. */
  readonly afterMoveAside?: () => void;
}

let sequence = 0;

/** One file of a set: its name in the directory and how to render it (text, or bytes such as gzip). */
export interface ReportFile {
  readonly file: string;
  readonly content: () => string | Uint8Array;
}

/** The forms a report set can hold: `json.gz` is report.json gzipped, for a run too large to keep as text. */
export const REPORT_FORMS = ['md', 'html', 'json', 'junit'] as const;
export type ReportForm = (typeof REPORT_FORMS)[number] | 'json.gz';
/** The forms written unless `--reporter` says otherwise. */
export const DEFAULT_FORMS: readonly ReportForm[] = ['html', 'junit'];

/** The files of a run in the `forms` asked for, in the order they are written: scenario pages first, so an index never links a missing page. */
export function reportFiles(results: readonly WindowsResult[], forms: readonly ReportForm[] = DEFAULT_FORMS): ReportFile[] {
  const seen = new Set<string>();
  for (const r of results) {
    // A scenario name becomes a file name: it must not climb out of the directory or overwrite another report.
    if (!SAFE_NAME.test(r.name) || RESERVED.has(r.name)) throw new Error(`scenario name ${JSON.stringify(r.name)} cannot be used as a report file name`);
    if (seen.has(r.name)) throw new Error(`two scenarios are named ${r.name}`);
    seen.add(r.name);
  }
  const has = (f: ReportForm) => forms.includes(f);
  const data = [...(has('json') ? ['report.json'] : []), ...(has('json.gz') ? ['report.json.gz'] : []), ...(has('junit') ? ['junit.xml'] : [])];
  return [
    ...(has('md') ? results.map((r) => ({ file: `${r.name}.md`, content: () => renderMarkdownFile(r) })) : []),
    ...(has('md') ? [{ file: 'index.md', content: () => renderMarkdownIndex(results, [...(has('html') ? ['report.html'] : []), ...data]) }] : []),
    ...(has('html') ? results.map((r) => ({ file: `${r.name}.html`, content: () => renderScenarioHtml(r) })) : []),
    ...(has('html') ? [{ file: STYLE_FILE, content: renderStyle }, { file: SCRIPT_FILE, content: renderScript }, { file: 'report.html', content: () => renderHtml(results, data) }] : []),
    ...(has('json') ? [{ file: 'report.json', content: () => renderJson(results) }] : []),
    // No name and no time in the header (gzipSync writes neither), so a rerun gives the same bytes.
    ...(has('json.gz') ? [{ file: 'report.json.gz', content: () => gzipSync(renderJson(results), { level: 9 }) }] : []),
    ...(has('junit') ? [{ file: 'junit.xml', content: () => renderJunit(results) }] : []),
  ];
}

function ownedFiles(dir: string): readonly string[] | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')) as { writtenBy?: unknown; files?: unknown };
    if (manifest.writtenBy === 'faultline' && Array.isArray(manifest.files) && manifest.files.every((f) => typeof f === 'string')) return manifest.files as string[];
  } catch {
    // No manifest, or not one faultline wrote: the folder is not faultline's.
  }
  return undefined;
}

/** Whether `path` is a folder (a link to one is not followed, as the report set does not follow it). */
function isFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Checks, before any run, that a report set can be written to `outDir` without creating
 * anything: the target is absent, empty or a set faultline wrote; every name fits; and the
 * nearest folder that exists accepts a new entry (probed by creating and removing one).
 */
export function checkReportDir(outDir: string, flag = '--out'): void {
  const abs = linkTarget(resolve(outDir));
  const refuse = (why: string): never => {
    throw new InputError(`${flag} ${outDir} ${why}`);
  };
  if (parse(abs).root === abs) refuse('is the root folder; give a folder for the reports');
  const cwd = process.cwd();
  if (abs === cwd || cwd.startsWith(abs + sep)) refuse('holds the working folder, which the reports would replace; give a folder of its own');
  for (const part of abs.split(sep)) if (Buffer.byteLength(part) > NAME_MAX) refuse(`is not a writable folder: ${describeFsError({ code: 'ENAMETOOLONG' })}`);
  if (Buffer.byteLength(abs) > 4000) refuse(`is not a writable folder: ${describeFsError({ code: 'ENAMETOOLONG' })}`);
  let stat;
  try {
    stat = statSync(abs);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') refuse(`is not a writable folder: ${describeFsError(error) ?? String(error)}`);
  }
  if (stat !== undefined) {
    if (!stat.isDirectory()) refuse('is not a writable folder: it is a file');
    let entries: string[] = [];
    try {
      entries = readdirSync(abs);
    } catch (error) {
      refuse(`is not a writable folder: ${describeFsError(error) ?? String(error)}`);
    }
    const owned = ownedFiles(abs);
    const foreign = entries.filter((e) => e !== MANIFEST && !(owned ?? []).includes(e));
    // A folder among them may be a report set of its own (an earlier `--out` inside this one): it
    // is not this set's either, and the line says it is a folder rather than that no one wrote it.
    const folders = foreign.filter((e) => isFolder(join(abs, e)));
    if (folders.length > 0) refuse(`holds ${folders.length === 1 ? 'a folder' : 'folders'} that ${folders.length === 1 ? 'is' : 'are'} not part of the report set written there (${folders.slice(0, 3).map((f) => `${f}/`).join(', ')}${folders.length > 3 ? ', …' : ''}); give a new or empty folder, or one faultline wrote a report set to`);
    if (foreign.length > 0) refuse(`holds ${foreign.length === 1 ? 'a file' : 'files'} faultline did not write (${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ', …' : ''}); give a new or empty folder, or one faultline wrote`);
  }
  // The nearest existing ancestor must accept a new entry: probe it with one faultline removes at once.
  let ancestor = dirname(abs);
  while (!existsSync(ancestor) && dirname(ancestor) !== ancestor) ancestor = dirname(ancestor);
  let ancestorStat;
  try {
    ancestorStat = statSync(ancestor);
  } catch (error) {
    refuse(`is not a writable folder: ${describeFsError(error) ?? String(error)}`);
  }
  if (!ancestorStat!.isDirectory()) refuse(`is not a writable folder: ${relative(cwd, ancestor) || ancestor} is a file`);
  const probe = join(ancestor, `.faultline-${process.pid}-${++sequence}.new`);
  try {
    mkdirSync(probe);
    rmdirSync(probe);
  } catch (error) {
    refuse(`is not a writable folder: ${describeFsError(error) ?? String(error)}`);
  }
}

function pidAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Cleans what interrupted writes left in `parent`: a moved-aside previous set goes back where it
 * was if no set took its place, and every other temporary entry of a process that is gone is removed.
 */
export function cleanLeftovers(parent: string): void {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const m = LEFTOVER.exec(name);
    if (!m || m[3] !== 'old' || pidAlive(Number(m[1]))) continue;
    const targetFile = join(parent, `.faultline-${m[1]}-${m[2]}.target`);
    let target: string | undefined;
    try {
      target = readFileSync(targetFile, 'utf8');
    } catch {
      // Without its note the set's place is unknown: it is removed below like any leftover.
    }
    if (target !== undefined && target !== '' && !target.includes('/') && !target.includes('\\') && !existsSync(join(parent, target))) renameSync(join(parent, name), join(parent, target));
  }
  for (const name of readdirSync(parent)) {
    const m = LEFTOVER.exec(name);
    if (m && !pidAlive(Number(m[1]))) rmSync(join(parent, name), { recursive: true, force: true });
  }
}

/** Writes all reports of a run as one set replacing `outDir` (created if needed), and returns the paths written. */
export function writeReports(results: readonly WindowsResult[], outDir: string, hooks: WriteHooks = {}, forms: readonly ReportForm[] = DEFAULT_FORMS): string[] {
  return writeFileSet(reportFiles(results, forms), outDir, hooks);
}

/**
 * The folder a path names: where it is a symbolic link, the folder it leads to. The set replaces
 * that folder and keeps the link; renamed over, the user's link would be gone, and the folder it
 * led to left with the old set.
 */
function linkTarget(path: string): string {
  try {
    return lstatSync(path).isSymbolicLink() ? realpathSync(path) : path;
  } catch {
    return path;
  }
}

/** Writes `files`, in the order given, as one set replacing `outDir` (created if needed), and returns the paths written. */
export function writeFileSet(files: readonly ReportFile[], outDir: string, hooks: WriteHooks = {}): string[] {
  checkReportDir(outDir);
  const abs = linkTarget(resolve(outDir));
  const parent = dirname(abs);
  const id = `.faultline-${process.pid}-${++sequence}`;
  const tmp = join(parent, `${id}.new`);
  const old = join(parent, `${id}.old`);
  const note = join(parent, `${id}.target`);
  let movedAside = false;
  try {
    makeDirs(parent);
    cleanLeftovers(parent);
    mkdirSync(tmp);
    for (const { file, content } of files) {
      const body = content();
      writeFileSync(join(tmp, file), body, typeof body === 'string' ? 'utf8' : undefined);
      hooks.afterFile?.(file);
    }
    writeFileSync(join(tmp, MANIFEST), `${JSON.stringify({ writtenBy: 'faultline', files: files.map((f) => f.file).sort() }, null, 2)}\n`, 'utf8');
    if (existsSync(abs)) {
      // The note says where the previous set belongs, for the next write if a crash strikes now.
      writeFileSync(note, basename(abs), 'utf8');
      renameSync(abs, old);
      movedAside = true;
      hooks.afterMoveAside?.();
    }
    renameSync(tmp, abs);
    if (movedAside) rmSync(old, { recursive: true, force: true });
    rmSync(note, { force: true });
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    if (movedAside && !existsSync(abs)) renameSync(old, abs);
    rmSync(note, { force: true });
    const fs = describeFsError(error);
    if (fs !== undefined) throw new InputError(`cannot write the reports to ${outDir}: ${fs}`);
    throw error;
  }
  return files.map(({ file }) => join(outDir, file));
}
