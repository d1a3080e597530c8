// A reader given the wrong kind of component: `operationsOf` (a provider's operations) handed a
// database's state, `rowsOf` handed a broker's. Answering "nothing" would be judged (every
// operation lost), and reading on would fail with a bare TypeError, so each reader of a claim
// checks the one field its kind of component always holds and throws this instead. Like
// NotInDesign, it is one line of bad input when a claim is probed at load, and makes the clause
// that read it unknown at run time.

export class NotOfKind extends Error {
  override readonly name = 'NotOfKind';
  constructor(
    /** The reader: `operationsOf`. */
    readonly reader: string,
    /** The kind of component it reads: `a provider`. */
    readonly kind: string,
    /** The fields the state it was given holds. */
    readonly fields: readonly string[],
  ) {
    super(`${reader} reads ${kind}'s state, and was given a component that is not one (its state holds ${fields.join(', ') || 'nothing'})`);
  }
}

/**
 * Refuses a durable state that lacks `field`, which every state of the reader's kind holds, or
 * that holds `without`, which a kind of like shape holds and the reader's never does (a broker's
 * offsets beside an event log's partitions). An absent state (a component that never started) is
 * let through: the reader answers for it.
 */
export function ofKind(durable: unknown, field: string, reader: string, kind: string, without?: string): void {
  if (durable === undefined) return;
  const isObject = typeof durable === 'object' && durable !== null;
  if (!isObject || !(field in durable) || (without !== undefined && without in durable)) throw new NotOfKind(reader, kind, isObject ? Object.keys(durable) : []);
}
