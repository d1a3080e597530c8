// The decision record: the catalogue's record has every section of seed 004's template, each
// stated property is checked against the verdict of the run that backs it (a flow declared
// effectively-once over a violated design is flagged, a boundary said to be safe that is not is
// contradicted), every claim clause no run checked and every row no scenario backs becomes an open
// item, the capacity figures are the ones `faultline calc` prints for the design parameters of
// the scenarios they name (a figure the record states otherwise than its scenario runs is
// flagged), the event-time policies are their stream scenarios', a record narrowed to one
// scenario names the scenarios behind the rows it leaves unmeasured, and every link of both
// forms lands on an anchor of the page.
import { describe, expect, it } from 'vitest';
import { runCalc } from '../../src/capacity/runCalc.ts';
import { loadScenario } from '../../src/scenario/catalogue.ts';
import type { Scenario } from '../../src/scenario/scenario.ts';
import { InputError } from '../../src/base/inputError.ts';
import { backingScenarios, flowClaimProblems, type RecordSpec } from '../../src/scenario/recordSpec.ts';
import { narrowRecord } from '../../src/scenario/recordSource.ts';
import { defineScenario } from '../../src/scenario/scenario.ts';
import reviewPosted from '../../scenarios/flow-review-posted.ts';
import { replayLine } from '../../src/modes/replayLine.ts';
import { dec } from '../../src/capacity/units.ts';
import { buildDecisionRecord, eventTimeText, runAnchor, semanticsCheck, type DecisionRecord, type RecordCell } from '../../src/report/decisionRecord.ts';
import { designParameters } from '../../src/report/recordDesign.ts';
import { renderRecordHtml } from '../../src/report/recordHtml.ts';
import { renderRecordMarkdown } from '../../src/report/recordMarkdown.ts';
import { runWindows, type WindowsResult } from '../../src/modes/windows.ts';
import catalogueRecord from '../../scenarios/record.ts';

/** Scenarios the tests cite beyond the catalogue record: designs that break what a row states. */
const EXTRA = ['flow-rating-changed-fire-and-forget', 'dedup-horizon-covers-redelivery'];

/** What the checks below judge: the runs of the scenarios the record names, and the record built from them. */
interface Runs {
  readonly results: ReadonlyMap<string, WindowsResult>;
  readonly scenarios: ReadonlyMap<string, Scenario>;
  /** The catalogue's record, as `faultline record all` builds it. */
  readonly record: DecisionRecord;
  readonly all: () => WindowsResult[];
  /** What every record here is built with: the designs of every scenario run. */
  readonly context: () => { scenarios: Scenario[] };
  /** The runs of the scenarios the catalogue record cites, as `faultline record all` runs them. */
  readonly cited: () => WindowsResult[];
}

/** Every check of the runs, titled by its section and what it asserts, in the order they are made. */
const checks: { readonly title: string; readonly check: (runs: Runs) => void }[] = [];

function judge(section: string, titled: Record<string, (runs: Runs) => void>): void {
  for (const [title, check] of Object.entries(titled)) checks.push({ title: `${section} ${title}`, check });
}

const table = (r: DecisionRecord, id: string, index = 0) => r.sections.find((s) => s.id === id)!.blocks.filter((b) => b.kind === 'table')[index]!;
const rows = (r: DecisionRecord, id: string, index = 0): readonly (readonly RecordCell[])[] => {
  const t = table(r, id, index);
  return t.kind === 'table' ? t.table.rows : [];
};

// Nearly every check needs the runs of all the scenarios the record names, so one test makes the
// runs and then every check, each scenario run once (vitest.mutants.config.ts says why not in a
// hook, nor kept for later tests). A failed check is named in the failure.
describe('the decision record over the runs of the scenarios it names', () => {
  it('passes every check below', async () => {
    const results = new Map<string, WindowsResult>();
    const scenarios = new Map<string, Scenario>();
    for (const name of [...backingScenarios(catalogueRecord), ...EXTRA]) {
      const { scenario } = await loadScenario(name);
      scenarios.set(name, scenario);
      results.set(name, runWindows(scenario));
    }
    const context = () => ({ scenarios: [...scenarios.values()] });
    const cited = (): WindowsResult[] => backingScenarios(catalogueRecord).map((n) => results.get(n)!);
    const runs: Runs = { results, scenarios, record: buildDecisionRecord(catalogueRecord, cited(), context()), all: () => [...results.values()], context, cited };
    // The sections below register 17 checks; fewer would mean some were lost.
    expect(checks.length).toBeGreaterThanOrEqual(17);
    for (const { title, check } of checks) {
      try {
        check(runs);
      } catch (e) {
        if (e instanceof Error) e.message = `${title}:\n${e.message}`;
        throw e;
      }
    }
  }, 300_000);
});

