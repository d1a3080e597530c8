// Where a scenario file's own code failed. A user's build(), observer or describer that throws
// is their mistake, not faultline's: they get one line naming their file and line (source-mapped
// from TypeScript by the loader) instead of a stack trace through the engine. The loader
// registers every file it loads from outside the package; an error is the user's when a frame of
// its stack lies in one of them.
import { fileURLToPath } from 'node:url';
import { shownPath } from '../base/shownPath.ts';

const userFiles = new Set<string>();

/** Marks `path` (absolute) as a user's file: its frames make an error theirs. */
export function registerUserFile(path: string): void {
  userFiles.add(path);
}

/** A stack frame's file, line and column: `at fn (file:line:col)` or `at file:line:col`. */
const FRAME = /^\s*at (?:(.*?) \()?(.+?):(\d+):(\d+)\)?$/;

function pathOf(location: string): string {
  const bare = location.replace(/\?.*$/, '');
  if (!bare.startsWith('file:')) return bare;
  try {
    return fileURLToPath(bare);
  } catch {
    return bare;
  }
}

/** `file:line:col` relative to the working directory, for the first frame in a user's file. */
export function userFrame(error: unknown): { readonly where: string; readonly fn: string | undefined } | undefined {
  const stack = error instanceof Error && typeof error.stack === 'string' ? error.stack : '';
  for (const line of stack.split('\n')) {
    const m = FRAME.exec(line);
    if (!m) continue;
    const path = pathOf(m[2]!);
    if (!userFiles.has(path)) continue;
    const fn = m[1]?.replace(/^(Object|Array|async|new)\.?\s*/, '') || undefined;
    return { where: `${shownPath(path)}:${m[3]}:${m[4]}`, fn };
  }
  return undefined;
}

/** One line for an error thrown by a user's code, or undefined when no user file is on its stack. */
export function describeUserFault(error: unknown): string | undefined {
  const frame = userFrame(error);
  if (frame === undefined) return undefined;
  const e = error as Error;
  const message = String(e.message ?? e).split('\n')[0];
  return `${frame.where}: ${e.name && e.name !== 'Error' ? `${e.name}: ` : ''}${message}${frame.fn ? ` (in ${frame.fn})` : ''}`;
}
