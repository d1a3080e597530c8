// Seed 004's decision record ("Event Delivery Guarantees"), filled from record metadata and the
// measured verdicts of the scenarios it names, as data: sections of paragraphs and tables whose
// cells say which run backs them. A property the document states and its run contradicts (a flow
// declared effectively-once whose design is violated, a boundary said to be safe that is not) is
// flagged in its row and becomes an open item, and so does every claim clause no run checked.
// The capacity figures come from src/capacity/, the same arithmetic `faultline calc` prints.
// Nothing here reads a clock, so the same metadata and runs always give the same record.
import { backfillDuration } from '../capacity/backfill.ts';
import { checkpointReplay } from '../capacity/checkpoint.ts';
import { dedupSizing } from '../capacity/dedup.ts';
import { dedupHorizon, type HorizonInput } from '../capacity/horizon.ts';
import { retrySchedule } from '../capacity/retry.ts';
import { dec, parseDuration, render, renderDuration, renderDurationWithSeconds, renderSeconds, HOUR_DECIMALS } from '../capacity/units.ts';
import type { Violation } from '../checkers/finding.ts';
import { InputError } from '../inputError.ts';
import { SEMANTICS, backingScenarios, type RecordSpec, type Semantics } from '../recordSpec.ts';
import { replayLine } from '../replayLine.ts';
import type { WindowsResult } from '../windows.ts';
import { CLAUSE_TITLES, clauseStatusText } from './describeCoverage.ts';
import { describePlan } from './describePlan.ts';
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

/**
 * Whether a run's verdict bears out the semantics a flow declares: effectively-once needs the
 * claim to hold and to promise one effect; at-least-once may repeat but not lose or invent;
 * at-most-once may lose but not repeat or invent.
 */
