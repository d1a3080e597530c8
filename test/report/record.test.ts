// The decision record: the catalogue's record has every section of seed 004's template, each
// stated property is checked against the verdict of the run that backs it (a flow declared
// effectively-once over a violated design is flagged, a boundary said to be safe that is not is
// contradicted), every claim clause no run checked becomes an open item, the capacity figures are
// the ones `faultline calc` prints, and every link of both forms lands on an anchor of the page.
import { beforeAll, describe, expect, it } from 'vitest';
import { runCalc } from '../../src/capacity/runCalc.ts';
import { loadScenario } from '../../src/catalogue.ts';
import { InputError } from '../../src/inputError.ts';
import { backingScenarios, type RecordSpec } from '../../src/recordSpec.ts';
import { narrowRecord } from '../../src/recordSource.ts';
import { defineScenario } from '../../src/scenario.ts';
import reviewPosted from '../../scenarios/flow-review-posted.ts';
import { replayLine } from '../../src/replayLine.ts';
import { buildDecisionRecord, runAnchor, semanticsCheck, type DecisionRecord, type RecordCell } from '../../src/report/decisionRecord.ts';
import { renderRecordHtml } from '../../src/report/recordHtml.ts';
import { renderRecordMarkdown } from '../../src/report/recordMarkdown.ts';
import { runWindows, type WindowsResult } from '../../src/windows.ts';
import catalogueRecord from '../../scenarios/record.ts';

/** Scenarios the tests cite beyond the catalogue record: designs that break what a row states. */
const EXTRA = ['flow-rating-changed-fire-and-forget'];
const results = new Map<string, WindowsResult>();
let record: DecisionRecord;

const all = (): WindowsResult[] => [...results.values()];
/** The runs of the scenarios the catalogue record cites, as `faultline record all` runs them. */
const cited = (): WindowsResult[] => backingScenarios(catalogueRecord).map((n) => results.get(n)!);
const table = (r: DecisionRecord, id: string, index = 0) => r.sections.find((s) => s.id === id)!.blocks.filter((b) => b.kind === 'table')[index]!;
const rows = (r: DecisionRecord, id: string, index = 0): readonly (readonly RecordCell[])[] => {
  const t = table(r, id, index);
  return t.kind === 'table' ? t.table.rows : [];
};

beforeAll(async () => {
  for (const name of [...backingScenarios(catalogueRecord), ...EXTRA]) results.set(name, runWindows((await loadScenario(name)).scenario));
  record = buildDecisionRecord(catalogueRecord, cited());
}, 300_000);

