// Designs written from outside the catalogue, as a user brings them: each file in this folder
// imports only `faultline` and `faultline/models/…`, and opens with the verdict reasoned from the
// seeds before it was ever run (which fault, which window, which claim); its `expect` says the same.
// Each is held here to that verdict by a windows sweep, to the rows the reasoning named, and,
// where the search ends within seconds, by a check at one fault. Where the engine answers wrongly
// today, the test states the right answer and is marked `it.fails`, with the defect named, so it
// flips when the engine is fixed. Last, the mistakes a user makes when writing such a file must
// each be one line of bad input, exit code 2, never a stack trace and never a verdict.
//
// Run time on two busy cores: about 90 s (the check of the stream design is the slowest single
// test, about 8 s at one unit of workload).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatPlace, replay, runWindows, type Scenario, type WindowRow, type WindowsResult } from 'faultline';
import { bufferIo } from '../../src/cli/io.ts';
import { main } from '../../src/cli/main.ts';
import { check } from '../../src/modes/check/check.ts';
import captureKeyForgotten from './captureKeyForgottenDuringOutage.ts';
import cdcAcksBeforeSync from './cdcOutboxBrokerAcksBeforeSync.ts';
import creditInboxExpires from './creditInboxExpiresBeforeRedelivery.ts';
import dualWriteStableKey from './dualWriteStableKeyRetry.ts';
import emailKeyIgnored from './emailKeyIgnoredLookupByKey.ts';
import giftSagaOneEmail from './giftSagaOneEmail.ts';
import groupNaiveCommits from './groupNaiveCommitsInbox.ts';
import outboxInboxExpires from './outboxInboxExpiresEffectKeyHolds.ts';
import partnerMonthly from './partnerMonthlyRedeliveryInSeconds.ts';
import partnerRestored from './partnerFeedRestoredLoyaltyDb.ts';
import receiptResume from './receiptResumeAfterCompletion.ts';
import streamNoFactDedup from './streamTransactionalSinkNoFactDedup.ts';
import visibilityTimeout from './visibilityTimeoutOutlastsLiveness.ts';

/** The eleven designs, each with the violations its reasoning expects (none: it holds). */
const DESIGNS: readonly Scenario[] = [
  creditInboxExpires,
  outboxInboxExpires,
  dualWriteStableKey,
  groupNaiveCommits,
  captureKeyForgotten,
  emailKeyIgnored,
  streamNoFactDedup,
  partnerRestored,
  giftSagaOneEmail,
  cdcAcksBeforeSync,
  receiptResume,
];

const expectedViolations = (s: Scenario): string[] => ('verdict' in s.expect && s.expect.verdict === 'violated' ? [...s.expect.violations] : []);

/** The row of one place and fault kind. */
function row(r: WindowsResult, place: string, fault: string): WindowRow {
  const found = r.rows.find((w) => formatPlace(w.place) === place && w.fault === fault);
  if (found === undefined) throw new Error(`no row ${place} ${fault}; rows: ${r.rows.map((w) => `${formatPlace(w.place)} ${w.fault}`).join(', ')}`);
  return found;
}

/** The rows that did not hold, as `place fault` strings. */
const brokenRows = (r: WindowsResult): string[] => r.rows.filter((w) => w.outcome !== 'holds').map((w) => `${formatPlace(w.place)} ${w.fault}`);

/** The effects (claims) any counterexample of the sweep names. */
const effectsFound = (r: WindowsResult): string[] => [...new Set(r.counterexamples.flatMap((c) => c.findings.map((f) => f.effect)))].sort();

const why = (r: WindowsResult) => `${r.judgement.verdict}: found ${r.judgement.found.join(', ')}; unexpected ${r.judgement.unexpected.join(', ')}; missing ${r.judgement.missing.join(', ')}`;

