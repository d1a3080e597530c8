// The identifying keys of a message, found by a generic rule on field names (entity ids, keys,
// conversation references), so a diagram labels a new design's messages without a table of its
// own, and the key focus can tell which steps carried the key a finding names.

/** One identifying key of a message: the field's name as written and its value as text. */
export interface MessageKey {
  readonly name: string;
  readonly value: string;
}

/** How deep the search looks into nested objects and arrays (`ops[0].row.order_id` is four levels down). */
const KEY_DEPTH = 5;
/** How many elements of an array the search reads: a batch is identified by its first few members. */
const ARRAY_ELEMENTS = 4;

/**
 * Which tier a field name belongs to, or undefined when it is not a key. The rule is generic, so
 * a new design's messages are labelled without a table of their own:
 *  1. names of entities: `id`, or a name ending in `_id` or `Id` (order_id, aggregate_id,
 *     event_id, op_id): they say what the message is about;
 *  2. keys: `key`, or a name ending in `_key` or `Key` (a partition key, an idempotency key);
 *  3. conversation references: `tx`, `ref` and `offset`, which pair a reply with its request
 *     or name a record's place in a log.
 */
function keyTier(name: string): number | undefined {
  if (name === 'id' || name.endsWith('_id') || /[a-z0-9]Id$/.test(name)) return 1;
  if (name === 'key' || name.endsWith('_key') || /[a-z0-9]Key$/.test(name)) return 2;
  if (name === 'tx' || name === 'ref' || name === 'offset') return 3;
  return undefined;
}

/**
 * The identifying keys of a message's data, best first: the event's own fields before nested
 * ones (payload, command, ops[].row, where, results), breadth first with names in sorted order
 * so the same data always gives the same keys, then ordered by tier (entities, keys, references).
 * A value already found under another name is not repeated (an order's `aggregate_id` and its
 * `order_id` are usually the same), and only string and number values count. The `type` field
 * is the message's name, never a key.
 */
export function messageKeys(data: unknown): MessageKey[] {
  const found: (MessageKey & { readonly tier: number; readonly order: number })[] = [];
  let level: unknown[] = [data];
  for (let depth = 0; depth < KEY_DEPTH && level.length > 0; depth++) {
    const next: unknown[] = [];
    for (const value of level) {
      if (Array.isArray(value)) {
        next.push(...value.slice(0, ARRAY_ELEMENTS));
        continue;
      }
      if (value === null || typeof value !== 'object') continue;
      const obj = value as Record<string, unknown>;
      for (const name of Object.keys(obj).sort()) {
        const v = obj[name];
        if (v !== null && typeof v === 'object') {
          next.push(v);
          continue;
        }
        const tier = keyTier(name);
        if (tier === undefined || (typeof v !== 'string' && typeof v !== 'number')) continue;
        found.push({ name, value: String(v), tier, order: found.length });
      }
    }
    level = next;
  }
  found.sort((x, y) => x.tier - y.tier || x.order - y.order);
  const seen = new Set<string>();
  const keys: MessageKey[] = [];
  for (const k of found) {
    if (seen.has(k.value)) continue;
    seen.add(k.value);
    keys.push({ name: k.name, value: k.value });
  }
  return keys;
}

/** The entity fields among a message's keys (`id`, `…_id`, `…Id`): what it is about. */
export function entityKeys(data: unknown): MessageKey[] {
  return messageKeys(data).filter((k) => keyTier(k.name) === 1);
}