describe('the catalogue record', () => {
  it('has every section of the template, in its order, in both forms', () => {
    const titles = ['Document control', '1. Flow register', '2. Delivery semantics', '3. Publishing: transactional outbox', '4. Idempotent consumers', '5. Ordering, retries and dead letters', '6. Exactly-once: limits', '7. Sagas for multi-service transactions', '8. Monitoring', '9. Decisions and open items', '10. Event time and finality', 'Glossary and references'];
    expect(record.sections.map((s) => s.title)).toEqual(titles);
    const md = renderRecordMarkdown(record);
    const headings = md.split('\n').filter((l) => l.startsWith('## ')).map((l) => l.slice(3));
    expect(headings).toEqual([...titles, 'Evidence: the runs behind this record']);
    for (const sub of ['### Approvals', '### Revision history', '### Backoff schedule']) expect(md).toContain(sub);
    const html = renderRecordHtml(record);
    for (const s of record.sections) expect(html).toContain(`<section id="${s.id}">\n<h2>${s.title.replace(/&/g, '&amp;')}</h2>`);
  });

  it('registers the four flows of the seed with the semantics chosen, each met by its run', () => {
    const register = rows(record, 'flow-register');
    expect(register.map((r) => r[0]!.text)).toEqual(['EV-01', 'EV-02', 'EV-03', 'EV-04']);
    expect(register.map((r) => r[1]!.text)).toEqual(['review.posted', 'rating.changed', 'page.viewed', 'gift.payment.captured']);
    for (const r of register) {
      expect(r[6]!.flag, r[6]!.text).toBeUndefined();
      expect(r[7]!.text).toMatch(/: holds$/);
    }
    expect(register[0]![6]).toEqual({ text: 'Effectively-once, at-least-once delivery, dedup by event ID', link: runAnchor('flow-review-posted') });
    expect(record.openItems.filter((x) => x.kind === 'contradicted' || x.kind === 'unexpected')).toEqual([]);
  });

  it('answers each exactly-once boundary from its run, with the replay line of its counterexample', () => {
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
    expect(record.openItems.filter((x) => x.kind === 'unmeasured')).toEqual([]);
  });

  it('puts the step that cannot be undone last, backed by both saga runs', () => {
    const steps = rows(record, 'sagas');
    expect(steps.map((s) => s[4]!.text)).toEqual(['Yes', 'Yes', 'Yes', 'Yes, with fees', 'No, so it runs last']);
    expect(steps[4]![4]!.link).toBe('run-gift-saga-email-first-ce-1');
    const md = renderRecordMarkdown(record);
    expect(md).toContain('Pivot: step 5 (Email gift code to recipient) cannot be undone');
    expect(md).toContain('With it first: gift-saga-email-first violated (phantom effect).');
  });

  it('computes dedup sizing, the retry schedule, checkpoint replay and backfill as calc does', () => {
    const md = renderRecordMarkdown(record);
    const dedup = runCalc(['dedup', '--rate', '20000000/d', '--window', '7d', '--entry-bytes', '64']).json as { entries: string; logicalGB: string };
    expect(dedup).toMatchObject({ entries: '140000000', logicalGB: '8.96' });
    expect(md).toContain(`is ${Number(dedup.entries).toLocaleString('en-US')} rows; at about 64 bytes per row including index overhead that is ${dedup.logicalGB} GB`);
    const retry = runCalc(['retry', '--base', '1s', '--factor', '2', '--cap', '60s', '--retries', '8']).json as { waitsSec: string[]; cumulativeSec: string[]; totalWaitSec: string };
    expect(md).toContain(`| Wait before retry (s) | ${retry.waitsSec.join(' | ')} |`);
    expect(md).toContain(`| Cumulative wait (s) | ${retry.cumulativeSec.join(' | ')} |`);
    expect(md).toContain(`first attempt plus 8 retries, ${retry.totalWaitSec} s of waiting in total`);
    const cp = runCalc(['checkpoint', '--rate', '18000', '--interval', '30s', '--recovery-rate', '24000']).json as Record<string, string>;
    expect(cp).toMatchObject({ averageReplayEvents: '270000', fullReplayEvents: '540000' });
    expect(md).toContain('18,000/s × 15 s = 270,000 events, caught up in 45 s at 6,000/s net');
    expect(md).toContain('18,000/s × 30 s = 540,000 events, caught up in 90 s');
    const bf = runCalc(['backfill', '--events', '1.2e9', '--envelope', '25000', '--live-reserve', '20000', '--variance-reserve', '1000', '--cap', '4000']).json as { durationSec: string; durationHours: string };
    expect(md).toContain(`1,200,000,000 ÷ 4,000/s = ${Number(bf.durationSec).toLocaleString('en-US')} s ≈ ${bf.durationHours} hours`);
    expect(md).toContain('20,000,000 per day, about 231.48 per second on average');
  });

  it('turns every claim clause no run checked into an open item naming the clause and the run', () => {
    const expected = cited().flatMap((r) => r.claims.filter((c) => r.coverage.clauses.some((k) => k.effect === c.effect && k.status !== 'holds' && k.status !== 'violated')).map((c) => `${c.effect} (${r.name})`));
    const unchecked = record.openItems.filter((x) => x.kind === 'unchecked');
    expect(unchecked.map((x) => x.item.replace(/^Check ("[^"]*", )*"[^"]*" for /, ''))).toEqual(expected);
    const review = unchecked.find((x) => x.item.endsWith('(flow-review-posted)'))!;
    expect(review.item).toBe('Check "the same intent returns the recorded result" for the followers\u2019 notification of a posted review (flow-review-posted)'.replace('\u2019', "'"));
    expect(review.reason).toBe('the same intent returns the recorded result: not checked (the claim gives no observer for it)');
    expect(review.link).toBe('run-flow-review-posted');
    const decisions = rows(record, 'decisions');
    expect(decisions.find((r) => r[0]!.text === review.id)!.map((c) => c.text)).toEqual([review.id, review.item, review.reason, '@platform-events-lead', 'Open', 'see run']);
  });

  it('links every cell of both forms to an anchor the page holds', () => {
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
  });
});

describe('a property its run contradicts', () => {
  const withFlow = (patch: Partial<RecordSpec['flows'][number]>): RecordSpec => ({ ...catalogueRecord, flows: catalogueRecord.flows.map((f) => (f.id === 'EV-02' ? { ...f, ...patch } : f)) });

  it('flags a flow declared effectively-once whose backing design is violated, and opens an item', () => {
    const r = buildDecisionRecord(withFlow({ scenario: 'flow-rating-changed-fire-and-forget' }), all());
    const row = rows(r, 'flow-register')[1]!;
    expect(row[6]).toEqual({
      text: 'Effectively-once, at-least-once delivery, idempotent upsert. NOT MET: declared effectively-once, but the design is violated (order regression)',
      link: 'run-flow-rating-changed-fire-and-forget-ce-1',
      flag: true,
    });
    expect(row[7]).toMatchObject({ text: 'flow-rating-changed-fire-and-forget: violated (order regression)', flag: true });
    expect(r.openItems.filter((x) => x.kind === 'contradicted').map((x) => x.item)).toEqual(['Repair flow EV-02 rating.changed or change its semantics']);
    expect(renderRecordMarkdown(r)).toContain('| ⚠ **[Effectively-once, at-least-once delivery, idempotent upsert. NOT MET:');
  });

  it('judges each semantics by what it may lose or repeat', () => {
    const fireAndForget = results.get('flow-rating-changed-fire-and-forget')!;
    const pageViewed = results.get('flow-page-viewed')!;
    const email = results.get('email-confirmation')!;
    expect(semanticsCheck('at-most-once', fireAndForget)).toEqual({ ok: false, reason: 'declared at-most-once, but the design is violated beyond it (order regression)' });
    expect(semanticsCheck('at-least-once', email)).toEqual({ ok: true, reason: 'duplicate effect, which at-least-once accepts' });
    expect(semanticsCheck('at-most-once', email).ok).toBe(false);
    expect(semanticsCheck('at-most-once', pageViewed).ok).toBe(true);
    // The page-view design holds only because its claim accepts loss: it is not effectively-once.
    expect(semanticsCheck('effectively-once', pageViewed)).toEqual({ ok: false, reason: 'declared effectively-once, but the claim of a counted page view promises only atMostOnce' });
  });

  it('contradicts a boundary said to be safe whose run is violated, and a saga whose irreversible step is not last', () => {
    const spec: RecordSpec = {
      ...catalogueRecord,
      limits: catalogueRecord.limits.map((l) => (l.scenario === 'email-confirmation' ? { ...l, effectivelyOnce: true, answer: 'Yes' } : l)),
      saga: { ...catalogueRecord.saga!, scenario: 'gift-saga-email-first', counter: 'gift-saga-email-last' },
    };
    const r = buildDecisionRecord(spec, all());
    const email = rows(r, 'exactly-once-limits').find((x) => x[0]!.text === 'Consumer sends email or push notification')!;
    expect(email[1]).toMatchObject({ text: 'Yes. CONTRADICTED by the run', flag: true });
    expect(r.openItems.filter((x) => x.kind === 'contradicted').map((x) => x.item)).toEqual([
      'Revisit the boundary "Consumer sends email or push notification"',
      'Move the step that cannot be undone in Gift purchase saga (orchestrated) after the last step that can fail',
    ]);
  });

  it('refuses a record that names a scenario it was not given', () => {
    expect(() => buildDecisionRecord(catalogueRecord, cited().filter((r) => r.name !== 'mercury-outbox'))).toThrow(InputError);
    expect(() => buildDecisionRecord(catalogueRecord, cited().filter((r) => r.name !== 'mercury-outbox'))).toThrow('the record names scenario mercury-outbox, which is not among the scenarios given');
  });
});

describe('a record narrowed to one scenario', () => {
  it('keeps only the rows that scenario backs', () => {
    const n = narrowRecord(catalogueRecord, 'flow-review-posted')!;
    expect(n.flows.map((f) => f.id)).toEqual(['EV-01']);
    expect(n.limits).toEqual([]);
    expect(n.saga).toBeUndefined();
    expect(backingScenarios(n)).toEqual(['flow-review-posted']);
    expect(narrowRecord(catalogueRecord, 'gift-saga-email-first')!.saga?.scenario).toBe('gift-saga-email-last');
    expect(narrowRecord(catalogueRecord, 'carrier-no-key-no-lookup')).toBeUndefined();
    expect(n.eventTime).toEqual([]);
    const ledger = narrowRecord(catalogueRecord, 'stream-ledger-corrections')!;
    expect(ledger.eventTime?.map((e) => e.result)).toEqual(['Sales per 10-minute period (ledger)']);
    expect(backingScenarios(ledger)).toEqual(['stream-ledger-corrections']);
  });
});

describe('record metadata on a scenario', () => {
  it('is validated with the scenario: a missing field is bad input naming it', () => {
    expect(() => defineScenario({ ...reviewPosted, name: 'mine', record: { ...catalogueRecord, document: { ...catalogueRecord.document, broker: undefined as never } } })).toThrow(
      'malformed scenario mine: record option document.broker must be a string, got nothing',
    );
    expect(() => defineScenario({ ...reviewPosted, name: 'mine', record: { ...catalogueRecord, flows: [{ ...catalogueRecord.flows[0]!, semantics: 'exactly-once' as never }] } })).toThrow(/record option flows\.0\.semantics/);
    expect(defineScenario({ ...reviewPosted, name: 'mine', record: catalogueRecord }).record).toBe(catalogueRecord);
  });
});
