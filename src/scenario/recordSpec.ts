// The metadata a decision record (seed 004's template) is filled from: document control, the flow
// register with the semantics each flow chose, the outbox and consumer decisions, the figures the
// capacity arithmetic runs on, the exactly-once boundaries, the saga and the decisions. Every row
// that states a property names the scenario whose measured verdict backs it (one that names none
// is an open item), so the record can say whether the design does what the document claims. A
// figure's design parameters (a dedup window, a checkpoint interval, an event-time policy) may be
// left to the scenario it names, whose design sets them; given in both places, they must agree.
// A scenario carries it as its `record` field; a folder of scenarios (the catalogue included)
// keeps it in a `record.ts` beside them.
import { didYouMean } from '../base/nearest.ts';
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
/** A field's text, with what it is for. */
const said = (description: string) => text.meta({ description });
/** The scenario whose measured verdict backs a row; a row that names none is an open item. */
const backedBy = (what = 'this row') => scenarioName.optional().meta({ description: `The scenario whose measured verdict backs ${what}; without one it is an open item.` });

/** A decision and, when a run measures it, the scenario that does. */
const Backed = z.strictObject({ choice: said('The decision, in the document’s words.'), scenario: backedBy('the decision') });

const Flow = z.strictObject({
  id: said('The register’s id: `EV-01`.'),
  event: said('The event: `review.posted`.'),
  producer: said('The producing service.'),
  consumer: said('The consuming service.'),
  lost: said('What it costs when the event is lost.'),
  duplicated: said('What it costs when the event is applied twice.'),
  semantics: z.enum(SEMANTICS).meta({ description: 'The delivery semantics the flow chose.' }),
  /** How the semantics is reached, in the register's words: "dedup by event ID". */
  how: said('How the semantics is reached: "at-least-once delivery, dedup by event ID".'),
  technique: z.enum(TECHNIQUES).meta({ description: 'The idempotent-consumer technique.' }),
  scenario: scenarioName.meta({ description: 'The scenario that measures the flow.' }),
  /** The claim of that scenario, by its effect, whose verdict is the flow's; the scenario's one claim when absent. */
  claim: said('The claim of that scenario, by its effect, whose verdict says whether the flow is met; required when the scenario makes more than one claim.').optional(),
});

/**
 * The capacity figures, each optional: a record states the figures its design needs. Volumes and
 * rates are the record's own (no run simulates millions of events); a design parameter absent
 * here is read from the design of the figure's scenario.
 */
const Figures = z
  .strictObject({
    /** `window`: how long an event id is kept; the scenario's inbox retention when absent. */
    dedup: z
      .strictObject({
        eventsPerDay: z.number().positive().meta({ description: 'Events per day the dedup table records.' }),
        window: text.optional().meta({ description: 'How long an event id is kept; the inbox retention of the scenario when absent.' }),
        entryBytes: z.number().positive().meta({ description: 'Bytes per row, index overhead included.' }),
        scenario: backedBy('the window'),
      })
      .optional()
      .meta({ description: 'The dedup table’s size.' }),
    horizon: z
      .strictObject({
        brokerRetention: text.optional().meta({ description: 'How long the broker keeps records.' }),
        producerRetry: text.optional().meta({ description: 'How long a producer may retry a send.' }),
        deadLetterRedrive: text.optional().meta({ description: 'How late a dead letter may be re-driven.' }),
        approvedReplay: text.optional().meta({ description: 'How far back an approved replay may go.' }),
        partnerRedelivery: text.optional().meta({ description: 'How late a partner sends a fact again.' }),
        scenario: backedBy('the horizon'),
      })
      .optional()
      .meta({ description: 'Every redelivery path against the dedup window.' }),
    retry: z
      .strictObject({
        base: said('The first wait: `1s`.'),
        factor: z.number().positive().meta({ description: 'Each wait is the last times this.' }),
        cap: said('The longest wait: `60s`.'),
        retries: z.number().int().positive().meta({ description: 'Retries after the first attempt.' }),
        scenario: backedBy('the schedule'),
      })
      .optional()
      .meta({ description: 'The backoff schedule.' }),
    /** `interval`: how often a checkpoint completes; the scenario's when absent. */
    checkpoint: z
      .strictObject({
        ratePerSec: z.number().positive().meta({ description: 'Events per second at peak.' }),
        interval: text.optional().meta({ description: 'How often a checkpoint completes; the scenario’s when absent.' }),
        recoveryRatePerSec: z.number().positive().meta({ description: 'Events per second a recovering processor reads.' }),
        scenario: backedBy('the interval'),
      })
      .optional()
      .meta({ description: 'The replay after a crash; for a design with a checkpointed stream processor.' }),
    backfill: z
      .strictObject({
        events: z.number().positive().meta({ description: 'Events to backfill.' }),
        envelopePerSec: z.number().positive().meta({ description: 'What the system sustains, per second.' }),
        liveReservePerSec: z.number().nonnegative().meta({ description: 'Kept for live traffic, per second.' }),
        varianceReservePerSec: z.number().nonnegative().meta({ description: 'Kept for variance, per second.' }),
        capPerSec: z.number().positive().meta({ description: 'The backfill’s own cap, per second.' }),
        scenario: backedBy('the backfill'),
      })
      .optional()
      .meta({ description: 'How long a backfill takes within the headroom; for a design that backfills.' }),
  })
  .meta({ description: 'The capacity figures, each optional: state the ones the design needs.' });

