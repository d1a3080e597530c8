// Writes every form of a windows run into one directory: `<scenario>.md` per scenario, an
// `index.md` linking them, `report.html`, `report.json` and `junit.xml`. Each file is written
// to a temporary file beside it and renamed over the target, so a reader (a CI upload, a
// browser refreshing) never sees half a report, and nothing written carries a time, so a
// rerun with the same seed leaves every file byte-identical.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { WindowsResult } from '../windows.ts';
import { renderHtml } from './html.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdownFile, renderMarkdownIndex } from './markdown.ts';

/** File names the directory reserves for the run as a whole. */
const RESERVED = new Set(['index', 'report', 'junit', 'record']);
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Writes `content` to `path` atomically: a temporary file in the same directory, then a rename. */
function writeAtomic(path: string, content: string): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, content, 'utf8');
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

/** One file of a set: its name in the directory and how to render it. */
export interface ReportFile {
  readonly file: string;
  readonly content: () => string;
}

/** The files of a run, in the order they are written: scenario pages first, so the index never links a missing page. */
export function reportFiles(results: readonly WindowsResult[]): ReportFile[] {
  const seen = new Set<string>();
  for (const r of results) {
    // A scenario name becomes a file name: it must not climb out of the directory or overwrite another report.
    if (!SAFE_NAME.test(r.name) || RESERVED.has(r.name)) throw new Error(`scenario name ${JSON.stringify(r.name)} cannot be used as a report file name`);
    if (seen.has(r.name)) throw new Error(`two scenarios are named ${r.name}`);
    seen.add(r.name);
  }
  return [
    ...results.map((r) => ({ file: `${r.name}.md`, content: () => renderMarkdownFile(r) })),
    { file: 'index.md', content: () => renderMarkdownIndex(results) },
    { file: 'report.html', content: () => renderHtml(results) },
    { file: 'report.json', content: () => renderJson(results) },
    { file: 'junit.xml', content: () => renderJunit(results) },
  ];
}

/** Writes all reports of a run into `outDir` (created if needed) and returns the paths written. */
export function writeReports(results: readonly WindowsResult[], outDir: string): string[] {
  return writeFileSet(reportFiles(results), outDir);
}

/** Writes a set of files into `outDir` (created if needed), each atomically and in the order given; returns the paths written. */
export function writeFileSet(files: readonly ReportFile[], outDir: string): string[] {
  mkdirSync(outDir, { recursive: true });
  return files.map(({ file, content }) => {
    const path = join(outDir, file);
    writeAtomic(path, content());
    return path;
  });
}
