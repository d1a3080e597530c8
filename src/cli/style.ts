// Terminal styling by the usual rules, decided once per stream: FORCE_COLOR (0 or false: never;
// 1 to 3 or empty: that level, terminal or not) wins; otherwise NO_COLOR (any value but the
// empty string) gives plain text; otherwise chalk's own detection of the stream (a terminal, a
// TERM that is not dumb, a CI that renders colour) decides. Logs and pipes stay plain unless
// asked otherwise.
import { Chalk, supportsColor, type ChalkInstance } from 'chalk';

/** A colour level: 0 none, 1 basic, 2 256 colours, 3 true colour. */
export type ColorLevel = 0 | 1 | 2 | 3;

/**
 * The colour level of a stream. `detected` is chalk's level for it (from supports-color, which
 * reads FORCE_COLOR, the stream's TTY and TERM), which this trusts unless FORCE_COLOR is unset
 * and NO_COLOR is set: chalk's detection does not read NO_COLOR.
 */
export function colorLevel(env: NodeJS.ProcessEnv, detected: number): ColorLevel {
  const level = Math.max(0, Math.min(3, detected)) as ColorLevel;
  if ('FORCE_COLOR' in env) return level;
  return env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '' ? 0 : level;
}

/** The level stdout gets in this process. */
export function stdoutColorLevel(env: NodeJS.ProcessEnv = process.env): ColorLevel {
  return colorLevel(env, supportsColor === false ? 0 : supportsColor.level);
}

export function styleFor(level: ColorLevel): ChalkInstance {
  return new Chalk({ level });
}

/** A plain-text table with padded columns; widths come from the cells' visible text. */
export function table(rows: readonly (readonly string[])[], paint: (row: number, col: number, text: string) => string = (_r, _c, t) => t): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((r, ri) => r.map((cell, ci) => paint(ri, ci, cell.padEnd(widths[ci]!))).join('  ').trimEnd()).join('\n');
}
