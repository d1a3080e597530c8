// Whole numbers written with a comma between groups of three digits ("73,026"), as the reports
// and the terminal tables print counts. Written out rather than asked of `toLocaleString`: the
// first call of that loads ICU's number formatting, about 20 ms, a cost every short command paid
// to print its first count.

/** `n` with its digits grouped by commas, as `n.toLocaleString('en-US')` writes a safe integer. */
export function thousands(n: number): string {
  // Anything else (a fraction, an unsafe integer) is written as the locale writes it.
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  // A comma before every digit that has a multiple of three digits after it.
  const out = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',');
  return n < 0 || Object.is(n, -0) ? `-${out}` : out;
}
