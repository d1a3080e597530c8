// The shape of a scenario, described once: defineScenario validates every scenario against it
// (every problem at once, each at its path), src/base/jsonSchema.ts writes it as the JSON Schema
// shipped with the package, and `faultline init` writes its starting file from it, each field's
// description as a comment. What JSON cannot hold (a design's build, a claim's observers) is
// checked to be a function and described by its TypeScript type.
import { FACT_CLAUSES } from '../checkers/claims.ts';
import { VIOLATIONS, type Violation } from '../checkers/finding.ts';
import { FAULT_KINDS, type FaultKind } from '../faults/faults.ts';
import { duration, z } from './options.ts';
import { RecordSpecSchema } from './recordSpec.ts';

/** A function, described by its TypeScript type. */
const fn = (typescript: string, description: string) => z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', `must be a function ${typescript}`).meta({ description, typescript });

const text = (description: string) => z.string().min(1).meta({ description });

/** The simulation's own settings, in durations (src/scenario/scenario.ts's WorldSettings). */
export const WORLD_SETTINGS = z
  .strictObject({
    latency: z.tuple([duration, duration]).optional().meta({ description: 'How long a message takes: the least and the most.' }),
    delayFault: duration.optional().meta({ description: 'How long a `delay` fault holds a message.' }),
    restartAfter: duration.optional().meta({ description: 'How long a crashed component stays down unless its design says otherwise.' }),
    safetyPhase: duration.optional().meta({ description: 'How long the safety phase, in which faults strike, may last.' }),
    livenessPhase: duration.optional().meta({ description: 'How long the liveness phase has to reach quiescence once faults are healed.' }),
    quiet: duration.optional().meta({ description: 'How long nothing durable must change for the world to be quiet.' }),
    stepsMax: z.number().int().min(1).optional().meta({ description: 'How many steps a run may take before it is cut (default 200,000). A run this bound cuts never reached its end: it is inconclusive, never stuck and never a finding.' }),
  })
  .meta({ description: "The simulation's own settings; each has a default." });

const ClaimTable = z.strictObject({
  table: text('The table, as a production team would query it.'),
  key: z.array(z.string()).min(1).meta({ description: "The entries that hold the claim's key, in its order: a column, a constant, or an SQL expression over `$column`s." }),
  where: z.string().optional().meta({ description: 'The condition that makes a row count, in SQL over `$column`s.' }),
  format: z.string().optional().meta({ description: 'How a finding names the key, `{0}`, `{1}`… for its entries.' }),
});

const TableView = z.strictObject({
  table: text('The view, as the table a team would query.'),
  columns: z.record(z.string(), z.enum(['text', 'bigint', 'boolean', 'jsonb'])).meta({ description: 'Its columns and their SQL types.' }),
  rows: fn('(view: WorldView) => Record<string, unknown>[]', 'Its rows, read off the end state.'),
});

const ClaimTables = z
  .strictObject({
    effect: ClaimTable.meta({ description: "Where the claim's effect lives." }),
    source: ClaimTable.optional().meta({ description: 'The committed facts that must each yield the effect.' }),
    causes: ClaimTable.optional().meta({ description: 'What an effect may answer to, when that is more than `source`.' }),
    history: ClaimTable.extend({ version: z.string(), order: z.string() }).optional().meta({ description: "The effect's applied versions in commit order." }),
    replays: ClaimTable.optional().meta({ description: 'The rows whose key got two different results for one intent.' }),
    conflicts: ClaimTable.optional().meta({ description: 'The rows of a different intent accepted under a key bound to another.' }),
    unresolved: z.array(ClaimTable).optional().meta({ description: 'The rows that still say an outcome is not known.' }),
    revisions: ClaimTable.optional().meta({ description: 'The rows that revised a final result silently.' }),
    views: z.array(TableView).optional().meta({ description: 'The tables above that are no database’s, with how each reads off the end state.' }),
  })
  .meta({ description: 'The tables its outcomes and facts are read from, so a report can write the query that finds the damage.' });

const observer = (returns: string, description: string) => fn(`(view: WorldView) => ${returns}`, description).optional();

