// A design wired to the wrong component, or asked to strike faults it offers nowhere, is bad
// input: one line and exit 2, in every mode, never a verdict. Left to run, a consumer whose
// database peer names the broker ends as a lost effect, and a sweep whose kinds strike nothing
// answers "holds" having tried nothing.
import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { compose, defineScenario, type Claim, type WorldView } from '../../src/index.ts';
import { broker } from '../../models/broker.ts';
import { consumer, type ConsumerOptions } from '../../models/consumer.ts';
import { database } from '../../models/designs/databaseComponent.ts';
import { rowsOf, type DatabaseDurable } from '../../models/database.ts';
import { publishedFacts, publisher, type PublisherDurable } from '../../models/publisher.ts';
import { unhandledPoints } from '../../src/run/unhandledMessages.ts';
import { runWindows } from '../../src/modes/windows.ts';
import { check } from '../../src/modes/check/check.ts';
import { explore } from '../../src/modes/explore.ts';
import { replay } from '../../src/modes/replay.ts';
import type { FaultKind } from '../../src/faults/faults.ts';

const records = (size: number) => Array.from({ length: size }, (_, i) => ({ event_id: `evt-${i + 1}`, order_id: `o-${i + 1}` }));
const claim: Claim = {
  effect: 'reservation',
  key: ['order_id'],
  authority: 'pk',
  lifetime: 'ever',
  outcomes: (v: WorldView) => rowsOf(v.durable<DatabaseDurable>('invDb'), 'res').map((r) => ({ key: String(r['order_id']) })),
  facts: (v: WorldView) => publishedFacts(v.durable<PublisherDurable>('publisher')).map((p) => String(p['order_id'])),
};

function design(name: string, wiring: Partial<ConsumerOptions> = {}, kinds?: readonly FaultKind[]) {
  return defineScenario({
    name,
    title: 'an inbox consumer',
    source: 'test',
    lesson: 'wiring',
    build: compose(
      publisher({ records, keyField: 'order_id' }),
      broker({}),
      consumer({ group: 'g', db: 'invDb', inbox: 'sameTx', effect: { op: 'insert', table: 'res', columns: { order_id: 'order_id' } }, ...wiring } as ConsumerOptions),
      database({ name: 'invDb', tables: { res: { key: ['order_id'] }, inbox: { key: ['consumer_name', 'event_id'] } } }),
    ),
    workload: { size: 1 },
    claims: [claim],
    expect: { verdict: 'holds' },
    ...(kinds === undefined ? {} : { windows: { kinds } }),
  });
}

describe('a message its receiver handles in no state', () => {
  it('is found from the machines alone: exact types, prefix descriptors and wildcards count as handled', () => {
    const takes = (on: Record<string, object>) => ({ name: 'b', process: true, machine: setup({}).createMachine({ id: 'b', initial: 'a', states: { a: { on } } }) });
    const census = new Map([['a->b:x.go', 1], ['a->b:y.stop', 1]]);
    expect(unhandledPoints(census, [takes({ 'x.go': {} })])).toEqual(['a->b:y.stop']);
    expect(unhandledPoints(census, [takes({ 'y.*': {}, 'x.go': {} })])).toEqual([]);
    expect(unhandledPoints(census, [takes({ '*': {} })])).toEqual([]);
  });

  it('refuses a consumer whose database peer is the broker, in windows, explore, check and replay, naming the sender and the message', () => {
    const bad = design('db-is-the-broker', { db: 'broker' });
    const line = /^consumer sends db\.exec to broker, which handles no db\.exec in any state \(it takes broker\.[^)]*\): is one of consumer's peers wired to the wrong component\?/;
    expect(() => runWindows(bad)).toThrow(line);
    expect(() => explore(bad, { runs: 2, seed: 1 })).toThrow(line);
    expect(() => check(bad, { maxStates: 500 })).toThrow(line);
    expect(() => replay(bad, { kind: 'plan', seed: 1, plan: [] })).toThrow(line);
  });

  it('refuses a publisher that publishes to itself', () => {
    const bad = defineScenario({ ...design('self'), name: 'publishes-to-itself', build: compose(publisher({ records, keyField: 'order_id', broker: 'publisher' } as never), broker({}), consumer({ group: 'g', db: 'invDb', inbox: 'sameTx', effect: { op: 'insert', table: 'res', columns: { order_id: 'order_id' } } } as ConsumerOptions), database({ name: 'invDb', tables: { res: { key: ['order_id'] }, inbox: { key: ['consumer_name', 'event_id'] } } })) });
    expect(() => runWindows(bad, { maxOccurrence: 1 })).toThrow(/^publisher sends broker\.publish to publisher, which handles no broker\.publish/);
  });

  it('leaves the well-wired design alone', () => {
    expect(runWindows(design('well-wired'), { maxOccurrence: 1 }).judgement.verdict).toBe('holds within bound');
  });
});

describe('kinds that strike nothing', () => {
  it('refuses empty kinds, and kinds the design offers nowhere, in windows and check', () => {
    expect(() => runWindows(design('no-kinds', {}, []))).toThrow(/^no-kinds: no fault kind to strike \(its kinds are empty\)/);
    expect(() => runWindows(design('skew-only', {}, ['skew']))).toThrow(/^skew-only: no fault of the kinds asked for can strike it \(skew: no component whose clock can jump/);
    expect(() => check(design('rebalance-only'), { kinds: ['rebalance'], maxStates: 500 })).toThrow(/rebalance: no record delivered to a member of a consumer group of two or more/);
    expect(() => check(design('restore-or-skew'), { kinds: ['restore', 'skew'], maxStates: 500 })).toThrow(/restore: no component that can be restored.*; skew: no component whose clock/);
  });

  it('keeps the kinds that can strike, and claims no coverage of those that cannot', () => {
    const r = check(design('crash-and-rebalance'), { kinds: ['crash', 'rebalance'], maxStates: 500 });
    expect(r.coverage.kinds).toEqual(['crash']);
  });
});

describe('claims of one name', () => {
  it('refuses two claims named by the same effect, which no expectation or report could tell apart', () => {
    expect(() => defineScenario({ ...design('two-claims'), claims: [claim, { ...claim }] })).toThrow(/two claims are named "reservation": give each claim its own effect name/);
  });
});

describe('an inbox database the inbox cannot use', () => {
  it("refuses inboxDb on an inbox in the effect's transaction, which lives in the effect's database", () => {
    expect(() => design('same-tx-inbox-elsewhere', { inboxDb: 'inboxDb' })).toThrow(/consumer option inboxDb: an inbox in the effect's transaction \(sameTx\) is in the effect's database; inboxDb needs inbox: 'separateTx'/);
  });
});