judge('the catalogue record', {
  'has every section of the template, in its order, in both forms': ({ record }) => {
    const titles = ['Document control', '1. Flow register', '2. Delivery semantics', '3. Publishing: transactional outbox', '4. Idempotent consumers', '5. Ordering, retries and dead letters', '6. Exactly-once: limits', '7. Sagas for multi-service transactions', '8. Monitoring', '9. Decisions and open items', '10. Event time and finality', 'Glossary and references'];
    expect(record.sections.map((s) => s.title)).toEqual(titles);
    const md = renderRecordMarkdown(record);
    const headings = md.split('\n').filter((l) => l.startsWith('## ')).map((l) => l.slice(3));
    expect(headings).toEqual([...titles, 'Evidence: the runs behind this record']);
    for (const sub of ['### Approvals', '### Revision history', '### Backoff schedule']) expect(md).toContain(sub);
    const html = renderRecordHtml(record);
    for (const s of record.sections) expect(html).toContain(`<section id="${s.id}">\n<h2>${s.title.replace(/&/g, '&amp;')}</h2>`);
  },

  'registers the four flows of the seed with the semantics chosen, each met by its run': ({ record }) => {
    const register = rows(record, 'flow-register');
    expect(register.map((r) => r[0]!.text)).toEqual(['EV-01', 'EV-02', 'EV-03', 'EV-04']);
    expect(register.map((r) => r[1]!.text)).toEqual(['review.posted', 'rating.changed', 'page.viewed', 'gift.payment.captured']);
    for (const r of register) {
      expect(r[6]!.flag, r[6]!.text).toBeUndefined();
      expect(r[7]!.text).toMatch(/: holds$/);
    }
    expect(register[0]![6]).toEqual({ text: 'Effectively-once, at-least-once delivery, dedup by event ID', link: runAnchor('flow-review-posted') });
    expect(record.openItems.filter((x) => x.kind === 'contradicted' || x.kind === 'unexpected')).toEqual([]);
  },

  'answers each exactly-once boundary from its run, with the replay line of its counterexample': ({ record, results }) => {
    const limits = rows(record, 'exactly-once-limits');
    const email = limits.find((r) => r[0]!.text === 'Consumer sends email or push notification')!;
    const ce = results.get('email-confirmation')!.counterexamples[0]!;
    expect(email[1]!.flag).toBeUndefined();
    expect(email[3]!.text).toBe('email-confirmation: violated (duplicate effect)');
    expect(email[4]).toEqual({ text: replayLine(ce.replay), code: true, link: 'run-email-confirmation-ce-1' });
    // The topic-to-topic boundary is measured both ways: the transaction holds under every single
    // fault, and the offset committed after the output writes a result twice.
    const transactional = limits[0]!;
    expect(transactional[0]!.text).toBe('Broker topic to broker topic with transactional read-process-write');
    expect(transactional[1]!.flag).toBeUndefined();
    expect(transactional[3]!.text).toBe('topic-transactional-read-process-write: holds');
    expect(transactional[4]).toEqual({ text: 'no counterexample: every single fault holds', link: runAnchor('topic-transactional-read-process-write') });
    const separate = limits[1]!;
    const sce = results.get('topic-read-process-write-separate-commit')!.counterexamples[0]!;
    expect(separate[1]!.flag).toBeUndefined();
    expect(separate[3]!.text).toBe('topic-read-process-write-separate-commit: violated (duplicate effect)');
    expect(separate[4]).toEqual({ text: replayLine(sce.replay), code: true, link: 'run-topic-read-process-write-separate-commit-ce-1' });
    // Where the boundary ends: the processor's email is outside the transaction.
    const email2 = limits[2]!;
    expect(email2[0]!.text).toMatch(/plus an email sent by the processor$/);
    expect(email2[1]!.flag).toBeUndefined();
    expect(email2[3]!.text).toBe('topic-transactional-read-process-write-email: violated (lost effect, duplicate effect)');
    expect(limits.every((r) => r[3]!.text !== 'not measured')).toBe(true);
    expect(record.openItems.filter((x) => x.kind === 'unmeasured' && x.item.startsWith('Measure the boundary'))).toEqual([]);
  },

  'makes every row that names no scenario an open item, and says "not measured" in it': ({ record }) => {
    const unmeasured = record.openItems.filter((x) => x.kind === 'unmeasured');
    expect(unmeasured.map((x) => x.item)).toEqual([
      'Measure the dedup horizon: no run keeps a 7 d window against broker-retention 3 d, approved-replay 7 d',
      'Measure the rule "Schema evolution"',
      'Measure ED-02: Consumers keep a 7-day dedup table for additive effects',
    ]);
    expect(unmeasured[1]!.reason).toBe('no scenario backs it, so its decision is stated, not measured');
    const schema = rows(record, 'ordering-retries').find((r) => r[0]!.text === 'Schema evolution')!;
    expect(schema[2]).toEqual({ text: 'not measured' });
    const decisions = rows(record, 'decisions');
    for (const x of unmeasured) expect(decisions.find((r) => r[0]!.text === x.id)!.map((c) => c.text)).toEqual([x.id, x.item, x.reason, '@platform-events-lead', 'Open', 'not measured']);
    // Every other row of the metadata names the scenario whose run backs it.
    const named = [...catalogueRecord.rules, ...catalogueRecord.limits, ...catalogueRecord.monitoring, ...catalogueRecord.decisions, ...Object.values(catalogueRecord.outbox).filter((v) => typeof v === 'object')];
    expect(named.filter((r) => r.scenario === undefined).length).toBe(2);
  },

  'puts the step that cannot be undone last, backed by both saga runs': ({ record }) => {
    const steps = rows(record, 'sagas');
    expect(steps.map((s) => s[4]!.text)).toEqual(['Yes', 'Yes', 'Yes', 'Yes, with fees', 'No, so it runs last']);
    expect(steps[4]![4]!.link).toBe('run-gift-saga-email-first-ce-1');
    const md = renderRecordMarkdown(record);
    expect(md).toContain('Pivot: step 5 (Email gift code to recipient) cannot be undone');
    expect(md).toContain('With it first: gift-saga-email-first violated (phantom effect).');
  },

  'computes dedup sizing, the retry schedule, checkpoint replay and backfill as calc does, with the design parameters of the scenarios they name': ({ record }) => {
    const md = renderRecordMarkdown(record);
    // The window is the 7 days dedup-horizon-7d-vs-30d keeps its inbox for: seed 004's figure.
    const dedup = runCalc(['dedup', '--rate', '20000000/d', '--window', '7d', '--entry-bytes', '64']).json as { entries: string; logicalGB: string };
    expect(dedup).toMatchObject({ entries: '140000000', logicalGB: '8.96' });
    expect(md).toContain(`kept for 7 d (604,800 s) is ${Number(dedup.entries).toLocaleString('en-US')} rows; at about 64 bytes per row including index overhead that is ${dedup.logicalGB} GB. The window is the inbox retention dedup-horizon-7d-vs-30d runs.`);
    const retry = runCalc(['retry', '--base', '1s', '--factor', '2', '--cap', '60s', '--retries', '8']).json as { waitsSec: string[]; cumulativeSec: string[]; totalWaitSec: string };
    expect(md).toContain(`| Wait before retry (s) | ${retry.waitsSec.join(' | ')} |`);
    expect(md).toContain(`| Cumulative wait (s) | ${retry.cumulativeSec.join(' | ')} |`);
    expect(md).toContain(`first attempt plus 8 retries, ${retry.totalWaitSec} s of waiting in total`);
    // The interval is the 30 seconds stream-checkpoint-transactional-sink's processor checkpoints at, seed 000's.
    const cp = runCalc(['checkpoint', '--rate', '18000', '--interval', '30s', '--recovery-rate', '24000']).json as Record<string, string>;
    expect(cp).toMatchObject({ averageReplayEvents: '270000', fullReplayEvents: '540000' });
    expect(md).toContain('| Replay after a crash (average) | 18,000/s × 15 s = 270,000 events, caught up in 45 s at 6,000/s net | [stream-checkpoint-transactional-sink](#run-stream-checkpoint-transactional-sink) |');
    expect(md).toContain('18,000/s × 30 s = 540,000 events, caught up in 90 s');
    const bf = runCalc(['backfill', '--events', '1.2e9', '--envelope', '25000', '--live-reserve', '20000', '--variance-reserve', '1000', '--cap', '4000']).json as { durationSec: string; durationHours: string };
    expect(md).toContain(`| Backfill duration | 1,200,000,000 ÷ 4,000/s = ${Number(bf.durationSec).toLocaleString('en-US')} s ≈ ${bf.durationHours} hours | arithmetic on the record's own figures: no run uses them |`);
    expect(md).toContain('20,000,000 per day, about 231.48 per second on average');
  },

  'turns every claim clause no run checked into an open item naming the clause and the run': ({ record, cited }) => {
    const expected = cited().flatMap((r) => r.claims.filter((c) => r.coverage.clauses.some((k) => k.effect === c.effect && k.status !== 'holds' && k.status !== 'violated')).map((c) => `${c.effect} (${r.name})`));
    const unchecked = record.openItems.filter((x) => x.kind === 'unchecked');
    expect(unchecked.map((x) => x.item.replace(/^Check ("[^"]*", )*"[^"]*" for /, ''))).toEqual(expected);
    const review = unchecked.find((x) => x.item.endsWith('(flow-review-posted)'))!;
    expect(review.item).toBe('Check "the same intent returns the recorded result" for the followers\u2019 notification of a posted review (flow-review-posted)'.replace('\u2019', "'"));
    expect(review.reason).toBe('the same intent returns the recorded result: not checked (the claim gives no observer for it)');
    expect(review.link).toBe('run-flow-review-posted');
    const decisions = rows(record, 'decisions');
    expect(decisions.find((r) => r[0]!.text === review.id)!.map((c) => c.text)).toEqual([review.id, review.item, review.reason, '@platform-events-lead', 'Open', 'see run']);
  },

  'links every cell of both forms to an anchor the page holds': ({ record }) => {
    const md = renderRecordMarkdown(record);
    const mdAnchors = new Set([...md.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]));
    const mdLinks = [...md.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]);
    expect(mdLinks.length).toBeGreaterThan(50);
    expect(mdLinks.filter((l) => !mdAnchors.has(l))).toEqual([]);
    const html = renderRecordHtml(record);
    const ids = new Set([...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]));
    const hrefs = [...html.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]);
    expect(hrefs.filter((h) => !ids.has(h))).toEqual([]);
    expect(html).not.toMatch(/<script|<link|src=|url\(/);
  },
});

