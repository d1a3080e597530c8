// The metadata a decision record (seed 004's template) is filled from: document control, the flow
// register with the semantics each flow chose, the outbox and consumer decisions, the figures the
// capacity arithmetic runs on, the exactly-once boundaries, the saga and the decisions. Every row
// that states a property names the scenario whose measured verdict backs it (one that names none
// is an open item), so the record can say whether the design does what the document claims. A
// figure's design parameters (a dedup window, a checkpoint interval, an event-time policy) may be
// left to the scenario it names, whose design sets them; given in both places, they must agree.
// A scenario carries it as its `record` field; a folder of scenarios (the catalogue included)
// keeps it in a `record.ts` beside them.
import { parseOptions, z } from './options.ts';

/** The three delivery semantics of the template's section 2. */
export const SEMANTICS = ['at-most-once', 'at-least-once', 'effectively-once'] as const;
export type Semantics = (typeof SEMANTICS)[number];

/** What a fact later than its window's allowed lateness becomes, in a stream aggregator's words. */
import { LATE_POLICIES } from './latePolicy.ts';
export { LATE_POLICIES, type LatePolicy } from './latePolicy.ts';

/** The idempotent-consumer techniques of the template's section 4. */
export const TECHNIQUES = ['natural idempotency', 'dedup table', 'version check', 'idempotency key at the target', 'none'] as const;

const scenarioName = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'a scenario name: lower-case words joined by -');
const text = z.string().min(1);

/** A decision and, when a run measures it, the scenario that does. */
const Backed = z.strictObject({ choice: text, scenario: scenarioName.optional() });

const Flow = z.strictObject({
  id: text,
  event: text,
  producer: text,
  consumer: text,
  lost: text,
  duplicated: text,
  semantics: z.enum(SEMANTICS),
  /** How the semantics is reached, in the register's words: "dedup by event ID". */
  how: text,
  technique: z.enum(TECHNIQUES),
  scenario: scenarioName,
});

/**
 * The capacity figures. Volumes and rates are the record's own (no run simulates millions of
 * events); a design parameter absent here is read from the design of the figure's scenario.
 */
const Figures = z.strictObject({
  /** `window`: how long an event id is kept; the scenario's inbox retention when absent. */
  dedup: z.strictObject({ eventsPerDay: z.number().positive(), window: text.optional(), entryBytes: z.number().positive(), scenario: scenarioName.optional() }),
  horizon: z
    .strictObject({ brokerRetention: text.optional(), producerRetry: text.optional(), deadLetterRedrive: text.optional(), approvedReplay: text.optional(), partnerRedelivery: text.optional(), scenario: scenarioName.optional() })
    .optional(),
  retry: z.strictObject({ base: text, factor: z.number().positive(), cap: text, retries: z.number().int().positive(), scenario: scenarioName.optional() }),
  /** `interval`: how often a checkpoint completes; the scenario's when absent. */
  checkpoint: z.strictObject({ ratePerSec: z.number().positive(), interval: text.optional(), recoveryRatePerSec: z.number().positive(), scenario: scenarioName.optional() }),
  backfill: z.strictObject({
    events: z.number().positive(),
    envelopePerSec: z.number().positive(),
    liveReservePerSec: z.number().nonnegative(),
    varianceReservePerSec: z.number().nonnegative(),
    capPerSec: z.number().positive(),
    scenario: scenarioName.optional(),
  }),
});

export const RecordSpecSchema = z.strictObject({
  document: z.strictObject({
    id: text,
    /** The flows covered; the flow register's events when absent. */
    flows: text.optional(),
    broker: text,
    version: text,
    status: z.enum(['Draft', 'In review', 'Approved', 'Implemented', 'Superseded']),
    owner: text,
    producerTeams: z.array(text).min(1),
    consumerTeams: z.array(text).min(1),
    /** A date the author sets; the record never reads a clock, so a rerun gives the same bytes. */
    updated: text.optional(),
    classification: text.optional(),
    related: z.array(text).optional(),
  }),
  approvals: z.array(z.strictObject({ role: text, name: text, decision: text, date: text })).optional(),
  revisions: z.array(z.strictObject({ version: text, date: text, author: text, change: text })).optional(),
  flows: z.array(Flow).min(1),
  outbox: z.strictObject({ relay: Backed, eventId: Backed, ordering: Backed, cleanup: Backed, eventsPerDay: z.number().positive() }),
  figures: Figures,
  rules: z.array(z.strictObject({ rule: text, decision: text, scenario: scenarioName.optional() })),
  limits: z.array(z.strictObject({ boundary: text, effectivelyOnce: z.boolean(), answer: text, why: text, scenario: scenarioName.optional() })),
  saga: z
    .strictObject({
      name: text,
      steps: z.array(z.strictObject({ service: text, action: text, compensation: text, undo: z.enum(['yes', 'yes, with fees', 'no']) })).min(1),
      /** The scenario with the step that cannot be undone placed last, and the one with it first. */
      scenario: scenarioName,
      counter: scenarioName.optional(),
    })
    .optional(),
  monitoring: z.array(z.strictObject({ signal: text, alert: text, scenario: scenarioName.optional() })),
  decisions: z.array(z.strictObject({ id: text, item: text, reason: text, owner: text, status: z.enum(['Decided', 'Open']), scenario: scenarioName.optional() })),
  /**
   * Seed 000's event-time and finality policy, per result a stream computes: which clock assigns
   * a fact to its window and what "final" means to its readers, stated here; the watermark delay,
   * the window, how long a result stays open to revision, what becomes of a later fact and when
   * a silent partition is left out, read from the design of the stream scenario that backs it
   * (given here too, they must agree with it).
   */
  eventTime: z
    .array(
      z.strictObject({
        result: text,
        clock: text,
        finality: text,
        scenario: scenarioName,
        watermarkDelay: text.optional(),
        window: text.optional(),
        lateness: text.optional(),
        late: z.enum(LATE_POLICIES).optional(),
        idleAfter: text.optional(),
      }),
    )
    .optional(),
});

export type RecordSpec = z.output<typeof RecordSpecSchema>;
export type RecordSpecInput = z.input<typeof RecordSpecSchema>;

/** Validates record metadata; a mistake is one InputError line naming the field. */
export function defineRecord(spec: RecordSpecInput, origin = 'record'): RecordSpec {
  return parseOptions(origin, RecordSpecSchema, spec);
}

/** Every scenario the record names, in the order it first names them. */
export function backingScenarios(spec: RecordSpec): string[] {
  const f = spec.figures;
  const names = [
    ...spec.flows.map((x) => x.scenario),
    spec.outbox.relay.scenario,
    spec.outbox.eventId.scenario,
    spec.outbox.ordering.scenario,
    spec.outbox.cleanup.scenario,
    f.dedup.scenario,
    f.horizon?.scenario,
    f.retry.scenario,
    f.checkpoint.scenario,
    f.backfill.scenario,
    ...spec.rules.map((r) => r.scenario),
    ...spec.limits.map((l) => l.scenario),
    spec.saga?.scenario,
    spec.saga?.counter,
    ...spec.monitoring.map((m) => m.scenario),
    ...spec.decisions.map((d) => d.scenario),
    ...(spec.eventTime ?? []).map((e) => e.scenario),
  ];
  return [...new Set(names.filter((n): n is string => n !== undefined))];
}
