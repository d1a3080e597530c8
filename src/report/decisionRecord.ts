// Seed 004's decision record ("Event Delivery Guarantees"), filled from record metadata and the
// measured verdicts of the scenarios it names, as data: sections of paragraphs and tables whose
// cells say which run backs them. A property the document states and its run contradicts (a flow
// declared effectively-once whose design is violated, a boundary said to be safe that is not) is
// flagged in its row and becomes an open item, and so does every claim clause no run checked and
// every row that names no scenario. The capacity figures come from src/capacity/, the same
// arithmetic `faultline calc` prints, with the design parameters (dedup window, retry waits,
// checkpoint interval) of the scenario each names, and the event-time policies are read from
// their stream scenarios' designs; a figure the metadata states otherwise than its scenario runs
// is flagged. A row backed by a scenario the record leaves out (the catalogue's record narrowed to
// one scenario) names that scenario and prints no figure for it.
// Nothing here reads a clock, so the same metadata and runs always give the same record.
import type Big from 'big.js';
import { backfillDuration } from '../capacity/backfill.ts';
import { checkpointReplay } from '../capacity/checkpoint.ts';
import { dedupSizing } from '../capacity/dedup.ts';
import { dedupHorizon, type HorizonInput } from '../capacity/horizon.ts';
import { retrySchedule } from '../capacity/retry.ts';
import { dec, parseDuration, render, renderDuration, renderDurationWithSeconds, renderSeconds, HOUR_DECIMALS } from '../capacity/units.ts';
import { VIOLATIONS, type Violation } from '../checkers/finding.ts';
import { CLAUSE_FINDS } from '../checkers/clause.ts';
import { InputError } from '../base/inputError.ts';
import { SEMANTICS, backingScenarios, flowClaim, flowClaimProblems, type LatePolicy, type RecordSpec, type Semantics } from '../scenario/recordSpec.ts';
import { replayLine } from '../modes/replayLine.ts';
import type { Scenario } from '../scenario/scenario.ts';
import type { WindowsResult } from '../modes/windows.ts';
import { CLAUSE_TITLES, clauseStatusText } from './describeCoverage.ts';
import { describePlan } from './describePlan.ts';
import { designParameters, type DesignParameters, type EventTimePolicy } from './recordDesign.ts';
import { verdictSummary } from './verdictSummary.ts';
import { repairIsSql, repairQueryText } from './windowCells.ts';

/** One cell: its words, the in-page anchor of the run that backs it, and whether the run contradicts it. */
export interface RecordCell {
  readonly text: string;
  readonly link?: string;
  readonly flag?: boolean;
  readonly code?: boolean;
}

export interface RecordTable {
  readonly head: readonly string[];
  readonly rows: readonly (readonly RecordCell[])[];
}

export type RecordBlock =
  | { readonly kind: 'heading'; readonly text: string }
  | { readonly kind: 'para'; readonly cells: readonly RecordCell[] }
  | { readonly kind: 'table'; readonly table: RecordTable };

export interface RecordSection {
  readonly id: string;
  readonly title: string;
  readonly blocks: readonly RecordBlock[];
}

/** A run the record cites: where its report is, and the line that replays each counterexample. */
export interface RunEvidence {
  readonly name: string;
  readonly title: string;
  readonly anchor: string;
  readonly verdict: string;
  readonly expected: string;
  readonly asExpected: boolean;
  readonly covers: string;
  readonly counterexamples: readonly { readonly anchor: string; readonly violation: Violation; readonly plan: string; readonly replay: string }[];
}

/**
 * Why an item is open: a run contradicts what the record states, a verdict is not what its
 * scenario expects, a stated property no run measures, or a claim clause no run checked.
 */
export type OpenKind = 'contradicted' | 'unexpected' | 'unmeasured' | 'unchecked';

export interface OpenItem {
  readonly id: string;
  readonly kind: OpenKind;
  readonly item: string;
  readonly reason: string;
  readonly link?: string;
}

export interface DecisionRecord {
  readonly title: string;
  readonly sections: readonly RecordSection[];
  readonly openItems: readonly OpenItem[];
  readonly runs: readonly RunEvidence[];
}

export function runAnchor(name: string): string {
  return `run-${name}`;
}

function ceAnchor(name: string, index: number): string {
  return `run-${name}-ce-${index + 1}`;
}

const SEMANTICS_TEXT: Readonly<Record<Semantics, { title: string; meaning: string; arises: string; use: string }>> = {
  'at-most-once': { title: 'At-most-once', meaning: 'Each message delivered zero or one time', arises: 'Acknowledge before processing, no retries', use: 'Loss is cheap (telemetry, some analytics)' },
  'at-least-once': { title: 'At-least-once', meaning: 'Each message delivered one or more times', arises: 'Acknowledge after processing, retry on doubt', use: 'Default for business events' },
  'effectively-once': {
    title: 'Effectively-once',
    meaning: 'The effect of each message is applied once, even if delivered more than once',
    arises: 'At-least-once delivery plus an idempotent consumer, or a transactional read-process-write inside one system',
    use: 'Money, inventory, anything counted',
  },
};

const TECHNIQUE_TEXT: Readonly<Record<string, { how: string; fits: string }>> = {
  'natural idempotency': { how: 'The operation gives the same result when repeated (set status, upsert by key)', fits: 'State updates' },
  'dedup table': { how: 'Record processed event IDs in the same transaction as the effect; skip known IDs', fits: 'Additive effects (send, count, charge)' },
  'version check': { how: "Apply only if the event's version is newer than the stored one", fits: 'Out-of-order updates to one entity' },
  'idempotency key at the target': { how: 'Pass a key to the downstream API so it rejects repeats', fits: 'Payments and external APIs' },
  none: { how: 'Repeats are not suppressed; the semantics accepts what they do', fits: 'Flows whose loss or repeat is declared acceptable' },
};

/** What a monitor watches for when a run finds a violation of this kind. */
const VIOLATION_SIGNALS: Partial<Record<Violation, string>> = {
  'lost effect': 'End-to-end reconciliation: committed facts without their effect',
  'duplicate effect': 'Duplicate rate: one key with more than one committed effect',
  'phantom effect': 'Effects without a committed fact (a compensation that could not undo)',
  'order regression': 'Versions applied out of order (a stored version older than one applied before)',
  'silent revision': 'Closed-period results changed without a correction or a visible version',
  stuck: 'Work stuck in a non-final state (backlog, parked key, saga not finished)',
};

/** What the runs of a scenario found of one claim: the violations its clauses found, whether one could not be decided, and what it promises. */
export function claimJudgement(result: WindowsResult, effect: string): { readonly found: readonly Violation[]; readonly unknown: boolean; readonly guarantee: string } {
  const clauses = result.coverage.clauses.filter((c) => c.effect === effect);
  const found = new Set(clauses.filter((c) => c.status === 'violated').map((c) => CLAUSE_FINDS[c.clause]));
  const claim = result.claims.find((c) => c.effect === effect);
  return { found: VIOLATIONS.filter((v) => found.has(v)), unknown: clauses.some((c) => c.status === 'unknown'), guarantee: claim?.guarantee ?? 'exactlyOnceEffect' };
}

