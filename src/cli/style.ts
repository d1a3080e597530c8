// Terminal styling: colour only for a terminal that wants it. NO_COLOR (any value) and output
// that is not a TTY get plain text, so logs and pipes stay clean.
import { Chalk, type ChalkInstance } from 'chalk';

export function styleFor(isTTY: boolean): ChalkInstance {
  const noColor = process.env['NO_COLOR'] !== undefined && process.env['NO_COLOR'] !== '';
  return new Chalk({ level: isTTY && !noColor ? 1 : 0 });
}

/** A plain-text table with padded columns; widths come from the cells' visible text. */
export function table(rows: readonly (readonly string[])[], paint: (row: number, col: number, text: string) => string = (_r, _c, t) => t): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((r, ri) => r.map((cell, ci) => paint(ri, ci, cell.padEnd(widths[ci]!))).join('  ').trimEnd()).join('\n');
}
