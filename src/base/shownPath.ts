// A path as the user reads it in a message: relative to the working folder when it lies inside
// it, absolute otherwise (a path that climbs out with ../../.. says less than the absolute one).
import { resolve, sep } from 'node:path';

export function shownPath(path: string, cwd = process.cwd()): string {
  const abs = resolve(cwd, path);
  const prefix = cwd.endsWith(sep) ? cwd : `${cwd}${sep}`;
  return abs.startsWith(prefix) && abs.length > prefix.length ? abs.slice(prefix.length) : abs;
}
