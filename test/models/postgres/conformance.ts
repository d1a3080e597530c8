// The differential property: for every generated schema and sequence, the model and PostgreSQL
// answer every step alike and end with the same rows. fast-check generates and, on a
// divergence, shrinks to a minimal sequence, which is run once more to print its transcript.
// The vitest suite and `npm run conformance` both call this.
import fc from 'fast-check';
import { runSequence, type Divergence } from './runSequence.ts';
import { schemaArbitrary, type Schema } from './schema.ts';
import type { SqlBackend } from './sqlBackend.ts';
import { interleavedSteps, serialSteps, type Step } from './steps.ts';

export type Mode = 'serial' | 'interleaved';

export interface ConformanceOptions {
  readonly mode: Mode;
  /** Sequences to generate. */
  readonly runs: number;
  readonly seed: number;
}

export interface ConformanceReport {
  readonly mode: Mode;
  readonly backend: string;
  readonly seed: number;
  /** Sequences run, shrinking included. */
  readonly sequences: number;
  /** Steps the sequences applied, statements that waited for a lock, statements failed as deadlocks. */
  readonly steps: number;
  readonly waits: number;
  readonly deadlocks: number;
  readonly ms: number;
  readonly failure?: Divergence & { readonly path: string };
}

export function sequenceArbitrary(mode: Mode): fc.Arbitrary<{ schema: Schema; steps: Step[] }> {
  // Interleaved sequences get at most two tables, so their transactions meet on rows more often.
  return schemaArbitrary({ autoId: mode === 'serial', maxTables: mode === 'serial' ? 3 : 2 }).chain((schema) => (mode === 'serial' ? serialSteps(schema) : interleavedSteps(schema)).map((steps) => ({ schema, steps })));
}

export async function conformance(backend: SqlBackend, options: ConformanceOptions): Promise<ConformanceReport> {
  if (options.mode === 'interleaved' && !backend.concurrent) throw new Error(`${backend.name} holds one session: interleaved sequences need a server`);
  const start = Date.now();
  let sequences = 0;
  let steps = 0;
  let waits = 0;
  let deadlocks = 0;
  // The first divergence seen, kept whole: if the shrunk sequence no longer diverges when it is
  // run again, this is the only record of what differed.
  let first: (Divergence & { readonly sequence: number }) | undefined;
  const details = await fc.check(
    fc.asyncProperty(sequenceArbitrary(options.mode), async ({ schema, steps: seq }) => {
      const r = await runSequence(schema, seq, backend);
      sequences++;
      steps += r.steps;
      waits += r.waits;
      deadlocks += r.deadlocks;
      if (r.divergence !== undefined && first === undefined) first = { ...r.divergence, sequence: sequences };
      return r.divergence === undefined;
    }),
    { numRuns: options.runs, seed: options.seed, endOnFailure: false },
  );
  const base = { mode: options.mode, backend: backend.name, seed: options.seed, sequences, steps, waits, deadlocks };
  if (!details.failed) return { ...base, ms: Date.now() - start };
  if (details.counterexample === null) throw details.errorInstance ?? new Error('the property failed without a counterexample');
  const [{ schema, steps: seq }] = details.counterexample;
  const again = await runSequence(schema, seq, backend);
  const divergence = again.divergence ?? {
    summary: `the shrunk sequence no longer diverges (a timing-dependent difference); the first divergence, in sequence ${first?.sequence ?? '?'}: ${first?.summary ?? 'not recorded'}`,
    transcript: first?.transcript ?? '',
  };
  return { ...base, ms: Date.now() - start, failure: { ...divergence, path: details.counterexamplePath ?? '' } };
}

/** The report as lines for a person: the figures, and a divergence's minimal sequence. */
export function describeReport(r: ConformanceReport): string {
  const figures = `${r.mode}: ${r.sequences} sequences (${r.steps} steps, ${r.waits} lock waits, ${r.deadlocks} deadlocks) on ${r.backend} in ${(r.ms / 1000).toFixed(1)} s, seed ${r.seed}`;
  if (!r.failure) return `${figures}: the model agrees with PostgreSQL`;
  return [
    `${figures}: the model and PostgreSQL diverge`,
    r.failure.summary,
    '',
    r.failure.transcript,
    '',
    `reproduce with seed ${r.seed} (fast-check path ${r.failure.path})`,
  ].join('\n');
}
