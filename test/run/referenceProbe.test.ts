// What only a run shows wrong in a scenario: a claim reading a field its rows lack beside one of a
// near name, repair-query tables naming columns their rows lack, a primary-key column written
// empty; and, at load, a reader handed another kind of component. Each is one line of bad input
// (exit 2) where it would otherwise be judged: every fact a phantom, every key "names no value",
// every operation lost.
import { describe, expect, it } from 'vitest';
import { defineScenario, type Scenario } from '../../src/scenario/scenario.ts';
import { checkReference, referenceProblems } from '../../src/run/referenceProbe.ts';
import { InputError } from '../../src/base/inputError.ts';
import { catalogueNames, loadScenario } from '../../src/scenario/catalogue.ts';
import { rowsOf, type DatabaseDurable } from '../../models/database.ts';
import { operationsOf } from '../../models/provider.ts';
import { recordsOf } from '../../models/broker.ts';
import outbox from '../../scenarios/mercury-outbox.ts';
import type { Claim } from '../../src/checkers/claims.ts';
import { sampled } from '../support/suite.ts';

const reservation = outbox.claims[0]!;
const withClaim = (claim: Claim, patch: Partial<Scenario> = {}): Scenario => defineScenario({ ...outbox, ...patch, claims: [claim] }, 'mine.ts');

