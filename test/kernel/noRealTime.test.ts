// The determinism rule as a check: the engine and the models take time and chance only from
// the simulation. The command line and the benchmark may read the real clock; nothing else may.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const forbidden = /Math\.random|Date\.now|new Date\(|\bDate\(|performance\.now|setTimeout\(|setInterval\(|setImmediate\(|crypto\.randomUUID|randomBytes/;
const allowed = (file: string) => /^src\/(cli|bench)[^/]*\.ts$/.test(file) || file.startsWith('src/cli/') || file.includes('/bench/');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('no real time or chance in src/ and models/', () => {
  it('finds none of the forbidden calls outside the CLI and bench code', () => {
    const offences: string[] = [];
    for (const file of [...files(join(root, 'src')), ...files(join(root, 'models'))]) {
      const rel = relative(root, file);
      if (allowed(rel)) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const code = line.replace(/\/\/.*$/, '');
          if (/^\s*\*/.test(line)) return; // a doc comment may name what it avoids
          if (forbidden.test(code)) offences.push(`${rel}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offences).toEqual([]);
  });

  it('would catch an offence (the pattern is not vacuous)', () => {
    expect(forbidden.test('const t = Date.now();')).toBe(true);
    expect(forbidden.test('const r = Math.random();')).toBe(true);
    expect(forbidden.test('setTimeout(() => 1, 5)')).toBe(true);
    expect(forbidden.test('clock.setTimer(run, 5)')).toBe(false);
  });
});
