// The payload fields of the records a broker carries, as far as a design's drawing tells: a
// caller keyed on a field no record carries would give every effect the empty key, and a
// consumer's column read from such a field would hold NULL in every row. The fields are known
// when the broker's only producers are publishers, whose records are data in the design; a
// broker fed by anything else (an outbox relay, a partner, a consumer's retry topic) carries
// fields the drawing does not show, and then nothing is checked.
import type { DesignIndex } from '../src/checkers/designIndex.ts';
import { didYouMean } from '../src/base/nearest.ts';
import type { DesignComponent } from '../src/scenario/scenario.ts';
import type { Payload } from './broker.ts';

/** Machines that read a broker they name as `broker` and publish nothing to it. */
const READERS = ['consumer', 'caller', 'operator'];

const inputOf = (c: DesignComponent) => (c.input ?? {}) as Readonly<Record<string, unknown>>;

/** Every field of the records published to `broker`, or undefined when the drawing does not tell. */
export function publishedFields(design: DesignIndex, broker: string): readonly string[] | undefined {
  const fields = new Set<string>();
  let publishers = 0;
  for (const c of design.components) {
    if (c.name === broker || !(c.peers ?? []).includes(broker)) continue;
    const input = inputOf(c);
    if (c.machine.id === 'publisher' && input['broker'] === broker) {
      publishers++;
      for (const record of (input['records'] ?? []) as readonly Payload[]) for (const f of Object.keys(record)) fields.add(f);
    } else if (!(READERS.includes(c.machine.id) && input['broker'] === broker)) return undefined;
  }
  return publishers === 0 ? undefined : [...fields];
}

/** What is wrong with each of `wanted` as a field of the records published to `broker`, one phrase each. */
export function missingFields(design: DesignIndex, broker: string, what: string, wanted: readonly string[], carried = publishedFields(design, broker)): string[] {
  if (carried === undefined) return [];
  return wanted.filter((f) => !carried.includes(f)).map((f) => `${what} ${f} is a field of no record published to ${broker}${didYouMean(f, carried)}; fields: ${carried.join(', ')}`);
}