const withFlow = (patch: Partial<RecordSpec['flows'][number]>): RecordSpec => ({ ...catalogueRecord, flows: catalogueRecord.flows.map((f) => (f.id === 'EV-02' ? { ...f, ...patch } : f)) });

judge('a property its run contradicts', {
  'flags a flow declared effectively-once whose backing design is violated, and opens an item': ({ all, context }) => {
    const r = buildDecisionRecord(withFlow({ scenario: 'flow-rating-changed-fire-and-forget' }), all(), context());
    const row = rows(r, 'flow-register')[1]!;
    expect(row[6]).toEqual({
      text: 'Effectively-once, at-least-once delivery, idempotent upsert. NOT MET: declared effectively-once, but its claim "a rating\'s contribution to the book\'s feature" is violated (order regression)',
      link: 'run-flow-rating-changed-fire-and-forget-ce-1',
      flag: true,
    });
    expect(row[7]).toMatchObject({ text: 'flow-rating-changed-fire-and-forget: violated (order regression)', flag: true });
    expect(r.openItems.filter((x) => x.kind === 'contradicted').map((x) => x.item)).toEqual(['Repair flow EV-02 rating.changed or change its semantics']);
    expect(renderRecordMarkdown(r)).toContain('| ⚠ **[Effectively-once, at-least-once delivery, idempotent upsert. NOT MET:');
  },

  'judges each semantics by what it may lose or repeat': ({ results }) => {
    const fireAndForget = results.get('flow-rating-changed-fire-and-forget')!;
    const pageViewed = results.get('flow-page-viewed')!;
    const email = results.get('email-confirmation')!;
    expect(semanticsCheck('at-most-once', fireAndForget)).toEqual({ ok: false, reason: 'declared at-most-once, but the design is violated beyond it (order regression)' });
    expect(semanticsCheck('at-least-once', email)).toEqual({ ok: true, reason: 'duplicate effect, which at-least-once accepts' });
    expect(semanticsCheck('at-most-once', email).ok).toBe(false);
    expect(semanticsCheck('at-most-once', pageViewed).ok).toBe(true);
    // The page-view design holds only because its claim accepts loss: it is not effectively-once.
    expect(semanticsCheck('effectively-once', pageViewed)).toEqual({ ok: false, reason: 'declared effectively-once, but the claim of a counted page view promises only atMostOnce' });
  },

  'contradicts a boundary said to be safe whose run is violated, and a saga whose irreversible step is not last': ({ all, context }) => {
    const spec: RecordSpec = {
      ...catalogueRecord,
      limits: catalogueRecord.limits.map((l) => (l.scenario === 'email-confirmation' ? { ...l, effectivelyOnce: true, answer: 'Yes' } : l)),
      saga: { ...catalogueRecord.saga!, scenario: 'gift-saga-email-first', counter: 'gift-saga-email-last' },
    };
    const r = buildDecisionRecord(spec, all(), context());
    const email = rows(r, 'exactly-once-limits').find((x) => x[0]!.text === 'Consumer sends email or push notification')!;
    expect(email[1]).toMatchObject({ text: 'Yes. CONTRADICTED by the run', flag: true });
    expect(r.openItems.filter((x) => x.kind === 'contradicted').map((x) => x.item)).toEqual([
      'Revisit the boundary "Consumer sends email or push notification"',
      'Move the step that cannot be undone in Gift purchase saga (orchestrated) after the last step that can fail',
    ]);
  },

  'refuses a record that names a scenario it was not given': ({ cited, context }) => {
    expect(() => buildDecisionRecord(catalogueRecord, cited().filter((r) => r.name !== 'mercury-outbox'), context())).toThrow(InputError);
    expect(() => buildDecisionRecord(catalogueRecord, cited().filter((r) => r.name !== 'mercury-outbox'), context())).toThrow('the record names scenario mercury-outbox, which is not among the scenarios given');
  },
});