describe('held-out designs: the windows sweep gives the reasoned verdict', () => {
  // A sweep is a few seconds; each design's is made once and read by its own assertions.
  const results = new Map<string, WindowsResult>();
  const sweep = (s: Scenario): WindowsResult => {
    let r = results.get(s.name);
    if (r === undefined) results.set(s.name, (r = runWindows(s)));
    return r;
  };

  it.each(DESIGNS.map((s) => [s.name, s] as const))('%s', (_, s) => {
    const r = sweep(s);
    expect(r.judgement.asExpected, why(r)).toBe(true);
    expect([...r.judgement.found].sort(), why(r)).toEqual(expectedViolations(s).sort());
  });

  it('credit inbox: the lost offset commit is the duplicate (the broker timer redelivers past the inbox horizon)', () => {
    const r = sweep(creditInboxExpires);
    expect(row(r, 'consumer->broker:broker.commit', 'lose').outcome).toBe('duplicate effect');
    expect(row(r, 'consumer->broker:broker.commit', 'delay').outcome).toBe('duplicate effect');
  });

  it('outbox with an expired inbox: the reservation key stops the repeats the inbox no longer sees', () => {
    const r = sweep(outboxInboxExpires);
    expect(brokenRows(r)).toEqual([]);
    expect(r.rows.some((w) => w.guards.includes('effectKey'))).toBe(true);
  });

  it('dual write with a stable key: the crash after the commit loses the reservation, and the checkout claim holds', () => {
    const r = sweep(dualWriteStableKey);
    expect(row(r, 'source.afterSourceCommit', 'crash').outcome).toBe('lost effect');
    expect(effectsFound(r)).toEqual(['inventory reservation']);
  });

  it('naive commits behind an inbox: every rebalance holds', () => {
    const r = sweep(groupNaiveCommits);
    const rebalances = r.rows.filter((w) => w.fault === 'rebalance');
    expect(rebalances.length).toBeGreaterThan(0);
    expect(rebalances.every((w) => w.outcome === 'holds')).toBe(true);
  });

  it('capture during an outage: only the crash after the capture duplicates it', () => {
    expect(brokenRows(sweep(captureKeyForgotten))).toEqual(['provider.afterExternalEffect crash']);
  });

  it('email with a key the provider ignores: a call that reaches it twice is two emails; a lost answer is looked up', () => {
    const r = sweep(emailKeyIgnored);
    expect(row(r, 'caller->provider:provider.call', 'duplicate').outcome).toBe('duplicate effect');
    expect(row(r, 'provider->caller:provider.response', 'lose').outcome).toBe('holds');
    expect(row(r, 'provider.afterExternalEffect', 'crash').outcome).toBe('holds');
  });

  it('stream without fact dedup: a lost ack to a device double-counts its fact; the results themselves are posted once', () => {
    const r = sweep(streamNoFactDedup);
    expect(row(r, 'log->device0:log.appended', 'lose').outcome).toBe('duplicate effect');
    expect(effectsFound(r)).toEqual(["a fact's count in its window's final result"]);
  });

  it('partner feed restored: a restore after the second round loses the credits, one before it is repaired', () => {
    const r = sweep(partnerRestored);
    expect(row(r, 'partner.done', 'restore').outcome).toBe('lost effect');
    expect(row(r, 'partner.waitingToRedeliver', 'restore').outcome).toBe('holds');
  });

  it('CDC into a broker that acks before it syncs: only the power failure before the flush loses the event', () => {
    expect(brokenRows(sweep(cdcAcksBeforeSync))).toEqual(['broker.beforeSync crash']);
  });

  it('a receipt job that sends again on resume: only the crash in the window the run ends in duplicates the receipt', () => {
    expect(brokenRows(sweep(receiptResume))).toEqual(['receipt.done crash']);
  });
});

describe('held-out designs: a check at one fault agrees', () => {
  // The stream design's check at its own workload of three takes about 50 s; at one unit it
  // finds the same double count in seconds.
  const sizes: Readonly<Record<string, number>> = { [streamNoFactDedup.name]: 1 };
  it.each(DESIGNS.map((s) => [s.name, s] as const))('%s', (_, s) => {
    const size = sizes[s.name];
    const r = check(s, { failFast: true, ...(size === undefined ? {} : { size }) });
    expect(r.judgement.asExpected, why(r)).toBe(true);
    if (expectedViolations(s).length === 0) expect(r.judgement.verdict).toBe('holds');
  });

  // The duplicate needs the crash at the state a path ends in: a check once ended the path there
  // and said "holds", with `receipt.done` reached only "after every fault of the budget was spent".
  it('the receipt job: the whole search finds the duplicate at the end of a path, and strikes every window it enters', () => {
    const r = check(receiptResume, { faults: 1 });
    expect(r.judgement.found, why(r)).toEqual(['duplicate effect']);
    expect(r.check.unstruckWindows).toEqual([]);
    expect(r.counterexamples[0]!.plan).toEqual([{ kind: 'crash', window: 'receipt.done', occurrence: 1 }]);
  });
});

