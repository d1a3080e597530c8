// The faultline command as the installed package runs it: the compiled JavaScript in dist/
// (dist/src/cli/bin.js), with no TypeScript loader. The bench times verdicts end to end with it,
// since that is what a user's `npx faultline` starts; a checkout's bin/faultline.js loads tsx and
// transpiles every module it imports, a cost the package does not have. Bench code: it reads file
// times and starts the build.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const COMPILED_BIN = join(ROOT, 'dist/src/cli/bin.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Builds dist/ (`npm run build`) when it is missing or older than a source it compiles, so the
 * command timed is the code in the tree. Says what it did, or why the compiled command cannot be
 * timed.
 */
export function ensureBuilt(): { readonly ok: boolean; readonly note: string } {
  const sources = Math.max(...['src', 'models', 'scenarios'].map((d) => newestSource(join(ROOT, d))));
  if (existsSync(COMPILED_BIN) && statSync(COMPILED_BIN).mtimeMs >= sources) return { ok: true, note: 'dist/ is up to date' };
  const start = performance.now();
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8' });
  const seconds = ((performance.now() - start) / 1000).toFixed(1);
  if (build.status !== 0) return { ok: false, note: `npm run build failed: ${(build.stderr || build.stdout).trim().split('\n').slice(-3).join(' ')}` };
  return { ok: true, note: `dist/ built now (npm run build, ${seconds} s)` };
}
