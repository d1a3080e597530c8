// Whether a value read back from a file has the shape of one faultline wrote: the same fields,
// each of the same type, as a reference value of that kind. A part file passed between
// machines may be damaged or edited by hand; a field of the wrong type read on would merge into a
// wrong tally ("104lots" runs) or fail deep inside the merge with a bare TypeError.

const EACH = Symbol('each');
const TUPLE = Symbol('tuple');

/** A reference for a record whose every value is like `value` (`{ holds: 3, 'lost effect': 1 }`). */
export function recordOf(value: unknown): object {
  return { [EACH]: value };
}

/** A reference for a list of fixed length whose entries are like `values`, in order (`['lost effect', 4]`). */
export function tupleOf(...values: unknown[]): object {
  return { [TUPLE]: values };
}

/**
 * The first field of `value` whose type differs from the same field of `reference`, as a path and
 * a phrase; undefined when none does. A list in the reference with an entry holds each entry to
 * it; an empty one holds only that it is a list. Fields the reference leaves undefined are optional.
 */
export function shapeProblem(reference: unknown, value: unknown, path = ''): string | undefined {
  const at = path === '' ? 'it' : path;
  if (typeof reference === 'number') return typeof value === 'number' && Number.isFinite(value) ? undefined : `${at} is not a number`;
  if (typeof reference === 'string' || typeof reference === 'boolean') return typeof value === typeof reference ? undefined : `${at} is not a ${typeof reference}`;
  if (Array.isArray(reference)) {
    if (!Array.isArray(value)) return `${at} is not a list`;
    if (reference.length === 0) return undefined;
    return firstOf(value.map((v, i) => () => shapeProblem(reference[0], v, `${path}[${i}]`)));
  }
  if (typeof reference !== 'object' || reference === null) return undefined;
  const ref = reference as { [EACH]?: unknown; [TUPLE]?: unknown[] };
  if (ref[TUPLE] !== undefined) {
    const entries = ref[TUPLE];
    if (!Array.isArray(value) || value.length !== entries.length) return `${at} is not a list of ${entries.length}`;
    return firstOf(entries.map((e, i) => () => shapeProblem(e, value[i], `${path}[${i}]`)));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${at} is not an object`;
  const fields = value as Record<string, unknown>;
  if (EACH in ref) return firstOf(Object.keys(fields).map((k) => () => shapeProblem(ref[EACH], fields[k], path === '' ? k : `${path}.${k}`)));
  return firstOf(Object.entries(reference).filter(([, field]) => field !== undefined).map(([key, field]) => () => shapeProblem(field, fields[key], path === '' ? key : `${path}.${key}`)));
}

/** The first problem the checks give, each run only while none has. */
function firstOf(checks: readonly (() => string | undefined)[]): string | undefined {
  for (const check of checks) {
    const problem = check();
    if (problem !== undefined) return problem;
  }
  return undefined;
}
