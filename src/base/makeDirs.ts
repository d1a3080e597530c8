// Creates a folder and its missing parents, one level at a time. Node's own
// `mkdirSync(path, { recursive: true })` never returns for a path under /proc (it retries the
// ENOENT the kernel gives there for ever), so faultline creates folders with this instead: the
// first level that cannot be made ends it with that level's error.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export function makeDirs(path: string): void {
  const missing: string[] = [];
  for (let dir = resolve(path); !existsSync(dir); dir = dirname(dir)) {
    missing.push(dir);
    if (dirname(dir) === dir) break;
  }
  for (const dir of missing.reverse()) {
    try {
      mkdirSync(dir);
    } catch (error) {
      // Another process may have made it in between: that is what was wanted.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