export function semanticsCheck(semantics: Semantics, result: WindowsResult): { readonly ok: boolean; readonly reason: string } {
  const found = result.judgement.found;
  if (result.judgement.verdict === 'unknown') return { ok: false, reason: 'the run could not decide every clause' };
  if (semantics === 'effectively-once') {
    if (found.length > 0) return { ok: false, reason: `declared effectively-once, but the design is violated (${found.join(', ')})` };
    const weaker = result.claims.filter((c) => (c.guarantee ?? 'exactlyOnceEffect') !== 'exactlyOnceEffect');
    if (weaker.length > 0) return { ok: false, reason: `declared effectively-once, but the claim of ${weaker.map((c) => c.effect).join(', ')} promises only ${weaker.map((c) => c.guarantee).join(', ')}` };
    return { ok: true, reason: 'holds: one effect per key under every fault' };
  }
  const allowed: readonly Violation[] = semantics === 'at-least-once' ? ['duplicate effect'] : ['lost effect'];
  const beyond = found.filter((v) => !allowed.includes(v));
  if (beyond.length > 0) return { ok: false, reason: `declared ${semantics}, but the design is violated beyond it (${beyond.join(', ')})` };
  return { ok: true, reason: found.length === 0 ? 'holds' : `${found.join(', ')}, which ${semantics} accepts` };
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function buildDecisionRecord(spec: RecordSpec, results: readonly WindowsResult[]): DecisionRecord {
  const byName = new Map(results.map((r) => [r.name, r]));
  for (const name of backingScenarios(spec)) if (!byName.has(name)) throw new InputError(`the record names scenario ${name}, which is not among the scenarios given`);
  const run = (name: string): WindowsResult => byName.get(name)!;
  const open: OpenItem[] = [];
  let nextId = spec.decisions.length + 1;
  const addOpen = (kind: OpenKind, item: string, reason: string, link?: string) => {
    open.push({ id: `ED-${String(nextId++).padStart(2, '0')}`, kind, item, reason, ...(link === undefined ? {} : { link }) });
  };

  /** The cell of a run's measured verdict, linked to its first counterexample when it has one. */
  const verdictCell = (name: string | undefined, flag = false): RecordCell => {
    if (name === undefined) return { text: 'not measured' };
    const r = run(name);
    const found = r.judgement.found;
    const text = `${name}: ${r.judgement.verdict}${found.length > 0 ? ` (${found.join(', ')})` : ''}`;
    return { text, link: r.counterexamples.length > 0 ? ceAnchor(name, 0) : runAnchor(name), ...(flag ? { flag } : {}) };
  };
  const linkTo = (name: string | undefined): string | undefined => (name === undefined ? undefined : runAnchor(name));

  const sections: RecordSection[] = [];
  const d = spec.document;
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

  // 1. Flow register: the semantics each flow chose, checked against its run.
  const flowRows = spec.flows.map((f) => {
    const check = semanticsCheck(f.semantics, run(f.scenario));
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

  // 2. Delivery semantics, with the flows that chose each.
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

  // 3. The transactional outbox.
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
              return [{ text: k as string }, { text: opts as string }, { text: backed.choice }, verdictCell(backed.scenario)];
            })
            .concat([[{ text: 'Volume' }, { text: 'Average and peak events per second' }, { text: `${render(o.eventsPerDay).text} per day, about ${perSecond.text} per second on average` }, { text: 'arithmetic: events per day ÷ 86,400 s' }]]),
        },
      },
    ],
  });

  // 4. Idempotent consumers, dedup sizing and horizon.
  const f = spec.figures;
  const windowSec = parseDuration('figures.dedup.window', f.dedup.window);
  const sizing = dedupSizing({ ratePerDay: f.dedup.eventsPerDay, windowSec, entryBytes: f.dedup.entryBytes });
  const gb = render(sizing.logicalBytes.div(1e9)).text;
  const sizingCells: RecordCell[] = [
    {
      text: `Dedup table sizing: ${render(f.dedup.eventsPerDay).text} events per day kept for ${renderDurationWithSeconds(windowSec)} is ${render(sizing.entries).text} rows; at about ${render(f.dedup.entryBytes).text} bytes per row including index overhead that is ${gb} GB.`,
      ...(f.dedup.scenario === undefined ? {} : { link: runAnchor(f.dedup.scenario) }),
    },
  ];
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
  if (f.horizon !== undefined) {
    const h = f.horizon;
    const input: HorizonInput = {
      windowSec,
      ...(h.brokerRetention === undefined ? {} : { brokerRetentionSec: parseDuration('figures.horizon.brokerRetention', h.brokerRetention) }),
      ...(h.producerRetry === undefined ? {} : { producerRetrySec: parseDuration('figures.horizon.producerRetry', h.producerRetry) }),
      ...(h.deadLetterRedrive === undefined ? {} : { deadLetterRedriveSec: parseDuration('figures.horizon.deadLetterRedrive', h.deadLetterRedrive) }),
      ...(h.approvedReplay === undefined ? {} : { approvedReplaySec: parseDuration('figures.horizon.approvedReplay', h.approvedReplay) }),
      ...(h.partnerRedelivery === undefined ? {} : { partnerRedeliverySec: parseDuration('figures.horizon.partnerRedelivery', h.partnerRedelivery) }),
    };
    const horizon = dedupHorizon(input);
    const reqs = horizon.requirements.map((r) => `${r.name} ${renderDuration(r.sec).text}`).join(', ');
    const verdict = horizon.valid
      ? `valid: ${reqs} fit inside the ${renderDuration(windowSec).text} window`
      : `INVALID: ${horizon.exceeding.join(', ')} reach past the ${renderDuration(windowSec).text} window by ${renderDurationWithSeconds(horizon.gapSec!)}, so a late duplicate is applied again`;
    if (!horizon.valid) addOpen('contradicted', 'Lengthen the dedup retention or shorten the redelivery paths', verdict, linkTo(h.scenario));
    blocks4.push({ kind: 'para', cells: [{ text: `Dedup horizon: ${verdict}.`, ...(h.scenario === undefined ? {} : { link: runAnchor(h.scenario) }), ...(horizon.valid ? {} : { flag: true }) }] });
  }
  sections.push({ id: 'idempotent-consumers', title: '4. Idempotent consumers', blocks: blocks4 });

  // 5. Ordering, retries and dead letters; the replay and backfill arithmetic.
  const retry = retrySchedule({ baseSec: parseDuration('figures.retry.base', f.retry.base), factor: f.retry.factor, capSec: parseDuration('figures.retry.cap', f.retry.cap), retries: f.retry.retries });
  const total = retry.cumulativeSec[retry.cumulativeSec.length - 1]!;
  const cp = checkpointReplay({ ratePerSec: f.checkpoint.ratePerSec, intervalSec: parseDuration('figures.checkpoint.interval', f.checkpoint.interval), recoveryRatePerSec: f.checkpoint.recoveryRatePerSec });
  const bf = backfillDuration({ events: f.backfill.events, envelopePerSec: f.backfill.envelopePerSec, liveReservePerSec: f.backfill.liveReservePerSec, varianceReservePerSec: f.backfill.varianceReservePerSec, capPerSec: f.backfill.capPerSec });
  const backed = (text: string, scenario: string | undefined): RecordCell => ({ text, ...(scenario === undefined ? {} : { link: runAnchor(scenario) }) });
  sections.push({
    id: 'ordering-retries',
    title: '5. Ordering, retries and dead letters',
    blocks: [
      { kind: 'table', table: { head: ['Rule', 'Decision', 'Measured'], rows: spec.rules.map((r) => [{ text: r.rule }, { text: r.decision }, verdictCell(r.scenario)]) } },
      { kind: 'heading', text: 'Backoff schedule' },
      {
        kind: 'table',
        table: {
          head: ['Retry', ...retry.waitsSec.map((_, i) => String(i + 1))],
          rows: [
            [{ text: 'Wait before retry (s)' }, ...retry.waitsSec.map((w) => ({ text: render(w, 3).text }))],
            [{ text: 'Cumulative wait (s)' }, ...retry.cumulativeSec.map((w) => ({ text: render(w, 3).text }))],
          ],
        },
      },
      {
        kind: 'para',
        cells: [
          backed(
            `Exponential backoff ${renderSeconds(retry.baseSec).text} × ${render(retry.factor).text}^(n−1), capped at ${renderSeconds(retry.capSec).text}: first attempt plus ${retry.retries} retries, ${renderSeconds(total).text} of waiting in total. Add random jitter to each wait in production.`,
            f.retry.scenario,
          ),
        ],
      },
      { kind: 'heading', text: 'Replay after a restore and backfill' },
      {
        kind: 'table',
        table: {
          head: ['Figure', 'Arithmetic'],
          rows: [
            [{ text: 'Replay after a crash (average)' }, backed(`${render(cp.ratePerSec).text}/s × ${render(cp.intervalSec.div(2)).text} s = ${render(cp.averageReplayEvents).text} events, caught up in ${renderSeconds(cp.idealCatchUpAverageSec).text} at ${render(cp.netCatchUpPerSec).text}/s net`, f.checkpoint.scenario)],
            [{ text: 'Replay after a crash (full interval)' }, backed(`${render(cp.ratePerSec).text}/s × ${render(cp.intervalSec).text} s = ${render(cp.fullReplayEvents).text} events, caught up in ${renderSeconds(cp.idealCatchUpFullSec).text}`, f.checkpoint.scenario)],
            [{ text: 'Backfill headroom' }, backed(`${render(bf.envelopePerSec).text}/s − ${render(bf.liveReservePerSec).text}/s live − ${render(bf.varianceReservePerSec).text}/s variance = ${render(bf.headroomPerSec).text}/s; cap ${render(bf.capPerSec).text}/s`, f.backfill.scenario)],
            [{ text: 'Backfill duration' }, backed(`${render(bf.events).text} ÷ ${render(bf.capPerSec).text}/s = ${renderSeconds(bf.durationSec).text} ≈ ${render(bf.durationHours, HOUR_DECIMALS).text} hours`, f.backfill.scenario)],
          ],
        },
      },
    ],
  });

  // 6. Exactly-once limits: each boundary's answer measured by a run.
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

  // 7. The saga: which steps can be undone, and where the one that cannot goes.
  const blocks7: RecordBlock[] = [];
  if (spec.saga === undefined) blocks7.push({ kind: 'para', cells: [{ text: 'No multi-service transaction in this record.' }] });
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

  // 8. Monitoring: the declared signals, then what the runs say to watch.
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
      { kind: 'table', table: { head: ['Signal', 'Example alert', 'Measured'], rows: spec.monitoring.map((m) => [{ text: m.signal }, { text: m.alert }, verdictCell(m.scenario)]) } },
      { kind: 'heading', text: 'Signals the runs call for' },
      derived.length === 0 ? { kind: 'para', cells: [{ text: 'No run suppressed a repeat or found a violation.' }] } : { kind: 'table', table: { head: ['Signal', 'From the run', 'Repair query or alert'], rows: derived } },
    ],
  });

  // 10 (seed 000). Event time and finality, each policy backed by a stream run; computed before the
  // open items, so a run that contradicts its policy is one of them.
  const eventTimeRows = (spec.eventTime ?? []).map((e) => {
    const r = run(e.scenario);
    const bad = !r.judgement.asExpected;
    if (bad) addOpen('unexpected', `Revisit the event-time policy of ${e.result}`, `${r.name} is ${verdictSummary(r).verdict}, not as expected`, ceOrRun(r));
    return [{ text: e.result }, { text: e.clock }, { text: e.watermark }, { text: e.window }, { text: e.lateness }, { text: e.late }, { text: e.finality }, verdictCell(e.scenario, bad)];
  });

  // 9. Decisions, then the open items the runs raise.
  const decisionRows = spec.decisions.map((x) => {
    const r = x.scenario === undefined ? undefined : run(x.scenario);
    const bad = r !== undefined && !r.judgement.asExpected;
    if (bad) addOpen('unexpected', `Revisit ${x.id}: ${x.item}`, `${r!.name} is ${verdictSummary(r!).verdict}, not as expected`, ceOrRun(r!));
    return [{ text: x.id }, { text: x.item }, { text: x.reason }, { text: x.owner }, { text: x.status }, verdictCell(x.scenario, bad)];
  });
  for (const r of results) {
    if (!r.judgement.asExpected && !spec.decisions.some((x) => x.scenario === r.name)) addOpen('unexpected', `Explain ${r.name}: its verdict is not as expected`, verdictSummary(r).problems.join('; '), ceOrRun(r));
  }
  for (const r of results) {
    for (const c of r.claims) {
      const unchecked = r.coverage.clauses.filter((k) => k.effect === c.effect && (k.status === 'not checked' || k.status === 'not exercised' || k.status === 'unknown'));
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

/** A run's first counterexample when it has one, else the run itself. */
function ceOrRun(r: WindowsResult): string {
  return r.counterexamples.length > 0 ? ceAnchor(r.name, 0) : runAnchor(r.name);
}