judge('a record narrowed to one scenario', {
  'says "backed by a scenario not in this record", naming it, where the catalogue record measures a row elsewhere': ({ results, scenarios }) => {
    const n = narrowRecord(catalogueRecord, 'mercury-outbox')!;
    const r = buildDecisionRecord(n.spec, [results.get('mercury-outbox')!], { scenarios: [scenarios.get('mercury-outbox')!], outside: n.outside });
    const outbox = rows(r, 'outbox');
    expect(outbox.map((x) => x[3]!.text)).toEqual([
      'mercury-outbox: holds',
      'mercury-outbox: holds',
      'backed by ordering-per-aggregate-relay, a scenario not in this record',
      'backed by outbox-cleanup-published, a scenario not in this record',
      'arithmetic: events per day ÷ 86,400 s',
    ]);
    const md = renderRecordMarkdown(r);
    expect(md).toContain('Gift purchase saga (orchestrated): backed by gift-saga-email-last and gift-saga-email-first, scenarios not in this record.');
    expect(md).toContain('Dedup table sizing: backed by dedup-horizon-7d-vs-30d, a scenario not in this record.');
    expect(md).toContain('Dedup horizon: its window is backed by dedup-horizon-7d-vs-30d, a scenario not in this record.');
    expect(md).toContain('Backoff schedule: backed by poison-retry-topic-parking-dead-letter, a scenario not in this record.');
    expect(md).toContain('| Replay after a crash (average) | — | backed by stream-checkpoint-transactional-sink, a scenario not in this record |');
    // No figure a given run does not back is printed as if one did, and nothing reads as unmeasured.
    expect(md).not.toMatch(/not measured|No multi-service transaction|270,000|2,700,000|140,000,000/);
    expect(r.openItems.filter((x) => x.kind === 'unmeasured' || x.kind === 'contradicted')).toEqual([]);
    expect(r.runs.map((x) => x.name)).toEqual(['mercury-outbox']);
  },
});

