// A choice path: the index of the choice taken at each step of an exhaustive search's run, in
// the order CheckWorld.choices lists them, written so a shell passes it untouched. Runs of one
// index are written `<count>x<index>` ("12x0" is twelve 0s), and steps are joined by '.', so
// the path of a 300-step counterexample, which mostly takes the first choice, stays one short
// line: `40x0.2.17x0.1.9x0`.
import { InputError } from '../../base/inputError.ts';

export function encodeChoices(path: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < path.length; ) {
    let j = i;
    while (j < path.length && path[j] === path[i]) j++;
    const n = j - i;
    out.push(n === 1 ? String(path[i]) : `${n}x${path[i]}`);
    i = j;
  }
  return out.join('.');
}

const TOKEN = /^(?:(\d{1,7})x)?(\d{1,5})$/;

/** The indices of a path; bad input names the first token it cannot read. */
export function decodeChoices(text: string): number[] {
  if (text.trim() === '') return [];
  const out: number[] = [];
  for (const token of text.trim().split('.')) {
    const m = TOKEN.exec(token);
    if (!m) throw new InputError(`--choices must be whole numbers joined by '.', a run of one written <count>x<index> (like 12x0.2.3x1), got ${JSON.stringify(token)} in ${JSON.stringify(text)}`);
    const n = m[1] === undefined ? 1 : Number(m[1]);
    if (n < 1) throw new InputError(`--choices: a run of ${token} repeats nothing`);
    for (let k = 0; k < n; k++) out.push(Number(m[2]));
    if (out.length > 10_000_000) throw new InputError('--choices: the path is longer than ten million steps');
  }
  return out;
}