export const RecordSpecSchema = z.strictObject({
  document: z
    .strictObject({
      id: said('The document’s id: `EVT-REC-001`.'),
      /** The flows covered; the flow register's events when absent. */
      flows: text.optional().meta({ description: 'The flows covered; the flow register’s events when absent.' }),
      broker: said('The broker or transport.'),
      version: said('The document’s version.'),
      status: z.enum(['Draft', 'In review', 'Approved', 'Implemented', 'Superseded']).meta({ description: 'Where the document stands.' }),
      owner: said('Who owns the document.'),
      producerTeams: z.array(text).min(1).meta({ description: 'The producing teams.' }),
      consumerTeams: z.array(text).min(1).meta({ description: 'The consuming teams.' }),
      /** A date the author sets; the record never reads a clock, so a rerun gives the same bytes. */
      updated: text.optional().meta({ description: 'A date the author sets; the record never reads a clock, so a rerun gives the same bytes.' }),
      classification: text.optional().meta({ description: 'Internal unless given.' }),
      related: z.array(text).optional().meta({ description: 'Related documents.' }),
    })
    .meta({ description: 'Document control.' }),
  approvals: z.array(z.strictObject({ role: said('The approver’s role.'), name: said('Who.'), decision: said('Approved, Pending…'), date: said('When.') })).optional().meta({ description: 'Who approved the document, and when.' }),
  revisions: z.array(z.strictObject({ version: said('The version.'), date: said('When.'), author: said('Who.'), change: said('What changed.') })).optional().meta({ description: 'The revision history.' }),
  flows: z.array(Flow).min(1).meta({ description: 'The flow register: each flow, the semantics it chose and the claim that measures it.' }),
  outbox: z
    .strictObject({
      relay: Backed.meta({ description: 'How committed outbox rows are published.' }),
      eventId: Backed.meta({ description: 'Where the event id comes from.' }),
      ordering: Backed.meta({ description: 'What order events keep.' }),
      cleanup: Backed.meta({ description: 'What becomes of published rows.' }),
      eventsPerDay: z.number().positive().meta({ description: 'Outbox rows written per day.' }),
    })
    .meta({ description: 'The outbox decisions.' }),
  figures: Figures.optional(),
  rules: z.array(z.strictObject({ rule: said('The rule: ordering scope, retry policy, poison message…'), decision: said('What was decided.'), scenario: backedBy() })).meta({ description: 'Ordering, retry and dead-letter rules.' }),
  limits: z.array(z.strictObject({ boundary: said('Where the effect crosses a boundary.'), effectivelyOnce: z.boolean().meta({ description: 'Whether it is effectively once there; its run says whether that holds.' }), answer: said('The answer, in words.'), why: said('Why.'), scenario: backedBy() })).meta({ description: 'Each boundary, and whether it is effectively once.' }),
  saga: z
    .strictObject({
      name: said('The saga.'),
      steps: z.array(z.strictObject({ service: text, action: text, compensation: text, undo: z.enum(['yes', 'yes, with fees', 'no']) })).min(1).meta({ description: 'Each step: its service, action and compensation, and whether it can be undone.' }),
      /** The scenario with the step that cannot be undone placed last, and the one with it first. */
      scenario: scenarioName.meta({ description: 'The scenario with the step that cannot be undone placed last.' }),
      counter: scenarioName.optional().meta({ description: 'The scenario with it placed first.' }),
    })
    .optional()
    .meta({ description: 'A multi-service transaction, its steps and their compensations.' }),
  monitoring: z.array(z.strictObject({ signal: said('What is watched.'), alert: said('When it alerts.'), scenario: backedBy() })).meta({ description: 'What is watched, and when it alerts.' }),
  decisions: z.array(z.strictObject({ id: said('ED-01…'), item: said('The decision or open item.'), reason: said('Why.'), owner: said('Who owns it.'), status: z.enum(['Decided', 'Open']), scenario: backedBy() })).meta({ description: 'The decisions and open items.' }),
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
        result: said('The result a stream computes.'),
        clock: said('Which clock assigns a fact to its window.'),
        finality: said('What final means to its readers.'),
        scenario: scenarioName.meta({ description: 'The stream scenario whose design sets the figures below.' }),
        watermarkDelay: text.optional().meta({ description: 'The watermark delay; the scenario’s when absent.' }),
        window: text.optional().meta({ description: 'The window; the scenario’s when absent.' }),
        lateness: text.optional().meta({ description: 'How long a result stays open to revision; the scenario’s when absent.' }),
        late: z.enum(LATE_POLICIES).optional().meta({ description: 'What becomes of a later fact; the scenario’s when absent.' }),
        idleAfter: text.optional().meta({ description: 'When a silent partition is left out; the scenario’s when absent.' }),
      }),
    )
    .optional()
    .meta({ description: 'Per result a stream computes: which clock assigns a fact to its window, and what final means to its readers.' }),
});