judge('figures against the scenarios that back them', {
  'flags a figure the record states otherwise than its scenario runs, and opens an item for it': ({ record, all, context }) => {
    // The figures as the record once typed them: a 7-day window backed by an inbox that keeps ids
    // for ever, a horizon backed by a 40-day inbox; a 5-minute interval backed by a processor that
    // checkpoints every 30 seconds, and a retry schedule its scenario does not run.
    const stated = catalogueRecord.figures!;
    const spec: RecordSpec = {
      ...catalogueRecord,
      figures: {
        ...stated,
        dedup: { ...stated.dedup!, window: '7d', scenario: 'consumer-durable-inbox' },
        horizon: { ...stated.horizon!, scenario: 'dedup-horizon-covers-redelivery' },
        checkpoint: { ...stated.checkpoint!, interval: '5m' },
        retry: { ...stated.retry!, base: '2s' },
      },
    };
    const r = buildDecisionRecord(spec, all(), context());
    expect(r.openItems.filter((x) => x.kind === 'contradicted').map((x) => `${x.item}: ${x.reason}`)).toEqual([
      'Make the dedup sizing agree with consumer-durable-inbox: the record says 7 d for the dedup window, consumer-durable-inbox has none',
      "Make the dedup horizon agree with dedup-horizon-covers-redelivery: the record's dedup window is 7 d, dedup-horizon-covers-redelivery keeps its inbox 40 d; the record says 3 d for the broker retention, dedup-horizon-covers-redelivery has none",
      "Make the retry schedule agree with poison-retry-topic-parking-dead-letter: the record's schedule waits 2, 4, 8, 16, 32, 60, 60, 60 s, poison-retry-topic-parking-dead-letter waits 1, 2, 4, 8, 16, 32, 60, 60 s",
      'Make the checkpoint replay agree with stream-checkpoint-transactional-sink: the record says 5 m for the checkpoint interval, stream-checkpoint-transactional-sink runs 30 s',
    ]);
    const figures = rows(r, 'ordering-retries', 2);
    expect(figures[0]![2]).toEqual({ text: 'stream-checkpoint-transactional-sink', link: runAnchor('stream-checkpoint-transactional-sink'), flag: true });
    // The arithmetic is the run's: the interval it really checkpoints at.
    expect(figures[0]![1]!.text).toMatch(/^18,000\/s × 15 s = 270,000 events/);
    const md = renderRecordMarkdown(r);
    expect(md).toContain(
      "⚠ **[Dedup horizon, as dedup-horizon-covers-redelivery runs it: valid: broker-retention 3 d, approved-replay 7 d, partner-redelivery 30 d fit inside the 40 d window. Approved-replay is the record's own: dedup-horizon-covers-redelivery has no such path. DISAGREES with",
    );
    // The catalogue record as it stands agrees with every scenario it names.
    expect(record.openItems.filter((x) => x.kind === 'contradicted')).toEqual([]);
  },

  'refuses a figure whose scenario has no such parameter when the record gives none': ({ all, context }) => {
    const spec: RecordSpec = { ...catalogueRecord, figures: { ...catalogueRecord.figures, dedup: { eventsPerDay: 1000, entryBytes: 64, scenario: 'consumer-durable-inbox' } } };
    expect(() => buildDecisionRecord(spec, all(), context())).toThrow(
      new InputError('figures.dedup names scenario consumer-durable-inbox, whose inbox keeps event ids for ever; give figures.dedup.window, or name a scenario whose inbox table has a ttl'),
    );
  },
});