/**
 * Whether a run's verdict bears out the semantics a flow declares, judged on the flow's own claim
 * (the whole scenario's verdict when it names none): effectively-once needs the claim to hold and
 * to promise one effect; at-least-once may repeat but not lose or invent; at-most-once may lose
 * but not repeat or invent. Another claim of the same scenario says nothing of this flow.
 */
export function semanticsCheck(semantics: Semantics, result: WindowsResult, effect?: string): { readonly ok: boolean; readonly reason: string } {
  const own = effect === undefined ? undefined : claimJudgement(result, effect);
  const found = own?.found ?? result.judgement.found;
  const of = effect === undefined ? 'the design' : `its claim ${JSON.stringify(effect)}`;
  if (own === undefined ? result.judgement.verdict === 'unknown' : own.unknown) return { ok: false, reason: 'the run could not decide every clause' };
  if (result.judgement.verdict === 'inconclusive') return { ok: false, reason: 'the search was inconclusive: a bound stopped it before it decided anything' };
  if (semantics === 'effectively-once') {
    if (found.length > 0) return { ok: false, reason: `declared effectively-once, but ${of} is violated (${found.join(', ')})` };
    const weaker = own !== undefined ? (own.guarantee === 'exactlyOnceEffect' ? [] : [{ effect: effect!, guarantee: own.guarantee }]) : result.claims.filter((c) => (c.guarantee ?? 'exactlyOnceEffect') !== 'exactlyOnceEffect');
    if (weaker.length > 0) return { ok: false, reason: `declared effectively-once, but the claim of ${weaker.map((c) => c.effect).join(', ')} promises only ${weaker.map((c) => c.guarantee).join(', ')}` };
    return { ok: true, reason: 'holds: one effect per key under every fault' };
  }
  const allowed: readonly Violation[] = semantics === 'at-least-once' ? ['duplicate effect'] : ['lost effect'];
  const beyond = found.filter((v) => !allowed.includes(v));
  if (beyond.length > 0) return { ok: false, reason: `declared ${semantics}, but ${of} is violated beyond it (${beyond.join(', ')})` };
  return { ok: true, reason: found.length === 0 ? 'holds' : `${found.join(', ')}, which ${semantics} accepts` };
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** What a record is built from besides its metadata and the runs. */
export interface RecordContext {
  /** The scenarios run, by name: a figure reads its design parameters from its scenario's design. */
  readonly scenarios: readonly Scenario[];
  /**
   * Scenarios the metadata names that this record leaves out on purpose (the catalogue's record
   * narrowed to one scenario): their rows name them instead of a measured verdict.
   */
  readonly outside?: readonly string[];
}

/** Where a row stands: measured by a run here, backed by a scenario left out of this record, or backed by none. */
type Backing = { readonly kind: 'run'; readonly name: string; readonly result: WindowsResult } | { readonly kind: 'outside'; readonly name: string } | { readonly kind: 'none' };

/** What a row backed by a scenario left out of the record says instead of a verdict. */
function outsideText(names: readonly string[]): string {
  return names.length === 1 ? `backed by ${names[0]}, a scenario not in this record` : `backed by ${names.join(' and ')}, scenarios not in this record`;
}

/** What a figure the record does not state says in its place: a design that needs none states none. */
const NOT_STATED = 'the record states no figures for it';

/** What a figure no run uses says where a run would be named. */
const ARITHMETIC_ONLY = "arithmetic on the record's own figures: no run uses them";

/** A duration as a record cell shows it: `7 d`, `2 m`, `30 s`. */
function duration(sec: Big): string {
  return renderDuration(sec).text;
}

/** What a fact later than its window's lateness becomes, in the record's words. */
const LATE_TEXT: Readonly<Record<LatePolicy, string>> = {
  correction: 'One correction entry linked to the closed window',
  revise: 'A new version of the closed window, which readers can see',
  overwrite: 'Posted again under the same version: a silent revision',
  review: 'Routed to the correction workflow (review), counted',
  drop: 'Dropped, and the drop posted and counted',
  ignore: 'Dropped without a word',
  retract: 'The version readers hold retracted, then a new version posted',
  wait: 'Routed to the correction workflow (review), counted: the one result was already final',
};

export function buildDecisionRecord(spec: RecordSpec, results: readonly WindowsResult[], context: RecordContext): DecisionRecord {
  const b = recordBuild(spec, results, context);
  const { d, sections, open } = b;
  documentControl(b);
  flowRegister(b);
  deliverySemantics(b);
  outboxSection(b);
  idempotentConsumers(b);
  orderingRetries(b);
  limitsSection(b);
  sagasSection(b);
  monitoringSection(b);
  const eventTimeRows = eventTimeRowsOf(b);
  decisionsSection(b, eventTimeRows);
  closingSections(b);
  const runs: RunEvidence[] = results.map((r) => {
    const v = verdictSummary(r);
    return {
      name: r.name,
      title: r.title,
      anchor: runAnchor(r.name),
      verdict: v.verdict,
      expected: v.expected,
      asExpected: v.asExpected,
      covers: v.covers,
      counterexamples: r.counterexamples.map((ce, i) => ({ anchor: ceAnchor(r.name, i), violation: ce.violation, plan: describePlan(ce.plan), replay: replayLine(ce.replay) })),
    };
  });
  return { title: `Event Delivery Guarantees: ${d.flows ?? spec.flows.map((x) => x.event).join(', ')}`, sections, openItems: open, runs };
}

/** The record's metadata and runs, checked against each other, with the helpers every section reads them through. */
function recordBuild(spec: RecordSpec, results: readonly WindowsResult[], context: RecordContext): RecordBuild {
  const byName = new Map(results.map((r) => [r.name, r]));
  const outside = new Set(context.outside ?? []);
  for (const name of backingScenarios(spec)) if (!byName.has(name) && !outside.has(name)) throw new InputError(`the record names scenario ${name}, which is not among the scenarios given`);
  const unclaimed = flowClaimProblems(spec, (name) => byName.get(name)?.claims.map((c) => c.effect));
  if (unclaimed.length > 0) throw new InputError(`malformed record: ${unclaimed.join('; ')}`);
  const backing = (name: string | undefined): Backing => (name === undefined ? { kind: 'none' } : byName.has(name) ? { kind: 'run', name, result: byName.get(name)! } : { kind: 'outside', name });
  const run = (name: string): WindowsResult => {
    const r = byName.get(name);
    if (r === undefined) throw new InputError(`the record needs the run of scenario ${name}, which it leaves out`);
    return r;
  };
  const designs = new Map<string, DesignParameters>();
  /** The design parameters of a scenario run here, read once. */
  const design = (name: string): DesignParameters => {
    let p = designs.get(name);
    if (p === undefined) {
      const scenario = context.scenarios.find((x) => x.name === name);
      if (scenario === undefined) throw new InputError(`the record reads figures from scenario ${name}, whose design was not given`);
      p = designParameters(scenario);
      designs.set(name, p);
    }
    return p;
  };
  const open: OpenItem[] = [];
  let nextId = spec.decisions.length + 1;
  const addOpen = (kind: OpenKind, item: string, reason: string, link?: string) => {
    open.push({ id: `ED-${String(nextId++).padStart(2, '0')}`, kind, item, reason, ...(link === undefined ? {} : { link }) });
  };
  /** A row that states a property and names no scenario: said in its row, and an open item. */
  const unmeasured = (item: string, what: string) => addOpen('unmeasured', item, `no scenario backs it, so its ${what} is stated, not measured`);

  /**
   * A figure's design parameter: the design's where the scenario sets one, else the record's. A
   * value the record gives that its scenario runs otherwise, or does not have at all, is a
   * disagreement; the figure then uses the run's value where there is one.
   */
  const parameter = (label: string, where: string, typed: string | undefined, fromDesign: Big | undefined, scenario: string | undefined, conflicts: string[]): Big | undefined => {
    const given = typed === undefined ? undefined : parseDuration(where, typed);
    if (scenario !== undefined && given !== undefined) {
      if (fromDesign === undefined) conflicts.push(`the record says ${duration(given)} for ${label}, ${scenario} has none`);
      else if (!given.eq(fromDesign)) conflicts.push(`the record says ${duration(given)} for ${label}, ${scenario} runs ${duration(fromDesign)}`);
    }
    return fromDesign ?? given;
  };
  /** Flags a figure that disagrees with its scenario, and opens an item for it. */
  const disagreement = (figure: string, scenario: string, conflicts: readonly string[]): { readonly suffix: string; readonly flag?: true } => {
    if (conflicts.length === 0) return { suffix: '' };
    addOpen('contradicted', `Make the ${figure} agree with ${scenario}`, conflicts.join('; '), runAnchor(scenario));
    return { suffix: ` DISAGREES with ${scenario}: ${conflicts.join('; ')}.`, flag: true };
  };

  /** The cell of a run's measured verdict, linked to its first counterexample when it has one. */
  const verdictCell = (name: string | undefined, flag = false): RecordCell => {
    if (name === undefined) return { text: 'not measured' };
    if (!byName.has(name)) return { text: outsideText([name]) };
    const r = run(name);
    const found = r.judgement.found;
    const text = `${name}: ${r.judgement.verdict}${found.length > 0 ? ` (${found.join(', ')})` : ''}`;
    return { text, link: r.counterexamples.length > 0 ? ceAnchor(name, 0) : runAnchor(name), ...(flag ? { flag } : {}) };
  };

  const d = spec.document;
  const f = spec.figures ?? {};
  const sections: RecordSection[] = [];
  return { spec, results, context, byName, outside, backing, run, design, open, addOpen, unmeasured, parameter, disagreement, verdictCell, sections, d, f };
}

/** What every section of a record is built from: the metadata, the runs, and the helpers that read them and raise open items. */
interface RecordBuild {
  readonly spec: RecordSpec;
  readonly results: readonly WindowsResult[];
  readonly context: RecordContext;
  readonly byName: ReadonlyMap<string, WindowsResult>;
  readonly outside: ReadonlySet<string>;
  readonly backing: (name: string | undefined) => Backing;
  readonly run: (name: string) => WindowsResult;
  readonly design: (name: string) => DesignParameters;
  readonly open: readonly OpenItem[];
  readonly addOpen: (kind: OpenKind, item: string, reason: string, link?: string) => void;
  readonly unmeasured: (item: string, what: string) => void;
  readonly parameter: (label: string, where: string, typed: string | undefined, fromDesign: Big | undefined, scenario: string | undefined, conflicts: string[]) => Big | undefined;
  readonly disagreement: (figure: string, scenario: string, conflicts: readonly string[]) => { readonly suffix: string; readonly flag?: true };
  readonly verdictCell: (name: string | undefined, flag?: boolean) => RecordCell;
  readonly sections: RecordSection[];
  readonly d: RecordSpec['document'];
  readonly f: NonNullable<RecordSpec['figures']>;
}

/** Document control: the record's metadata, approvals and revisions. */
function documentControl(b: RecordBuild): void {
  const { spec, results, sections, d } = b;
  sections.push({
    id: 'document-control',
    title: 'Document control',
    blocks: [
      {
        kind: 'table',
        table: {
          head: ['Field', 'Value'],
          rows: [
            ['Document ID', d.id],
            ['Flows covered', d.flows ?? spec.flows.map((f) => f.event).join(', ')],
            ['Broker or transport', d.broker],
            ['Version', d.version],
            ['Status', d.status],
            ['Owner', d.owner],
            ['Producer teams', d.producerTeams.join(', ')],
            ['Consumer teams', d.consumerTeams.join(', ')],
            ['Last updated', d.updated ?? 'the date of the commit that last changed this record'],
            ['Classification', d.classification ?? 'Internal'],
            ['Related', (d.related ?? []).join(', ') || 'none'],
            ['Backed by', `${results.length} scenario run${results.length === 1 ? '' : 's'} in windows mode (every single fault); see Evidence`],
          ].map(([k, v]) => [{ text: k! }, { text: v! }]),
        },
      },
      { kind: 'heading', text: 'Approvals' },
      spec.approvals === undefined
        ? { kind: 'para', cells: [{ text: 'None recorded yet.' }] }
        : { kind: 'table', table: { head: ['Role', 'Name', 'Decision', 'Date'], rows: spec.approvals.map((a) => [a.role, a.name, a.decision, a.date].map((t) => ({ text: t }))) } },
      { kind: 'heading', text: 'Revision history' },
      spec.revisions === undefined
        ? { kind: 'para', cells: [{ text: 'None recorded yet.' }] }
        : { kind: 'table', table: { head: ['Version', 'Date', 'Author', 'Change summary'], rows: spec.revisions.map((a) => [a.version, a.date, a.author, a.change].map((t) => ({ text: t }))) } },
    ],
  });

}

/** 1. Flow register: the semantics each flow chose, checked against its run. */
function flowRegister(b: RecordBuild): void {
  const { spec, run, addOpen, verdictCell, sections } = b;
  const flowRows = spec.flows.map((f) => {
    const check = semanticsCheck(f.semantics, run(f.scenario), flowClaim(f, run(f.scenario).claims.map((c) => c.effect)));
    if (!check.ok) addOpen('contradicted', `Repair flow ${f.id} ${f.event} or change its semantics`, check.reason, ceOrRun(run(f.scenario)));
    const semantics: RecordCell = check.ok
      ? { text: `${SEMANTICS_TEXT[f.semantics].title}, ${f.how}`, link: runAnchor(f.scenario) }
      : { text: `${SEMANTICS_TEXT[f.semantics].title}, ${f.how}. NOT MET: ${check.reason}`, link: ceOrRun(run(f.scenario)), flag: true };
    return [{ text: f.id }, { text: f.event, code: true }, { text: f.producer }, { text: f.consumer }, { text: f.lost }, { text: f.duplicated }, semantics, verdictCell(f.scenario, !check.ok)];
  });
  sections.push({
    id: 'flow-register',
    title: '1. Flow register',
    blocks: [{ kind: 'table', table: { head: ['ID', 'Event', 'Producer', 'Consumer', 'Impact if lost', 'Impact if duplicated', 'Semantics chosen', 'Measured'], rows: flowRows } }],
  });

}

/** 2. Delivery semantics, with the flows that chose each. */
function deliverySemantics(b: RecordBuild): void {
  const { spec, sections } = b;
  sections.push({
    id: 'delivery-semantics',
    title: '2. Delivery semantics',
    blocks: [
      {
        kind: 'table',
        table: {
          head: ['Semantics', 'Meaning', 'How it arises', 'Use when', 'Flows that chose it'],
          rows: SEMANTICS.map((s) => {
            const flows = spec.flows.filter((f) => f.semantics === s);
            const t = SEMANTICS_TEXT[s];
            return [
              { text: s === 'effectively-once' ? `${t.title} (exactly-once processing)` : t.title },
              { text: t.meaning },
              { text: t.arises },
              { text: t.use },
              flows.length === 0 ? { text: 'none' } : { text: flows.map((f) => `${f.id} ${f.event}`).join(', '), link: runAnchor(flows[0]!.scenario) },
            ];
          }),
        },
      },
      {
        kind: 'para',
        cells: [
          {
            text: 'A producer that gets no reply cannot know whether its write was committed, so resending gives at-least-once behaviour. An idempotent producer removes duplicates within the log and transactions commit a read-process-write application\u2019s output with its input offsets; writing to an external system needs that system\u2019s cooperation (section 6).',
          },
        ],
      },
    ],
  });

}

/** 3. The transactional outbox. */
function outboxSection(b: RecordBuild): void {
  const { spec, unmeasured, verdictCell, sections } = b;
  const o = spec.outbox;
  const perSecond = render(dec(o.eventsPerDay).div(86400), HOUR_DECIMALS);
  sections.push({
    id: 'outbox',
    title: '3. Publishing: transactional outbox',
    blocks: [
      {
        kind: 'table',
        table: {
          head: ['Decision', 'Options', 'Choice', 'Measured'],
          rows: [
            ['Relay type', 'Polling publisher, or transaction log tailing (change data capture)', o.relay],
            ['Event ID', 'UUID or database sequence, assigned in the transaction', o.eventId],
            ['Ordering', 'Per aggregate: partition key = aggregate ID', o.ordering],
            ['Outbox cleanup', 'Delete or archive published rows after a retention period', o.cleanup],
          ]
            .map(([k, opts, b]) => {
              const backed = b as { choice: string; scenario?: string };
              if (backed.scenario === undefined) unmeasured(`Measure the outbox decision "${k as string}"`, 'choice');
              return [{ text: k as string }, { text: opts as string }, { text: backed.choice }, verdictCell(backed.scenario)];
            })
            .concat([[{ text: 'Volume' }, { text: 'Average and peak events per second' }, { text: `${render(o.eventsPerDay).text} per day, about ${perSecond.text} per second on average` }, { text: 'arithmetic: events per day ÷ 86,400 s' }]]),
        },
      },
    ],
  });

}

/** 4. Idempotent consumers, dedup sizing and horizon. The window is the one the backing scenario's inbox keeps; the volume is the record's own. */
function idempotentConsumers(b: RecordBuild): void {
  const { spec, verdictCell, sections, f } = b;
  const { cells: sizingCells, windowSec: dedupWindowSec } = dedupSizingCells(b);
  const blocks4: RecordBlock[] = [
    {
      kind: 'table',
      table: {
        head: ['Flow', 'Consumer', 'Technique', 'How it works', 'Fits', 'Measured'],
        rows: spec.flows.map((x) => [{ text: `${x.id} ${x.event}` }, { text: x.consumer }, { text: cap(x.technique) }, { text: TECHNIQUE_TEXT[x.technique]!.how }, { text: TECHNIQUE_TEXT[x.technique]!.fits }, verdictCell(x.scenario)]),
      },
    },
    { kind: 'para', cells: sizingCells },
  ];
  if (f.horizon !== undefined) blocks4.push({ kind: 'para', cells: [horizonCell(b, f.horizon, dedupWindowSec)] });
  sections.push({ id: 'idempotent-consumers', title: '4. Idempotent consumers', blocks: blocks4 });
}

/** The dedup table's size: the record's volume kept for the window its backing scenario's inbox keeps (or the record's own). */
function dedupSizingCells(b: RecordBuild): { readonly cells: RecordCell[]; readonly windowSec: Big | undefined } {
  const { backing, design, parameter, disagreement, f } = b;
  const dedupBacking = backing(f.dedup?.scenario);
  if (f.dedup === undefined) return { cells: [{ text: `Dedup table sizing: ${NOT_STATED}.` }], windowSec: undefined };
  if (dedupBacking.kind === 'outside') return { cells: [{ text: `Dedup table sizing: ${outsideText([dedupBacking.name])}.` }], windowSec: undefined };
  const name = dedupBacking.kind === 'run' ? dedupBacking.name : undefined;
  const fromDesign = name === undefined ? undefined : design(name).inboxRetentionSec;
  if (name !== undefined && fromDesign === undefined && f.dedup.window === undefined) throw new InputError(`figures.dedup names scenario ${name}, whose inbox keeps event ids for ever; give figures.dedup.window, or name a scenario whose inbox table has a ttl`);
  if (name === undefined && f.dedup.window === undefined) throw new InputError('figures.dedup needs a window, or a scenario whose inbox table has a ttl');
  const conflicts: string[] = [];
  const windowSec = parameter('the dedup window', 'figures.dedup.window', f.dedup.window, fromDesign, name, conflicts)!;
  const sizing = dedupSizing({ ratePerDay: f.dedup.eventsPerDay, windowSec, entryBytes: f.dedup.entryBytes });
  const gb = render(sizing.logicalBytes.div(1e9)).text;
  const off = name === undefined ? undefined : disagreement('dedup sizing', name, conflicts);
  const source = name === undefined ? ` ${cap(ARITHMETIC_ONLY)}.` : fromDesign === undefined ? '' : ` The window is the inbox retention ${name} runs.`;
  const cells: RecordCell[] = [
    {
      text: `Dedup table sizing: ${render(f.dedup.eventsPerDay).text} events per day kept for ${renderDurationWithSeconds(windowSec)} is ${render(sizing.entries).text} rows; at about ${render(f.dedup.entryBytes).text} bytes per row including index overhead that is ${gb} GB.${source}${off?.suffix ?? ''}`,
      ...(name === undefined ? {} : { link: runAnchor(name) }),
      ...(off?.flag ? { flag: true } : {}),
    },
  ];
  return { cells, windowSec };
}

/**
 * The dedup horizon: every redelivery path against the window. Where a scenario backs it, the
 * paths its design has (partner redelivery, broker retention) and the window its inbox keeps
 * are the run's; a path only the record states is said to be the record's own.
 */
function horizonCell(build: RecordBuild, h: NonNullable<NonNullable<RecordSpec['figures']>['horizon']>, dedupWindowSec: Big | undefined): RecordCell {
  const { backing, design, addOpen, unmeasured, parameter, disagreement, f } = build;
  const b = backing(h.scenario);
  if (b.kind === 'outside') return { text: `Dedup horizon: ${outsideText([b.name])}.` };
  const name = b.kind === 'run' ? b.name : undefined;
  const p = name === undefined ? {} : design(name);
  const conflicts: string[] = [];
  if (name !== undefined && p.inboxRetentionSec !== undefined && dedupWindowSec !== undefined && !p.inboxRetentionSec.eq(dedupWindowSec)) {
    conflicts.push(`the record's dedup window is ${duration(dedupWindowSec)}, ${name} keeps its inbox ${duration(p.inboxRetentionSec)}`);
  }
  const windowSec = p.inboxRetentionSec ?? dedupWindowSec;
  if (windowSec === undefined) return { text: f.dedup?.scenario === undefined ? `Dedup horizon: ${NOT_STATED} for its window.` : `Dedup horizon: its window is ${outsideText([f.dedup.scenario])}.` };
  const brokerRetentionSec = parameter('the broker retention', 'figures.horizon.brokerRetention', h.brokerRetention, p.brokerRetentionSec, name, conflicts);
  const partnerRedeliverySec = parameter('the partner redelivery', 'figures.horizon.partnerRedelivery', h.partnerRedelivery, p.partnerRedeliverySec, name, conflicts);
  const stated: string[] = [];
  const typed = (label: string, key: 'producerRetry' | 'deadLetterRedrive' | 'approvedReplay'): Big | undefined => {
    const raw = h[key];
    if (raw === undefined) return undefined;
    stated.push(label);
    return parseDuration(`figures.horizon.${key}`, raw);
  };
  const producerRetrySec = typed('producer-retry', 'producerRetry');
  const deadLetterRedriveSec = typed('dead-letter-redrive', 'deadLetterRedrive');
  const approvedReplaySec = typed('approved-replay', 'approvedReplay');
  const input: HorizonInput = {
    windowSec,
    ...(brokerRetentionSec === undefined ? {} : { brokerRetentionSec }),
    ...(producerRetrySec === undefined ? {} : { producerRetrySec }),
    ...(deadLetterRedriveSec === undefined ? {} : { deadLetterRedriveSec }),
    ...(approvedReplaySec === undefined ? {} : { approvedReplaySec }),
    ...(partnerRedeliverySec === undefined ? {} : { partnerRedeliverySec }),
  };
  const horizon = dedupHorizon(input);
  const reqs = horizon.requirements.map((r) => `${r.name} ${renderDuration(r.sec).text}`).join(', ');
  const verdict = horizon.valid
    ? `valid: ${reqs} fit inside the ${renderDuration(windowSec).text} window`
    : `INVALID: ${horizon.exceeding.join(', ')} reach past the ${renderDuration(windowSec).text} window by ${renderDurationWithSeconds(horizon.gapSec!)}, so a late duplicate is applied again`;
  if (!horizon.valid) addOpen('contradicted', 'Lengthen the dedup retention or shorten the redelivery paths', verdict, name === undefined ? undefined : runAnchor(name));
  if (name === undefined) {
    unmeasured(`Measure the dedup horizon: no run keeps a ${duration(windowSec)} window against ${reqs || 'its redelivery paths'}`, 'verdict');
    return { text: `Dedup horizon: ${verdict} (${ARITHMETIC_ONLY}).`, ...(horizon.valid ? {} : { flag: true }) };
  }
  const off = disagreement('dedup horizon', name, conflicts);
  const own = stated.length === 0 ? '' : ` ${cap(stated.join(', '))} ${stated.length === 1 ? 'is' : 'are'} the record's own: ${name} has no such path.`;
  return { text: `Dedup horizon, as ${name} runs it: ${verdict}.${own}${off.suffix}`, link: runAnchor(name), ...(horizon.valid && !off.flag ? {} : { flag: true }) };
}

/** 5. Ordering, retries and dead letters; the replay and backfill arithmetic. The retry waits and the checkpoint interval are the backing scenario's; the rates are the record's own. */
function orderingRetries(b: RecordBuild): void {
  const { spec, unmeasured, verdictCell, sections } = b;
  const ruleRows = spec.rules.map((r) => {
    if (r.scenario === undefined) unmeasured(`Measure the rule "${r.rule}"`, 'decision');
    return [{ text: r.rule }, { text: r.decision }, verdictCell(r.scenario)];
  });
  const blocks5: RecordBlock[] = [{ kind: 'table', table: { head: ['Rule', 'Decision', 'Measured'], rows: ruleRows } }, { kind: 'heading', text: 'Backoff schedule' }];
  blocks5.push(...retryBlocks(b));
  const figureRows = replayFigureRows(b);
  blocks5.push(
    { kind: 'heading', text: 'Replay after a restore and backfill' },
    figureRows.length === 0 ? { kind: 'para', cells: [{ text: `Replay and backfill: ${NOT_STATED}.` }] } : { kind: 'table', table: { head: ['Figure', 'Arithmetic', 'Backed by'], rows: figureRows } },
  );
  sections.push({ id: 'ordering-retries', title: '5. Ordering, retries and dead letters', blocks: blocks5 });
}

/** The backoff schedule: the waits the backing scenario's caller runs, or the record's own arithmetic. */
function retryBlocks(b: RecordBuild): RecordBlock[] {
  const { backing, design, disagreement, f } = b;
  const blocks: RecordBlock[] = [];
  const retryBacking = backing(f.retry?.scenario);
  if (f.retry === undefined) blocks.push({ kind: 'para', cells: [{ text: `Backoff schedule: ${NOT_STATED}.` }] });
  else if (retryBacking.kind === 'outside') blocks.push({ kind: 'para', cells: [{ text: `Backoff schedule: ${outsideText([retryBacking.name])}.` }] });
  else {
    const name = retryBacking.kind === 'run' ? retryBacking.name : undefined;
    const retry = retrySchedule({ baseSec: parseDuration('figures.retry.base', f.retry.base), factor: f.retry.factor, capSec: parseDuration('figures.retry.cap', f.retry.cap), retries: f.retry.retries });
    const ran = name === undefined ? undefined : design(name).retryWaitsSec;
    if (name !== undefined && ran === undefined) throw new InputError(`figures.retry names scenario ${name}, whose design has no retry schedule`);
    const waits: readonly Big[] = ran ?? retry.waitsSec;
    const cumulative = waits.reduce<Big[]>((acc, w) => [...acc, (acc[acc.length - 1] ?? dec(0)).plus(w)], []);
    const same = waits.length === retry.waitsSec.length && waits.every((w, i) => w.eq(retry.waitsSec[i]!));
    const conflicts = same ? [] : [`the record's schedule waits ${retry.waitsSec.map((w) => render(w, 3).text).join(', ')} s, ${name} waits ${waits.map((w) => render(w, 3).text).join(', ')} s`];
    const off = name === undefined ? { suffix: '' } : disagreement('retry schedule', name, conflicts);
    const total = retry.cumulativeSec[retry.cumulativeSec.length - 1]!;
    blocks.push(
      {
        kind: 'table',
        table: {
          head: ['Retry', ...waits.map((_, i) => String(i + 1))],
          rows: [
            [{ text: 'Wait before retry (s)' }, ...waits.map((w) => ({ text: render(w, 3).text }))],
            [{ text: 'Cumulative wait (s)' }, ...cumulative.map((w) => ({ text: render(w, 3).text }))],
          ],
        },
      },
      {
        kind: 'para',
        cells: [
          {
            text: `Exponential backoff ${renderSeconds(retry.baseSec).text} × ${render(retry.factor).text}^(n−1), capped at ${renderSeconds(retry.capSec).text}: first attempt plus ${retry.retries} retries, ${renderSeconds(total).text} of waiting in total${name === undefined ? ` (${ARITHMETIC_ONLY})` : `, the schedule ${name} runs`}. Add random jitter to each wait in production.${off.suffix}`,
            ...(name === undefined ? {} : { link: runAnchor(name) }),
            ...(off.flag ? { flag: true } : {}),
          },
        ],
      },
    );
  }
  return blocks;
}

/** The cell naming what backs a figure: its run, a scenario left out of the record, or the record's own arithmetic. */
function backedBy(b: Backing, flag?: true): RecordCell {
  return b.kind === 'run' ? { text: b.name, link: runAnchor(b.name), ...(flag ? { flag } : {}) } : b.kind === 'outside' ? { text: outsideText([b.name]) } : { text: ARITHMETIC_ONLY };
}

/** The replay and backfill figures: the checkpoint interval is the one the backing scenario's processor checkpoints at. */
function replayFigureRows(b: RecordBuild): RecordCell[][] {
  const { backing, design, parameter, disagreement, f } = b;
  const figureRows: RecordCell[][] = [];
  const checkpointBacking = backing(f.checkpoint?.scenario);
  if (f.checkpoint === undefined) {
    // A design without a checkpointed processor states no checkpoint figures.
  } else if (checkpointBacking.kind === 'outside') {
    for (const figure of ['Replay after a crash (average)', 'Replay after a crash (full interval)']) figureRows.push([{ text: figure }, { text: '—' }, backedBy(checkpointBacking)]);
  } else {
    const name = checkpointBacking.kind === 'run' ? checkpointBacking.name : undefined;
    const fromDesign = name === undefined ? undefined : design(name).checkpointIntervalSec;
    if (fromDesign === undefined && f.checkpoint.interval === undefined) throw new InputError(name === undefined ? 'figures.checkpoint needs an interval, or a scenario whose design takes checkpoints' : `figures.checkpoint names scenario ${name}, whose design takes no checkpoints; give figures.checkpoint.interval, or name a scenario whose processor checkpoints`);
    const conflicts: string[] = [];
    const intervalSec = parameter('the checkpoint interval', 'figures.checkpoint.interval', f.checkpoint.interval, fromDesign, name, conflicts)!;
    const off = name === undefined ? { suffix: '' } : disagreement('checkpoint replay', name, conflicts);
    const cp = checkpointReplay({ ratePerSec: f.checkpoint.ratePerSec, intervalSec, recoveryRatePerSec: f.checkpoint.recoveryRatePerSec });
    figureRows.push(
      [{ text: 'Replay after a crash (average)' }, { text: `${render(cp.ratePerSec).text}/s × ${render(cp.intervalSec.div(2)).text} s = ${render(cp.averageReplayEvents).text} events, caught up in ${renderSeconds(cp.idealCatchUpAverageSec).text} at ${render(cp.netCatchUpPerSec).text}/s net${off.suffix}` }, backedBy(checkpointBacking, off.flag)],
      [{ text: 'Replay after a crash (full interval)' }, { text: `${render(cp.ratePerSec).text}/s × ${render(cp.intervalSec).text} s = ${render(cp.fullReplayEvents).text} events, caught up in ${renderSeconds(cp.idealCatchUpFullSec).text}` }, backedBy(checkpointBacking, off.flag)],
    );
  }
  if (f.backfill !== undefined) {
    const bf = backfillDuration({ events: f.backfill.events, envelopePerSec: f.backfill.envelopePerSec, liveReservePerSec: f.backfill.liveReservePerSec, varianceReservePerSec: f.backfill.varianceReservePerSec, capPerSec: f.backfill.capPerSec });
    const backfillBacking = backing(f.backfill.scenario);
    const backfill = (text: string): RecordCell => ({ text: backfillBacking.kind === 'outside' ? '—' : text });
    figureRows.push(
      [{ text: 'Backfill headroom' }, backfill(`${render(bf.envelopePerSec).text}/s − ${render(bf.liveReservePerSec).text}/s live − ${render(bf.varianceReservePerSec).text}/s variance = ${render(bf.headroomPerSec).text}/s; cap ${render(bf.capPerSec).text}/s`), backedBy(backfillBacking)],
      [{ text: 'Backfill duration' }, backfill(`${render(bf.events).text} ÷ ${render(bf.capPerSec).text}/s = ${renderSeconds(bf.durationSec).text} ≈ ${render(bf.durationHours, HOUR_DECIMALS).text} hours`), backedBy(backfillBacking)],
    );
  }
  return figureRows;
}

/** 6. Exactly-once limits: each boundary's answer measured by a run. */
function limitsSection(b: RecordBuild): void {
  const { spec, run, addOpen, verdictCell, sections } = b;
  const limitRows = spec.limits.map((l) => {
    if (l.scenario === undefined) {
      addOpen('unmeasured', `Measure the boundary "${l.boundary}"`, 'no scenario backs it, so its answer is stated, not measured');
      return [{ text: l.boundary }, { text: l.answer }, { text: l.why }, { text: 'not measured', flag: true }, { text: '—' }];
    }
    const r = run(l.scenario);
    const holds = r.judgement.verdict === 'holds' || r.judgement.verdict === 'holds within bound';
    const agrees = holds === l.effectivelyOnce;
    if (!agrees) addOpen('contradicted', `Revisit the boundary "${l.boundary}"`, `the record says ${l.effectivelyOnce ? 'yes' : 'no'}, the run says ${r.judgement.verdict}`, ceOrRun(r));
    const ce = r.counterexamples[0];
    const replay: RecordCell = ce === undefined ? { text: 'no counterexample: every single fault holds', link: runAnchor(l.scenario) } : { text: replayLine(ce.replay), code: true, link: ceAnchor(l.scenario, 0) };
    return [{ text: l.boundary }, { text: agrees ? l.answer : `${l.answer}. CONTRADICTED by the run`, link: ceOrRun(r), ...(agrees ? {} : { flag: true }) }, { text: l.why }, verdictCell(l.scenario, !agrees), replay];
  });
  sections.push({ id: 'exactly-once-limits', title: '6. Exactly-once: limits', blocks: [{ kind: 'table', table: { head: ['Boundary', 'Effectively once?', 'Why', 'Measured', 'Replay'], rows: limitRows } }] });

}

/** 7. The saga: which steps can be undone, and where the one that cannot goes. */
function sagasSection(b: RecordBuild): void {
  const { spec, byName, run, addOpen, sections } = b;
  const blocks7: RecordBlock[] = [];
  const sagaLeftOut = spec.saga === undefined ? [] : [spec.saga.scenario, spec.saga.counter].filter((n): n is string => n !== undefined && !byName.has(n));
  if (spec.saga === undefined) blocks7.push({ kind: 'para', cells: [{ text: 'No multi-service transaction in this record.' }] });
  else if (sagaLeftOut.length > 0) blocks7.push({ kind: 'para', cells: [{ text: `${spec.saga.name}: ${outsideText(sagaLeftOut)}.` }] });
  else {
    const s = spec.saga;
    const main = run(s.scenario);
    const mainHolds = main.judgement.verdict === 'holds';
    const counter = s.counter === undefined ? undefined : run(s.counter);
    const irreversible = s.steps.flatMap((st, i) => (st.undo === 'no' ? [i] : []));
    const lastOk = irreversible.every((i) => i === s.steps.length - 1) && irreversible.length <= 1;
    const pivotOk = mainHolds && lastOk && (counter === undefined || counter.judgement.verdict === 'violated');
    blocks7.push({
      kind: 'table',
      table: {
        head: ['Step', 'Service', 'Action', 'Compensation', 'Can it be undone?'],
        rows: s.steps.map((st, i) => {
          const undo: RecordCell =
            st.undo === 'no'
              ? { text: `No, so it runs ${i === s.steps.length - 1 ? 'last' : `at step ${i + 1} of ${s.steps.length}: it must run last`}`, link: counter ? ceOrRun(counter) : runAnchor(s.scenario), ...(lastOk ? {} : { flag: true }) }
              : { text: cap(st.undo), link: runAnchor(s.scenario), ...(mainHolds ? {} : { flag: true }) };
          return [{ text: String(i + 1) }, { text: st.service }, { text: st.action }, { text: st.compensation }, undo];
        }),
      },
    });
    const pivot = irreversible.map((i) => `step ${i + 1} (${s.steps[i]!.action})`).join(', ') || 'none';
    blocks7.push({
      kind: 'para',
      cells: [
        { text: `${s.name}. Pivot: ${pivot} cannot be undone, so it goes after the last step that can fail. ` },
        { text: `With it last: ${main.name} ${main.judgement.verdict}.`, link: ceOrRun(main), ...(mainHolds ? {} : { flag: true }) },
        ...(counter === undefined ? [] : [{ text: ` With it first: ${counter.name} ${counter.judgement.verdict}${counter.judgement.found.length ? ` (${counter.judgement.found.join(', ')})` : ''}.`, link: ceOrRun(counter), ...(counter.judgement.verdict === 'violated' ? {} : { flag: true }) }]),
      ],
    });
    if (!pivotOk) addOpen('contradicted', `Move the step that cannot be undone in ${s.name} after the last step that can fail`, `${main.name} is ${main.judgement.verdict}${lastOk ? '' : '; the irreversible step is not last'}`, ceOrRun(main));
  }
  sections.push({ id: 'sagas', title: '7. Sagas for multi-service transactions', blocks: blocks7 });

}

/** 8. Monitoring: the declared signals, then what the runs say to watch. */
function monitoringSection(b: RecordBuild): void {
  const { spec, results, unmeasured, verdictCell, sections } = b;
  const derived: RecordCell[][] = [];
  const guards = new Map<string, Set<string>>();
  for (const r of results) for (const row of r.rows) for (const g of row.guards) guards.set(g, (guards.get(g) ?? new Set()).add(r.name));
  for (const [g, names] of [...guards].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const first = [...names][0]!;
    derived.push([{ text: `Duplicate rate: hits on the guard ${g}` }, { text: [...names].join(', '), link: runAnchor(first) }, { text: `repeats the guard ${g} suppressed, per second; alert when the rate rises above its baseline` }]);
  }
  for (const r of results) {
    r.counterexamples.forEach((ce, i) => {
      const row = r.rows.find((x) => x.outcome === ce.violation && repairQueryText(x) !== '');
      derived.push([
        { text: VIOLATION_SIGNALS[ce.violation] ?? cap(ce.violation) },
        { text: `${r.name}: ${ce.violation}`, link: ceAnchor(r.name, i) },
        row === undefined ? { text: 'no repair query: the claim declares no tables' } : { text: repairQueryText(row), code: repairIsSql(row) },
      ]);
    });
  }
  sections.push({
    id: 'monitoring',
    title: '8. Monitoring',
    blocks: [
      {
        kind: 'table',
        table: {
          head: ['Signal', 'Example alert', 'Measured'],
          rows: spec.monitoring.map((m) => {
            if (m.scenario === undefined) unmeasured(`Measure the signal "${m.signal}"`, 'alert');
            return [{ text: m.signal }, { text: m.alert }, verdictCell(m.scenario)];
          }),
        },
      },
      { kind: 'heading', text: 'Signals the runs call for' },
      derived.length === 0 ? { kind: 'para', cells: [{ text: 'No run suppressed a repeat or found a violation.' }] } : { kind: 'table', table: { head: ['Signal', 'From the run', 'Repair query or alert'], rows: derived } },
    ],
  });

}

/** 10 (seed 000). Event time and finality, each policy backed by a stream run whose design sets its watermark, window, lateness and late policy; computed before the open items, so a run that contradicts its policy, or a policy the record states otherwise than its run, is one. */
function eventTimeRowsOf(b: RecordBuild): RecordCell[][] {
  const { spec, run, design, addOpen, parameter, disagreement, verdictCell } = b;
  return (spec.eventTime ?? []).map((e) => {
    const r = run(e.scenario);
    const bad = !r.judgement.asExpected;
    if (bad) addOpen('unexpected', `Revisit the event-time policy of ${e.result}`, `${r.name} is ${verdictSummary(r).verdict}, not as expected`, ceOrRun(r));
    const policy = design(e.scenario).eventTime;
    if (policy === undefined) throw new InputError(`the event-time row "${e.result}" names scenario ${e.scenario}, whose design has no event-time operator`);
    const conflicts: string[] = [];
    parameter('the watermark delay', 'eventTime.watermarkDelay', e.watermarkDelay, policy.watermarkDelaySec, e.scenario, conflicts);
    parameter('the window', 'eventTime.window', e.window, policy.windowSec, e.scenario, conflicts);
    parameter('the allowed lateness', 'eventTime.lateness', e.lateness, policy.latenessSec, e.scenario, conflicts);
    parameter('leaving a silent partition out', 'eventTime.idleAfter', e.idleAfter, policy.idleSec, e.scenario, conflicts);
    if (e.late !== undefined && e.late !== policy.late) conflicts.push(`the record sends a later fact to ${e.late}, ${e.scenario} to ${policy.late}`);
    const off = disagreement(`event-time policy of ${e.result}`, e.scenario, conflicts);
    const text = eventTimeText(policy);
    const measured = verdictCell(e.scenario, bad || off.flag === true);
    return [
      { text: e.result },
      { text: e.clock },
      { text: text.watermark },
      { text: text.window },
      { text: text.lateness },
      { text: text.late },
      { text: e.finality },
      off.flag ? { ...measured, text: `${measured.text}.${off.suffix}` } : measured,
    ];
  });

}

/** 9. Decisions, then the open items the runs raise. */
function decisionsSection(b: RecordBuild, eventTimeRows: RecordCell[][]): void {
  const { spec, results, backing, open, addOpen, unmeasured, verdictCell, sections, d } = b;
  const decisionRows = spec.decisions.map((x) => {
    if (x.scenario === undefined && x.status === 'Decided') unmeasured(`Measure ${x.id}: ${x.item}`, 'decision');
    const b = backing(x.scenario);
    const r = b.kind === 'run' ? b.result : undefined;
    const bad = r !== undefined && !r.judgement.asExpected;
    if (bad) addOpen('unexpected', `Revisit ${x.id}: ${x.item}`, `${r!.name} is ${verdictSummary(r!).verdict}, not as expected`, ceOrRun(r!));
    return [{ text: x.id }, { text: x.item }, { text: x.reason }, { text: x.owner }, { text: x.status }, verdictCell(x.scenario, bad)];
  });
  for (const r of results) {
    if (!r.judgement.asExpected && !spec.decisions.some((x) => x.scenario === r.name)) addOpen('unexpected', `Explain ${r.name}: its verdict is not as expected`, verdictSummary(r).problems.join('; '), ceOrRun(r));
  }
  for (const r of results) {
    for (const c of r.claims) {
      const unchecked = r.coverage.clauses.filter((k) => k.effect === c.effect && (k.status === 'not checked' || k.status === 'not exercised' || k.status === 'unknown' || k.status === 'inconclusive'));
      if (unchecked.length === 0) continue;
      addOpen(
        'unchecked',
        `Check ${unchecked.map((k) => `"${CLAUSE_TITLES[k.clause]}"`).join(', ')} for ${c.effect} (${r.name})`,
        unchecked.map((k) => `${CLAUSE_TITLES[k.clause]}: ${clauseStatusText(k.status)}`).join('; '),
        runAnchor(r.name),
      );
    }
  }
  const owner = d.owner;
  sections.push({
    id: 'decisions',
    title: '9. Decisions and open items',
    blocks: [
      {
        kind: 'table',
        table: {
          head: ['ID', 'Decision or open item', 'Reason', 'Owner', 'Status', 'Measured'],
          rows: [...decisionRows, ...open.map((x) => [{ text: x.id }, { text: x.item }, { text: x.reason }, { text: owner }, { text: 'Open', ...(x.kind === 'contradicted' || x.kind === 'unexpected' ? { flag: true } : {}) }, x.link === undefined ? { text: 'not measured' } : { text: 'see run', link: x.link }])],
        },
      },
    ],
  });

  if (eventTimeRows.length > 0) {
    sections.push({
      id: 'event-time',
      title: '10. Event time and finality',
      blocks: [
        { kind: 'para', cells: [{ text: 'Which clock assigns a fact to its window, when a window counts as complete, how long its result may still change, and what "final" means to the readers of each result (seed 000: "State the event-time, watermark, lateness, correction, and finality policy explicitly").' }] },
        { kind: 'table', table: { head: ['Result', 'Clock', 'Watermark', 'Window', 'Open to revision', 'Later facts', 'Final means', 'Measured'], rows: eventTimeRows } },
      ],
    });
  }

}

/** closingSections */
function closingSections(b: RecordBuild): void {
  const { sections } = b;
  sections.push({
    id: 'glossary',
    title: 'Glossary and references',
    blocks: [
      {
        kind: 'table',
        table: {
          head: ['Term', 'Meaning'],
          rows: [
            ['Outbox', 'Table written in the same transaction as the business change, holding events to publish'],
            ['Relay', 'Process that reads the outbox and publishes to the broker'],
            ['Idempotent', 'Applying an operation more than once has the same effect as once'],
            ['Dead-letter topic', 'Destination for messages that failed all retries'],
            ['Saga', 'Sequence of local transactions with compensating actions instead of one distributed transaction'],
            ['Compensation', 'Action that semantically undoes an earlier step'],
          ].map(([a, b]) => [{ text: a! }, { text: b! }]),
        },
      },
      {
        kind: 'para',
        cells: [
          {
            text: 'References: Richardson C., "Pattern: Transactional outbox", microservices.io; Garcia-Molina H., Salem K., "Sagas", SIGMOD 1987, https://doi.org/10.1145/38713.38742; Helland P., "Life Beyond Distributed Transactions", ACM Queue 14(5), 2016, https://doi.org/10.1145/3012426.3025012; Apache Kafka 4.4 documentation, Design, delivery semantics.',
          },
        ],
      },
    ],
  });

}

/** The cells of an event-time policy, in the words of seed 000's policy statement. */
export function eventTimeText(p: EventTimePolicy): { readonly watermark: string; readonly window: string; readonly lateness: string; readonly late: string } {
  return {
    watermark: `Maximum observed event time − ${duration(p.watermarkDelaySec)}; ${p.idleSec === undefined ? 'a silent partition holds every window open' : `a partition silent ${duration(p.idleSec)} is left out`}`,
    window: `Tumbling, ${duration(p.windowSec)}`,
    lateness: p.latenessSec.eq(0)
      ? 'None: a window closes when the watermark passes its end'
      : p.late === 'wait'
        ? `${duration(p.latenessSec)} after the window ends, before which nothing is posted; then one result, final at once`
        : `${duration(p.latenessSec)} after the window ends, ${p.late === 'retract' ? 'each revision retracting the version before it' : 'revised under the next version'}`,
    late: LATE_TEXT[p.late],
  };
}

/** A run's first counterexample when it has one, else the run itself. */
function ceOrRun(r: WindowsResult): string {
  return r.counterexamples.length > 0 ? ceAnchor(r.name, 0) : runAnchor(r.name);
}