describe('held-out designs: pairs', () => {
  it('the gift saga with a keyed email provider holds under every pair of faults', () => {
    const r = runWindows(giftSagaOneEmail, { pairs: true });
    expect(r.judgement.asExpected, why(r)).toBe(true);
    expect(r.judgement.verdict).toBe('holds');
  });

  // Defect (models/source.ts): the order service takes a command only in `idle` and drops one that
  // arrives while it is still finishing another, with no reply and no queue. Losing the first
  // attempt and delaying the second by 40 s makes the client's third attempt arrive while the
  // service finishes the (delayed) second; the third is dropped, the client exhausts its attempts
  // told nothing, and the checkout claim reports an unresolved outcome that a service taking
  // concurrent requests (or queueing them) would have answered from the recorded key. The
  // reasoned verdict under pairs is unchanged: only the reservation's lost effect.
  it('dual write with a stable key: the third attempt, arriving while the second is finished, is answered', () => {
    const run = replay(dualWriteStableKey, {
      kind: 'plan',
      seed: 1,
      plan: [
        { kind: 'lose', point: 'client->source:cmd', occurrence: 1 },
        { kind: 'delay', point: 'client->source:cmd', occurrence: 2 },
      ],
    });
    const checkout = run.claimVerdicts.find((c) => c.effect === 'order per checkout attempt')!;
    expect(checkout.findings).toEqual([]);
  });
});

describe('held-out designs that wait longer than the liveness phase', () => {
  // A pending timer longer than the liveness phase was once taken for one that never fires: the
  // run ended "quiet" with the broker's two-hour redelivery pending, and a lost delivery was judged
  // a lost effect while the lost commit's duplicate was never reached.
  it('a two-hour visibility timeout: no lost effect, and the lost delete is a duplicate (or inconclusive)', () => {
    const r = runWindows(visibilityTimeout);
    expect(r.judgement.found).not.toContain('lost effect');
    expect(['duplicate effect', 'inconclusive']).toContain(row(r, 'consumer->broker:broker.commit', 'lose').outcome);
  });

  // The liveness phase once ended while the partner waited 30 days for its second round, and the
  // cut was reported as a stuck run in every run; the duplicate the second round makes was never found.
  it('a 30-day partner redelivery at one-second ticks: the duplicate (or inconclusive), never stuck', () => {
    const r = runWindows(partnerMonthly);
    expect(r.judgement.found).not.toContain('stuck');
    expect(r.judgement.found.includes('duplicate effect') || r.judgement.verdict === 'inconclusive').toBe(true);
  });

  // The liveness bound counts the time in which the world changes or a process is busy, in a
  // search as in a run: a path waiting for the redelivery reaches it, and finds the duplicate.
  it.each([
    ['a two-hour visibility timeout', visibilityTimeout],
    ['a 30-day partner redelivery', partnerMonthly],
  ] as const)('%s: a check at one fault finds the duplicate, never a stuck or lost effect', (_, s) => {
    const r = check(s, { failFast: true });
    expect(r.judgement.found, why(r)).toEqual(['duplicate effect']);
  });
});

// A user's scenario file with its mistakes: the credit design above, as its file has it, with one
// thing wrong.
const BASE = readFileSync(join(import.meta.dirname, 'creditInboxExpiresBeforeRedelivery.ts'), 'utf8');