judge('the event-time policies', {
  'back the Mercury policy with stream-event-time-mercury, its watermark, window, lateness and late policy read from that design': ({ record, scenarios }) => {
    const policies = rows(record, 'event-time');
    expect(policies.map((r) => r[0]!.text)).toEqual(['Demand per 10-minute window (Mercury)', 'Demand per 10-minute window (dashboard)', 'Sales per 10-minute period (ledger)']);
    // Seed 000: "maximum observed event time minus two minutes ... a provisional 10-minute demand
    // aggregate ... accepts corrections for 15 additional minutes, and then routes later facts to
    // a correction workflow"; the scenario's design: watermarkDelay 2m, window 10m, lateness 15m,
    // late 'review', idleAfter 5m.
    expect(policies[0]!.slice(2, 6).map((c) => c.text)).toEqual([
      'Maximum observed event time − 2 m; a partition silent 5 m is left out',
      'Tumbling, 10 m',
      '15 m after the window ends, revised under the next version',
      'Routed to the correction workflow (review), counted',
    ]);
    expect(policies[0]![7]).toEqual({ text: 'stream-event-time-mercury: holds', link: runAnchor('stream-event-time-mercury') });
    expect(policies.map((r) => r[5]!.text)).toEqual(['Routed to the correction workflow (review), counted', 'A new version of the closed window, which readers can see', 'One correction entry linked to the closed window']);
    for (const [i, e] of (catalogueRecord.eventTime ?? []).entries()) {
      const text = eventTimeText(designParameters(scenarios.get(e.scenario)!).eventTime!);
      expect(policies[i]!.slice(2, 6).map((c) => c.text)).toEqual([text.watermark, text.window, text.lateness, text.late]);
    }
  },

  'flags a policy the record states otherwise than its scenario runs': ({ all, context }) => {
    const spec: RecordSpec = { ...catalogueRecord, eventTime: [{ ...catalogueRecord.eventTime![0]!, late: 'correction', lateness: '10m', watermarkDelay: '2m' }] };
    const r = buildDecisionRecord(spec, all(), context());
    expect(r.openItems.filter((x) => x.kind === 'contradicted').map((x) => x.reason)).toEqual([
      'the record says 10 m for the allowed lateness, stream-event-time-mercury runs 15 m; the record sends a later fact to correction, stream-event-time-mercury to review',
    ]);
    expect(rows(r, 'event-time')[0]![7]).toMatchObject({ flag: true, text: expect.stringMatching(/^stream-event-time-mercury: holds\. DISAGREES with stream-event-time-mercury: /) });
  },
});

