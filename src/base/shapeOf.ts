// Whether a value read back from a file has the shape of one faultline wrote: the same fields,
// each of the same type, as a reference value of that kind. A part file passed between
// machines may be damaged or edited by hand; a field of the wrong type read on would merge into a
// wrong tally ("104lots" runs) or fail deep inside the merge with a bare TypeError.

/** The first field of `value` whose type differs from the same field of `reference`, as a path and a phrase; undefined when none does. */
export function shapeProblem(reference: unknown, value: unknown, path = ''): string | undefined {
  const at = path === '' ? 'it' : path;
  if (typeof reference === 'number') return typeof value === 'number' && Number.isFinite(value) ? undefined : `${at} is not a number`;
  if (typeof reference === 'string' || typeof reference === 'boolean') return typeof value === typeof reference ? undefined : `${at} is not a ${typeof reference}`;
  if (Array.isArray(reference)) {
    if (!Array.isArray(value)) return `${at} is not a list`;
    if (reference.length === 0) return undefined;
    for (let i = 0; i < value.length; i++) {
      const problem = shapeProblem(reference[0], value[i], `${path}[${i}]`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (typeof reference === 'object' && reference !== null) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${at} is not an object`;
    for (const [key, field] of Object.entries(reference)) {
      if (field === undefined) continue;
      const problem = shapeProblem(field, (value as Record<string, unknown>)[key], path === '' ? key : `${path}.${key}`);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}