/** Each mistake: what it is, the text it replaces in BASE and with what, and what the one line must name. */
const MISTAKES: readonly (readonly [string, string, string, RegExp])[] = [
  ['a misspelt component', "db: 'loyaltyDb', inbox", "db: 'loyaltyDB', inbox", /loyaltyDB.*did you mean loyaltyDb/],
  ['a misspelt table', "table: 'credits'", "table: 'credit'", /no table credit.*did you mean credits/],
  ['a misspelt claim field', '  facts: (v)', '  fact: (v)', /no field fact.*did you mean facts/],
  ['a misspelt option', "redelivery: '30s'", "redelivry: '30s'", /no option redelivry.*did you mean redelivery/],
  ['a negative duration', "redelivery: '30s'", "redelivery: '-30s'", /redelivery.*-30s/],
  ['a duration without its unit', "redelivery: '30s'", 'redelivery: 30', /redelivery.*with its unit/],
  ['a workload of no units', 'size: 2 }', 'size: 0 }', /workload\.size must be at least 1/],
  ['a misspelt expected violation', "['duplicate effect']", "['duplicate effects']", /did you mean duplicate effect/],
  ['a claim reading a component the design lacks', "v.durable<DatabaseDurable>('loyaltyDb')", "v.durable<DatabaseDurable>('loyaltyDB')", /reads component loyaltyDB.*did you mean loyaltyDb/],
  ['a claim reading a table its database lacks', "'loyaltyDb'), 'credits')", "'loyaltyDb'), 'credit')", /reads table credit.*did you mean credits/],
  ['a claim that reads nothing', "facts: (v) => publishedFacts(v.durable<PublisherDurable>('publisher')).map((p) => String(p['purchase_id'])),", 'facts: () => [],', /facts\(\) that gives none/],
];

describe('a user’s mistakes are one line of bad input', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'faultline-user-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Writes the design with texts replaced and runs the command line on it in this process. */
  async function run(name: string, edits: readonly (readonly [string, string])[], args: readonly string[] = []) {
    let text = BASE;
    for (const [from, to] of edits) {
      expect(text).toContain(from);
      text = text.replace(from, to);
    }
    const file = join(dir, `${name.replace(/\W+/g, '-')}.ts`);
    writeFileSync(file, text);
    const io = bufferIo();
    const code = await main(['windows', file, '--out', join(dir, 'out'), ...args], io);
    return { code, stderr: io.stderr, stdout: io.stdout };
  }

  function expectOneLine(r: { code: number; stderr: string; stdout: string }, names: RegExp): void {
    const lines = r.stderr.split('\n').filter((l) => l !== '');
    const said = `exit ${r.code}\nstderr: ${r.stderr}\nstdout: ${r.stdout}`;
    expect(r.code, said).toBe(2);
    expect(lines, said).toHaveLength(1);
    expect(lines[0], said).toMatch(names);
    expect(r.stderr, said).not.toMatch(/\n\s+at /);
  }

  it('the design without a mistake runs as expected', async () => {
    expect((await run('as-written', [])).code).toBe(0);
  });

  it.each(MISTAKES)('%s', async (name, from, to, names) => {
    expectOneLine(await run(name, [[from, to]]), names);
  });

  it.each<readonly [string, readonly string[], RegExp]>([
    ['a misspelt flag', ['--max-occurence', '2'], /unknown flag --max-occurence.*did you mean --max-occurrence/],
    ['a negative bound', ['--max-occurrence', '-1'], /--max-occurrence must be at least 1/],
    ['a seed that is no number', ['--seed', 'abc'], /--seed must be a whole number/],
    ['a misspelt window', ['--only', 'consumer.afterEffectComit'], /did you mean consumer\.afterEffectCommit/],
  ])('%s on the command line', async (name, args, names) => {
    expectOneLine(await run(`flag-${name}`, [], args), names);
  });

  // A misspelt keyField would give every record the broker key "undefined": with several
  // partitions everything would land in one, silently.
  it('a publisher keyed on a field its records do not carry', async () => {
    const r = await run('publisher-key', [
      ["keyField: 'purchase_id' })", "keyField: 'purchaseid' })"],
      ["broker({ redelivery: '30s' })", "broker({ redelivery: '30s', partitions: 4 })"],
    ]);
    expectOneLine(r, /keyField.*purchaseid.*did you mean purchase_id/);
  });

  // A claim whose outcomes read a column its rows lack gives every outcome the key "undefined";
  // with the fact clauses declared off, two credits would be one key twice, a "duplicate effect"
  // matching the expected one. The clause is undecided instead, and the run is not as expected.
  it('a claim keyed on a column its rows do not have', async () => {
    const r = await run('claim-column', [
      ["String(r['purchase_id'])", "String(r['purchaseId'])"],
      ["  facts: (v) => publishedFacts(v.durable<PublisherDurable>('publisher')).map((p) => String(p['purchase_id'])),\n", "  unchecked: ['lost effect', 'phantom effect'],\n"],
    ]);
    expect(r.code, r.stdout).not.toBe(0);
  });
});
