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

const TOKEN = /^(?:(\d+)x)?(\d+)$/;
/** What a choice path is, for a refusal to end with. */
const FORM = "a choice path is the indices check printed: whole numbers joined by '.', a run of one index written <count>x<index> (like 12x0.2.3x1)";
/** The most steps a path may have, and the largest index read (no state offers nearly so many choices). */
const MAX_STEPS = 10_000_000;
const MAX_INDEX = 999_999_999;

/** The indices of a path; bad input names the first token it cannot read, and why. */
export function decodeChoices(text: string): number[] {
  if (text.trim() === '') return [];
  const out: number[] = [];
  for (const token of text.trim().split('.')) {
    const step = out.length + 1;
    if (token === '') throw new InputError(`--choices: step ${step} is empty (a '.' at an end, or two in a row); ${FORM}`);
    const m = TOKEN.exec(token);
    if (!m) throw new InputError(`--choices: step ${step}, ${JSON.stringify(token)}, is not a choice index; ${FORM}`);
    const n = m[1] === undefined ? 1 : Number(m[1]);
    const index = Number(m[2]);
    if (n < 1) throw new InputError(`--choices: a run of ${token} repeats nothing (its count is 0)`);
    if (index > MAX_INDEX) throw new InputError(`--choices: step ${step} takes choice ${m[2]}, more than any state offers (a state offers a handful of choices, numbered from 0)`);
    if (out.length + n > MAX_STEPS) throw new InputError(`--choices: the path is longer than ten million steps (at ${JSON.stringify(token)})`);
    for (let k = 0; k < n; k++) out.push(index);
  }
  return out;
}