describe('a record narrowed to one scenario', () => {
  it('keeps the rows of its lists that scenario backs, and names the scenarios behind the rest', () => {
    const n = narrowRecord(catalogueRecord, 'flow-review-posted')!;
    expect(n.spec.flows.map((f) => f.id)).toEqual(['EV-01']);
    expect(n.spec.limits).toEqual([]);
    expect(n.spec.eventTime).toEqual([]);
    // The outbox, figure and saga rows stay, naming the scenarios that back them, which are not run.
    expect(n.spec.saga).toEqual(catalogueRecord.saga);
    expect(n.outside).toEqual(backingScenarios(n.spec).filter((x) => x !== 'flow-review-posted'));
    expect(n.outside).toContain('gift-saga-email-last');
    // A saga needs both its runs: naming one runs the other.
    const saga = narrowRecord(catalogueRecord, 'gift-saga-email-first')!;
    expect(saga.outside).not.toContain('gift-saga-email-last');
    expect(narrowRecord(catalogueRecord, 'carrier-no-key-no-lookup')).toBeUndefined();
    const ledger = narrowRecord(catalogueRecord, 'stream-ledger-corrections')!;
    expect(ledger.spec.eventTime?.map((e) => e.result)).toEqual(['Sales per 10-minute period (ledger)']);
    expect(backingScenarios(ledger.spec).filter((x) => !ledger.outside.includes(x))).toEqual(['stream-ledger-corrections']);
  });
});

describe('figures against the scenarios that back them', () => {
  it('reads each design parameter from the design the scenario runs', async () => {
    expect(designParameters((await loadScenario('dedup-horizon-7d-vs-30d')).scenario)).toEqual({ inboxRetentionSec: dec(604800), partnerRedeliverySec: dec(2592000) });
    expect(designParameters((await loadScenario('dedup-horizon-covers-redelivery')).scenario).inboxRetentionSec).toEqual(dec(40 * 86400));
    expect(designParameters((await loadScenario('poison-retry-topic-parking-dead-letter')).scenario).retryWaitsSec).toEqual([1, 2, 4, 8, 16, 32, 60, 60].map((w) => dec(w)));
    expect(designParameters((await loadScenario('stream-checkpoint-transactional-sink')).scenario).checkpointIntervalSec).toEqual(dec(30));
    expect(designParameters((await loadScenario('consumer-durable-inbox')).scenario)).toEqual({});
  });
});