describe('the fault-free run of a scenario, read by its claims', () => {
  it('refuses a claim reading a misspelt column of rows that have data, naming the column meant', () => {
    const claim: Claim = { ...reservation, facts: (v) => rowsOf(v.durable<DatabaseDurable>('ordersDb'), 'orders').filter((r) => r['statuss'] === 'ACCEPTED').map((r) => `${String(r['order_id'])}|1`) };
    expect(referenceProblems(withClaim(claim))).toEqual([
      "claim \"inventory reservation\": facts() reads column statuss, which no row it reads has in the fault-free run (did you mean status?); if only some runs write statuss, read it as ('statuss' in row ? row['statuss'] : undefined) and it is not refused",
    ]);
    // Read as the refusal says, it is let through.
    const guarded: Claim = { ...reservation, facts: (v) => rowsOf(v.durable<DatabaseDurable>('ordersDb'), 'orders').filter((r) => ('statuss' in r ? r['statuss'] : r['status']) === 'ACCEPTED').map((r) => `${String(r['order_id'])}|1`) };
    expect(referenceProblems(withClaim(guarded))).toEqual([]);
  });

  it('reads only rows so: a field of a component’s own state that only a fault writes, and JavaScript’s own look-ups on rows, are let through', async () => {
    // A device's `skews` is written only when a skew strikes, beside its `skew`: absent from the
    // fault-free run, one letter from a field that is there, and no typo.
    const { scenario } = await loadScenario('stream-clock-skew');
    const base = scenario.claims[0]!;
    const skewed: Claim = { ...base, facts: (v) => [...(base.facts?.(v) ?? [])].filter(() => (v.durable<{ skews?: unknown[] }>('device0').skews ?? []).length >= 0) };
    expect(referenceProblems(defineScenario({ ...scenario, claims: [skewed] }, 'mine.ts'))).toEqual([]);
    // JSON.stringify asks each row for toJSON.
    const printed: Claim = { ...reservation, facts: (v) => rowsOf(v.durable<DatabaseDurable>('ordersDb'), 'orders').map((r) => `${String(JSON.parse(JSON.stringify(r)).order_id)}|1`) };
    expect(referenceProblems(withClaim(printed))).toEqual([]);
  });

  it('refuses repair-query tables naming columns their rows lack: in a key, a condition and an expression', () => {
    const tables = { ...reservation.tables!, effect: { table: 'reservations', key: ['order_idd', 'reservation_version'] }, source: { table: 'orders', key: ['order_id', '$version + 0'], where: "$statuss = 'ACCEPTED'" } };
    expect(referenceProblems(withClaim({ ...reservation, tables }))).toEqual([
      'claim "inventory reservation": tables.effect names column order_idd, which no row of table reservations has in the fault-free run (did you mean order_id?); columns: order_id, reservation_version, state',
      'claim "inventory reservation": tables.source names column statuss, which no row of table orders has in the fault-free run (did you mean status?); columns: order_id, intent, status, version',
    ]);
  });

  it('refuses a design that writes an empty primary-key column (a consumer column from a field its records lack)', () => {
    const build: Scenario['build'] = (w, time) =>
      outbox.build(w, time).map((c) => (c.name === 'consumer' ? { ...c, input: { ...(c.input as object), effect: { op: 'insert', table: 'reservations', columns: { order_id: 'orderid', reservation_version: 'reservation_version' } } } } : c));
    expect(referenceProblems(withClaim(reservation, { build }))).toEqual([
      'inventoryDb: table reservations holds a row whose key column order_id is empty in the fault-free run: does a component write it from a field its records do not carry?',
    ]);
  });

  it.each<[string, Partial<Claim>, string]>([
    ['outcomes as a string', { outcomes: () => 'o-1' as never }, 'outcomes() returned the string "o-1", not a list of { key, intent? }'],
    ['outcomes as a Set', { outcomes: (v) => new Set(reservation.outcomes(v)) as never }, 'outcomes() returned an object, not a list of { key, intent? }'],
    ['outcomes keyed by number', { outcomes: (v) => rowsOf(v.durable<DatabaseDurable>('inventoryDb'), 'reservations').map(() => ({ key: 7 })) as never }, 'outcomes() returned an item whose key is the number 7 (keys are strings: String(row.id)); it returns a list of { key, intent? }'],
    ['outcomes without a key', { outcomes: (v) => rowsOf(v.durable<DatabaseDurable>('inventoryDb'), 'reservations').map((r) => ({ id: r['order_id'] })) as never }, 'outcomes() returned an item with no key ({"id":"o-1"}); it returns a list of { key, intent? }'],
    ['facts as objects', { facts: (v) => rowsOf(v.durable<DatabaseDurable>('ordersDb'), 'orders') as never }, 'facts() returned an object where a key string belongs (keys are strings: String(row.id)); it returns a list of key strings'],
    ['versions as a list', { versions: () => [1, 2] as never }, 'versions() returned a list, not a record of version lists by aggregate key ({ "o-1": [1, 2] })'],
  ])('refuses an observer returning the wrong kind of value (%s), where every run would be undecided', (_, patch, message) => {
    expect(referenceProblems(withClaim({ ...reservation, ...patch }))).toEqual([`claim "inventory reservation": ${message}`]);
  });

  it('refuses a relay whose table’s rows carry no boolean published column: it would never publish one', () => {
    const build: Scenario['build'] = (w, time) => outbox.build(w, time).map((c) => (c.name === 'relay' ? { ...c, input: { ...(c.input as object), table: 'orders' } } : c));
    expect(referenceProblems(withClaim(reservation, { build }))).toEqual([
      'relay publishes the rows of ordersDb.orders, and names each publish, and marks it sent, by its event_id, which no row carries; columns: order_id, intent, status, version',
      'relay publishes the rows of ordersDb.orders, and keys each record at the broker by its aggregate_id, which no row carries; columns: order_id, intent, status, version',
      'relay publishes the rows of ordersDb.orders whose published is false, and its rows have no published column; columns: order_id, intent, status, version: it would never publish one',
    ]);
  });

  // A second reader of outbox rows, beside the design's own relay, reading another table: the
  // first relay keeps the pipeline going, so the table it reads fills as the design runs.
  const secondReader = (base: Scenario, id: string, db: string, table: string): Scenario => ({
    ...base,
    build: (w, time) => {
      const parts = base.build(w, time);
      const reader = parts.find((c) => (c.machine as { id?: string }).id === id)!;
      // A change-data-capture connector streams a table's log, which a table keeps with history.
      const withLog = parts.map((c) => (c.name === db ? { ...c, input: { ...(c.input as object), tables: { ...(c.input as { tables: object }).tables, [table]: { ...(c.input as { tables: Record<string, object> }).tables[table], history: true } } } } : c));
      return [...withLog, { ...reader, name: 'reader2', input: { ...(reader.input as object), db, table } }];
    },
  });

  it('refuses a relay whose rows lack the aggregate_id that keys each record at the broker, or the event_id that names it', () => {
    // The inbox rows carry an event_id, and neither an aggregate_id nor a published flag.
    expect(referenceProblems(withClaim(reservation, { build: secondReader(outbox, 'relay', 'inventoryDb', 'inbox').build }))).toEqual([
      'reader2 publishes the rows of inventoryDb.inbox, and keys each record at the broker by its aggregate_id, which no row carries; columns: consumer_name, event_id',
      'reader2 publishes the rows of inventoryDb.inbox whose published is false, and its rows have no published column; columns: consumer_name, event_id: it would never publish one',
    ]);
  });

  it('holds a change-data-capture connector to the same row columns, but not to a published flag it never reads', async () => {
    const { scenario: cdc } = await loadScenario('mercury-outbox-cdc');
    expect(referenceProblems(cdc)).toEqual([]);
    // (What it publishes reaches the design's consumer too, whose rows then go wrong as well.)
    const problems = referenceProblems(secondReader(cdc, 'cdcConnector', 'inventoryDb', 'reservations'));
    expect(problems.filter((p) => p.startsWith('reader2'))).toEqual([
      'reader2 publishes the rows of inventoryDb.reservations, and names each publish by its event_id, which no row carries; columns: order_id, reservation_version, state',
      'reader2 publishes the rows of inventoryDb.reservations, and keys each record at the broker by its aggregate_id, which no row carries; columns: order_id, reservation_version, state',
    ]);
  });

  it('refuses a design whose fault-free run meets bad input, as that one problem, before any sweep', async () => {
    // The connector's table changed after the design was drawn, so the load's wiring check saw the
    // table it was drawn with; the run's first read of the new one fails.
    const { scenario: cdc } = await loadScenario('mercury-outbox-cdc');
    const build: Scenario['build'] = (w, time) => cdc.build(w, time).map((c) => ((c.machine as { id?: string }).id === 'cdcConnector' ? { ...c, input: { ...(c.input as object), table: 'orders' } } : c));
    expect(referenceProblems({ ...cdc, build })).toEqual([
      'ordersDb failed on db.run in state serving: tail of orders, which keeps no history: declare it with history to stream its changes',
    ]);
  });

  it('refuses through checkReference as one InputError naming the file', () => {
    const claim: Claim = { ...reservation, outcomes: (v) => rowsOf(v.durable<DatabaseDurable>('inventoryDb'), 'reservations').map((r) => ({ key: `${String(r['order_idd'])}|1` })) };
    const scenario = withClaim(claim);
    expect(() => checkReference({ scenario, file: 'mine.ts', ref: 'mine.ts' })).toThrow(InputError);
    expect(() => checkReference({ scenario, file: 'mine.ts', ref: 'mine.ts' })).toThrow(/^malformed scenario mine\.ts: claim "inventory reservation": outcomes\(\) reads column order_idd, .*\(did you mean order_id\?\); /);
  });

  it.each(sampled(catalogueNames(), (name) => ['mercury-outbox', 'carrier-key-and-lookup', 'stream-checkpoint-external-sink', 'gift-saga-email-first', 'poison-blocking-dead-letter'].includes(name)).map((n) => [n]))('finds nothing wrong in catalogue scenario %s', async (name) => {
    const { scenario } = await loadScenario(name);
    expect(referenceProblems(scenario)).toEqual([]);
  });
});

describe('a claim reader handed another kind of component', () => {
  it.each<[string, Claim['outcomes'], string]>([
    ['operationsOf on a database', (v) => operationsOf(v.durable('inventoryDb')).map((op) => ({ key: String(op.key) })), "outcomes() operationsOf reads a provider's state, and was given a component that is not one (its state holds tables, nextSeq, history)"],
    ['rowsOf on a broker', (v) => rowsOf(v.durable('broker'), 'reservations').map((r) => ({ key: String(r['order_id']) })), "outcomes() rowsOf reads a database's state, and was given a component that is not one (its state holds partitions, offsets)"],
    ['recordsOf on a database', (v) => recordsOf(v.durable('ordersDb')).map((r) => ({ key: r.key })), "outcomes() recordsOf reads a broker's state, and was given a component that is not one (its state holds tables, nextSeq, history)"],
  ])('refuses %s at load, before any run', (_, outcomes, message) => {
    expect(() => withClaim({ ...reservation, outcomes })).toThrow(`malformed scenario mine.ts: claim "inventory reservation": ${message}`);
  });
});
