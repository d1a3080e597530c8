// A read of something a design does not have: a component no one drew, a table no database
// holds. A reader that is asked for one throws this rather than answer "nothing", because an
// empty answer would be judged: a claim reading a misspelt table would report every fact as a
// lost effect. When a design is loaded its claims are read once against its start, and this
// error names the mistake there; at run time it makes the clause that read it unknown.
import { didYouMean } from './nearest.ts';

export class NotInDesign extends Error {
  override readonly name = 'NotInDesign';
  constructor(
    /** What was asked for: `component`, `table`. */
    readonly kind: string,
    readonly asked: string,
    /** What there is of that kind where it was asked. */
    readonly known: readonly string[],
    /** Where it was asked, in words: `the design`, `the database read`. */
    readonly where: string,
  ) {
    super(`reads ${kind} ${asked}, which ${where} does not have${didYouMean(asked, known)}; ${kind}s: ${known.join(', ') || 'none'}`);
  }
}