describe('record metadata on a scenario', () => {
  it('is validated with the scenario: a missing field is bad input naming it', () => {
    expect(() => defineScenario({ ...reviewPosted, name: 'mine', record: { ...catalogueRecord, document: { ...catalogueRecord.document, broker: undefined as never } } })).toThrow(
      'malformed scenario mine: record.document.broker must be a string, got nothing',
    );
    expect(() => defineScenario({ ...reviewPosted, name: 'mine', record: { ...catalogueRecord, flows: [{ ...catalogueRecord.flows[0]!, semantics: 'exactly-once' as never }] } })).toThrow(/record\.flows\[0\]\.semantics has no value "exactly-once"/);
    expect(defineScenario({ ...reviewPosted, name: 'mine', record: catalogueRecord }).record).toBe(catalogueRecord);
  });
});

describe('a flow of the register is measured by its own claim', () => {
  /** The least record a design of one flow needs: no figures, no saga, no event-time policies. */
  const least = (flow: Partial<RecordSpec['flows'][number]>): RecordSpec => ({
    document: { id: 'REC-1', broker: 'one broker', version: '1', status: 'Draft', owner: '@me', producerTeams: ['@us'], consumerTeams: ['@them'] },
    flows: [{ id: 'EV-01', event: 'order.confirmed', producer: 'Orders', consumer: 'Email', lost: 'no email', duplicated: 'two emails', semantics: 'effectively-once', how: 'a key at the provider', technique: 'idempotency key at the target', scenario: 'email-confirmation', ...flow }],
    outbox: { relay: { choice: 'polling' }, eventId: { choice: 'in the transaction' }, ordering: { choice: 'per aggregate' }, cleanup: { choice: 'after 3 days' }, eventsPerDay: 1000 },
    rules: [],
    limits: [],
    monitoring: [],
    decisions: [],
  });

  it('is met when its claim holds though another claim of its scenario is violated, and the record needs no figures for it', async () => {
    const { scenario } = await loadScenario('email-confirmation');
    const result = runWindows(scenario);
    expect(result.judgement.found).toEqual(['duplicate effect']);
    expect(semanticsCheck('effectively-once', result, 'confirmation send intent')).toEqual({ ok: true, reason: 'holds: one effect per key under every fault' });
    expect(semanticsCheck('effectively-once', result, 'provider acceptance of the confirmation email')).toEqual({ ok: false, reason: 'declared effectively-once, but its claim "provider acceptance of the confirmation email" is violated (duplicate effect)' });
    const flowCell = (claim: string) => {
      const r = buildDecisionRecord(least({ claim }), [result], { scenarios: [scenario] });
      return rows(r, 'flow-register')[0]![6]!;
    };
    expect(flowCell('confirmation send intent')).toMatchObject({ text: 'Effectively-once, a key at the provider' });
    expect(flowCell('provider acceptance of the confirmation email')).toMatchObject({ flag: true, text: expect.stringContaining('NOT MET') });
    // The record states no figures: each section says so rather than refusing the record.
    const r = buildDecisionRecord(least({ claim: 'confirmation send intent' }), [result], { scenarios: [scenario] });
    const texts = r.sections.flatMap((s) => s.blocks.flatMap((b) => (b.kind === 'para' ? b.cells.map((c) => c.text) : [])));
    expect(texts).toEqual(expect.arrayContaining(['Dedup table sizing: the record states no figures for it.', 'Backoff schedule: the record states no figures for it.', 'Replay and backfill: the record states no figures for it.']));
  });

  it('must name one of its scenario’s claims, and name one when its scenario makes several', async () => {
    const { scenario } = await loadScenario('email-confirmation');
    const effects = (name: string) => (name === scenario.name ? scenario.claims.map((c) => c.effect) : undefined);
    expect(flowClaimProblems(least({}), effects)).toEqual([
      'flows[0] (EV-01) names no claim, and scenario email-confirmation makes 2: name the one that measures the flow with claim: "confirmation send intent" or "provider acceptance of the confirmation email"',
    ]);
    expect(flowClaimProblems(least({ claim: 'confirmation sent intent' }), effects)).toEqual([
      'flows[0] (EV-01) names claim "confirmation sent intent", which scenario email-confirmation does not make (did you mean confirmation send intent?); its claims: "confirmation send intent", "provider acceptance of the confirmation email"',
    ]);
    expect(flowClaimProblems(least({ claim: 'confirmation send intent' }), effects)).toEqual([]);
    // A scenario of one claim needs none named.
    expect(flowClaimProblems(least({ scenario: 'flow-review-posted' }), (n) => (n === 'flow-review-posted' ? reviewPosted.claims.map((c) => c.effect) : undefined))).toEqual([]);
  });
});