export const ClaimSchema = z.strictObject({
  effect: text('The effect, in the reader’s words: "inventory reservation".'),
  key: z.array(z.string()).min(1).meta({ description: 'The fields that identify one effect: ["order_id", "reservation_version"].' }),
  namespace: z.string().optional().meta({ description: 'Whose keys these are, when keys of several owners could meet.' }),
  authority: text('Who enforces uniqueness: "the inventory database’s unique constraint".'),
  lifetime: text('For how long: "the lifetime of the order".'),
  sameIntent: z.string().optional().meta({ description: 'What a repeat of the same intent gets: "the stored reservation state".' }),
  differentIntent: z.string().optional().meta({ description: 'What a different intent under the same key gets: "a conflict".' }),
  unknownCompletion: z.string().optional().meta({ description: 'How an unknown external completion is resolved: "status lookup by key".' }),
  finality: z.string().optional().meta({ description: 'What becomes of a result once its period is final.' }),
  guarantee: z.enum(['exactlyOnceEffect', 'atMostOnce', 'atLeastOnce']).optional().meta({ description: 'exactlyOnceEffect (default): one outcome per key and every fact gets one; atMostOnce: a loss is accepted; atLeastOnce: repeats are accepted.' }),
  unchecked: z.array(z.enum(FACT_CLAUSES)).optional().meta({ description: 'The clauses that need source facts and that this claim turns off: a claim with no facts must say so.' }),
  tables: ClaimTables.optional(),
  outcomes: fn('(view: WorldView) => Outcome[]', 'Committed outcomes of the effect in the end state.'),
  facts: observer('string[]', 'Keys of committed source facts that must each yield the effect.'),
  sources: observer('string[]', 'Keys an effect may answer to, when that is more than the facts.'),
  versions: observer('Record<string, number[]>', 'Per-aggregate version histories of what the effect applied, in commit order.'),
  replies: observer('Reply[]', 'Replies callers got, to check that the same intent always got the recorded result.'),
  conflicts: observer('ConflictAttempt[]', 'Attempts with a different intent under an existing key, and whether each was refused.'),
  unresolved: observer('string[]', 'Outcomes still unknown at the end.'),
  revisions: observer('Revision[]', 'Every revision of a result after its period was final.'),
  wiring: fn('(design: DesignIndex) => string[]', 'Checks of what the claim keys on against the design, run when the scenario is loaded.').optional(),
});

const violationName = z.enum(VIOLATIONS as unknown as readonly [Violation, ...Violation[]]);

const Holds = z.strictObject({ verdict: z.literal('holds') }).meta({ description: 'Every claim holds under every fault.' });
const Violated = z
  .strictObject({
    verdict: z.literal('violated'),
    violations: z.array(violationName).min(1).meta({ description: 'The violations the runs must find, and no others.' }),
    claims: z.array(z.string()).min(1).optional().meta({ description: 'The claims, by their effect, the violations are expected of.' }),
  })
  .meta({ description: 'The design breaks its claims, and these violations prove it.' });
const Expected = z.union([Holds, Violated]);

const Expectation = z
  .union([
    Holds,
    Violated,
    z
      .strictObject({
        single: Expected.meta({ description: 'The verdict under one fault per run.' }),
        pairs: Expected.meta({ description: 'The verdict under two faults per run.' }),
        why: z.string().regex(/\S/, 'must say which fault, which window, and whether the engine, the model or the design is at fault').meta({ description: 'Which fault, which window, and whether the design, the model or the engine is at fault.' }),
      })
      .meta({ description: 'A design that keeps its promise under one fault and not under two.' }),
  ])
  .meta({ description: 'The verdict the scenario expects.' });

export const ScenarioSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,99}$/, "must be lower-case words joined by '-', at most 100 characters (it names the scenario's report file)").meta({ description: 'Lower-case words joined by `-`; reports and replay lines name the scenario by it.' }),
  title: text('What the design is, in one line.'),
  source: z.string().meta({ description: 'Where the design comes from: a design review, a document.' }),
  lesson: z.string().meta({ description: 'What the verdict teaches, in one or two sentences.' }),
  build: fn('(workload: Workload, time: TimeScale) => DesignComponent[]', 'The design: compose(...) of its parts, or a preset such as orderPipeline({...}).'),
  tick: duration.optional().meta({ description: 'How long one tick of simulated time is (1s).' }),
  workload: z.strictObject({ size: z.number().int().min(1).max(10_000).meta({ description: 'How many units of work (orders, events): explore shrinks it towards 1.' }) }).meta({ description: 'How much work a run does.' }),
  claims: z.array(ClaimSchema).min(1).meta({ description: 'The effect-uniqueness claims the design makes.' }),
  expect: Expectation,
  world: WORLD_SETTINGS.optional(),
  windows: z
    .strictObject({
      maxOccurrence: z.number().int().min(1).optional().meta({ description: 'How many occurrences of each window and message point to strike.' }),
      kinds: z.array(z.enum(FAULT_KINDS as unknown as readonly [FaultKind, ...FaultKind[]])).optional().meta({ description: 'The fault kinds windows mode strikes with.' }),
    })
    .optional()
    .meta({ description: 'Windows mode: how many occurrences to strike, and which fault kinds.' }),
  record: RecordSpecSchema.optional().meta({ description: 'The decision record this scenario’s design is documented in; `faultline record` fills it.' }),
});