export type RecordSpec = z.output<typeof RecordSpecSchema>;
export type RecordSpecInput = z.input<typeof RecordSpecSchema>;

/** Validates record metadata; a mistake is one InputError line naming the field. */
export function defineRecord(spec: RecordSpecInput, origin = 'record'): RecordSpec {
  return parseOptions(origin, RecordSpecSchema, spec, 'field');
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
    f?.dedup?.scenario,
    f?.horizon?.scenario,
    f?.retry?.scenario,
    f?.checkpoint?.scenario,
    f?.backfill?.scenario,
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

/**
 * The claim a flow's verdict is read from: the one it names, else its scenario's one claim;
 * undefined when its scenario makes several and it names none (a load-time problem, below).
 */
export function flowClaim(flow: Pick<RecordSpec['flows'][number], 'claim'>, effects: readonly string[]): string | undefined {
  return flow.claim ?? (effects.length === 1 ? effects[0] : undefined);
}

/**
 * Every flow tied to a claim of its scenario, checked once the scenarios are loaded: a claim it
 * names must be one of that scenario's, and a scenario of several claims needs one named, since a
 * flow is met or not by its own claim's verdict, not by its scenario's other claims.
 */
export function flowClaimProblems(spec: { readonly flows: readonly RecordSpec['flows'][number][] }, effectsOf: (scenario: string) => readonly string[] | undefined): string[] {
  return spec.flows.flatMap((f, i) => {
    const effects = effectsOf(f.scenario);
    if (effects === undefined) return [];
    const where = `flows[${i}] (${f.id})`;
    if (f.claim !== undefined && !effects.includes(f.claim)) return [`${where} names claim ${JSON.stringify(f.claim)}, which scenario ${f.scenario} does not make${didYouMean(f.claim, effects)}; its claims: ${effects.map((e) => JSON.stringify(e)).join(', ')}`];
    if (flowClaim(f, effects) === undefined) return [`${where} names no claim, and scenario ${f.scenario} makes ${effects.length}: name the one that measures the flow with claim: ${effects.map((e) => JSON.stringify(e)).join(' or ')}`];
    return [];
  });
}
