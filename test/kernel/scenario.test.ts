// defineScenario is the one run-time check of a scenario's shape: a user's file may come from
// anywhere, so every mistake must be one InputError naming the file, the field and, where one is
// close, the valid value meant. And expectedAt picks the expectation of a fault depth.
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/base/inputError.ts';
import { defineScenario, expectedAt, type Scenario } from '../../src/scenario/scenario.ts';
import outbox from '../../scenarios/mercury-outbox.ts';
import carrier from '../../scenarios/carrier-key-and-lookup.ts';
import { rowsOf, type DatabaseDurable } from '../../models/database.ts';
import { consumerGroup } from '../../models/consumer.ts';
import { providerClaim } from '../../models/designs/providerPipeline.ts';
import type { Claim } from '../../src/checkers/claims.ts';

const base: Scenario = outbox;

/** The refusal of a scenario changed by `patch`, as the user would read it. */
function refusal(patch: Record<string, unknown>): string {
  try {
    defineScenario({ ...base, ...patch } as unknown as Scenario, 'mine.ts');
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(Object.keys(patch))}`);
}

describe('defineScenario', () => {
  it('accepts a well-formed scenario and returns it unchanged', () => {
    expect(defineScenario(base)).toBe(base);
    const both = { ...base, expect: { single: { verdict: 'holds' }, pairs: { verdict: 'violated', violations: ['lost effect'] }, why: 'a second crash at the relay' } } as Scenario;
    expect(defineScenario(both)).toBe(both);
  });

  it('refuses what is not a scenario object', () => {
    expect(() => defineScenario(null as unknown as Scenario, 'x.ts')).toThrow('malformed scenario x.ts: it does not export a scenario object');
  });

  it.each([
    [{ nmae: 'x' }, 'malformed scenario mine.ts: the scenario has no field nmae (did you mean name?); fields: name, title, source, lesson, build, tick, workload, claims, expect, world, windows, record'],
    [{ name: 'Mine' }, `name must be lower-case words joined by '-', at most 100 characters (it names the scenario's report file), got "Mine"`],
    [{ name: 'a'.repeat(101) }, `name must be lower-case words joined by '-', at most 100 characters (it names the scenario's report file), got "${'a'.repeat(56)}...`],
    [{ name: 'report' }, 'the name report is taken by a report file; choose another'],
    [{ title: '' }, 'title must be at least 1 character, got ""'],
    [{ build: 'pipeline' }, 'build must be a function (workload: Workload, time: TimeScale) => DesignComponent[], got "pipeline"'],
    [{ workload: { size: 0 } }, 'workload.size must be at least 1, got 0'],
    [{ workload: { size: 1.5 } }, 'workload.size must be a whole number, got 1.5'],
    [{ workload: { size: 2, sizes: 3 } }, 'workload has no field sizes (did you mean size?)'],
    [{ claims: [] }, 'claims must be at least 1 item, got []'],
    [{ claims: [{ effect: 'x', key: ['k'] }] }, 'claim "x" authority must be a string, got nothing; claim "x" lifetime must be a string, got nothing; claim "x" outcomes must be a function (view: WorldView) => Outcome[], got nothing'],
    [{ claims: [{ key: 'k' }] }, 'claims[0].effect must be a string, got nothing; claims[0].key must be a list, got "k"'],
    [{ claims: [{ ...outbox.claims[0], facs: () => [] }] }, 'claim "inventory reservation" has no field facs (did you mean facts?)'],
    [{ expect: 'holds' }, 'expect must be an object, got "holds"'],
    [{ expect: { verdict: 'hold' } }, 'expect.verdict has no value "hold" (did you mean holds?); expected "holds", "violated"'],
    [{ expect: { verdict: 'holds', violations: ['lost effect'] } }, 'expect has no field violations; fields: verdict'],
    [{ expect: { verdict: 'violated' } }, 'expect.violations must be a list, got nothing'],
    [{ expect: { verdict: 'violated', violations: ['lost efect'] } }, 'expect.violations[0] has no value "lost efect" (did you mean lost effect?); expected "phantom effect", "lost effect"'],
    [{ expect: { verdict: 'violated', violations: ['lost effect'], why: 'x' } }, 'expect has no field why; fields: verdict, violations, claims'],
    [{ expect: { verdict: 'violated', violations: ['lost effect'], claims: [] } }, 'expect.claims must be at least 1 item, got []'],
    [{ expect: { verdict: 'violated', violations: ['lost effect'], claims: ['inventory reservaton'] } }, 'expect.claims names no claim of this scenario: "inventory reservaton" (did you mean inventory reservation?)'],
    [{ expect: { verdict: 'violated', violations: ['lost effect'], claims: ['stock hold'] } }, 'expect.claims names no claim of this scenario: "stock hold"; its claims are "inventory reservation"'],
    [{ expect: { verdict: 'holds', claims: ['inventory reservation'] } }, 'expect has no field claims; fields: verdict'],
    [{ expect: { single: { verdict: 'holds' }, pairs: { verdict: 'holds' } } }, 'expect.why must be a string, got nothing'],
    [{ expect: { single: { verdict: 'holds' }, pairs: { verdict: 'holds' }, why: ' ' } }, 'expect.why must say which fault'],
    [{ expect: { single: { verdict: 'holds' }, pairs: { verdict: 'holds' }, why: 'w', singel: 1 } }, 'expect has no field singel (did you mean single?)'],
    [{ expect: { single: 'holds', pairs: { verdict: 'holds' }, why: 'w' } }, 'expect.single must be an object, got "holds"'],
    [{ expect: { single: { verdict: 'holds' }, pairs: { verdict: 'violated', violation: [] }, why: 'w' } }, 'expect.pairs.violations must be a list, got nothing; expect.pairs has no field violation (did you mean violations?)'],
    [{ world: { quite: '60s' } }, 'world has no field quite (did you mean quiet?)'],
    [{ world: { quiet: 60 } }, "world.quiet must be a duration with its unit, such as '250ms', '30s', '15m', '24h', '7d' or '3 ticks', got 60"],
    [{ world: { quiet: '1.5s' } }, 'world.quiet is 1.5s, which is not a whole number of ticks of 1 s'],
    [{ world: { latency: ['3s', '1s'] } }, 'world.latency is [3s, 1s]: the least is longer than the most'],
    [{ tick: '0s' }, 'tick must be longer than zero'],
    [{ tick: 1 }, "tick must be a duration with its unit, such as '250ms', '30s', '15m', '24h', '7d' or '3 ticks', got 1"],
    [{ windows: { maxOccurence: 2 } }, 'windows has no field maxOccurence (did you mean maxOccurrence?)'],
    [{ windows: { maxOccurrence: 0 } }, 'windows.maxOccurrence must be at least 1, got 0'],
    [{ windows: { kinds: ['crash', 'dup'] } }, 'windows.kinds[1] has no value "dup"'],
    [{ windows: { kinds: ['craash'] } }, 'windows.kinds[0] has no value "craash" (did you mean crash?)'],
    // Every problem of a scenario at once, each at its path.
    [{ title: '', workload: { size: 0 }, windows: { kinds: ['craash'] } }, 'malformed scenario mine.ts: title must be at least 1 character, got ""; workload.size must be at least 1, got 0; windows.kinds[0] has no value "craash" (did you mean crash?)'],
    [{ build: () => [] }, 'build() returned no components'],
    [{ build: () => [{ name: 'relay' }] }, 'component "relay" has no machine'],
    [
      {
        build: () => {
          throw new Error('no such table');
        },
      },
      'build() threw: no such table',
    ],
    [
      {
        build: () => {
          throw new InputError('relay: mark must be beforeSend or afterAck');
        },
      },
      'malformed scenario mine.ts: relay: mark must be beforeSend or afterAck',
    ],
  ])('refuses %j', (patch, message) => {
    expect(refusal(patch)).toContain(message);
  });
});

describe('defineScenario checks what a design and its claims name, before any run', () => {
  const reservation = outbox.claims[0]!;
  const reads = (db: string, table: string): Claim['outcomes'] => (v) => rowsOf(v.durable<DatabaseDurable>(db), table).map((r) => ({ key: String(r['order_id']) }));

  it.each<[string, Record<string, unknown>, string]>([
    ['a claim reading a component the design does not have', { claims: [{ ...reservation, outcomes: reads('inventoryDB', 'reservations') }] }, 'claim "inventory reservation": outcomes() reads component inventoryDB, which the design does not have (did you mean inventoryDb?); components: client, source, ordersDb, relay, broker, consumer, inventoryDb'],
    ['a claim reading a table its database does not hold', { claims: [{ ...reservation, outcomes: reads('inventoryDb', 'reservation') }] }, 'claim "inventory reservation": outcomes() reads table reservation, which the database read does not have (did you mean reservations?); tables: reservations, inbox'],
    [
      'a claim whose repair queries name a table no component holds',
      { claims: [{ ...reservation, tables: { ...reservation.tables, effect: { table: 'reservationz', key: ['order_id'] } } }] },
      'claim "inventory reservation": tables.effect names table reservationz, which no component of the design holds and no view of the claim declares (did you mean reservations?); tables: orders, outbox, checkout_keys, reservations, inbox',
    ],
    [
      'an expected violation no claim can find (an order regression, with no claim giving versions)',
      { expect: { verdict: 'violated', violations: ['order regression'] } },
      'expect names order regression, which no claim of this scenario can find: a claim finds it with versions(view)',
    ],
    [
      'a claim whose repair query’s condition leaves a bracket open',
      { claims: [{ ...reservation, tables: { ...reservation.tables, source: { table: 'orders', key: ['order_id', '1'], where: "$status = 'ACCEPTED' AND (" } } }] },
      'claim "inventory reservation": tables.source.where "$status = \'ACCEPTED\' AND (" leaves a bracket open',
    ],
    [
      'a claim whose repair query’s key expression leaves a quote open',
      { claims: [{ ...reservation, tables: { ...reservation.tables, effect: { table: 'reservations', key: ['order_id', "coalesce($reservation_version, 'x)"] } } }] },
      'claim "inventory reservation": tables.effect.key "coalesce($reservation_version, \'x)" leaves a quoted string open',
    ],
    [
      'a provider claim keyed on a field the caller’s intent does not carry',
      { ...carrier, claims: [providerClaim(['order_id', 'pickup_versoin'], { effect: 'pickup', authority: 'the carrier', lifetime: 'the order' })] },
      "claim \"pickup\": it is keyed on pickup_versoin, which the intent caller sends the provider does not carry (did you mean pickup_version?); the intent's fields: order_id, pickup_version, address",
    ],
    [
      'a claim with no facts whose guarantee keeps the lost-effect clause',
      { claims: [{ ...reservation, facts: undefined }] },
      "claim \"inventory reservation\" gives no facts(view), so no lost effect could ever be found and no phantom effect could ever be found: give facts(view), the committed source facts that must each yield the effect, or turn those clauses off with unchecked: ['lost effect', 'phantom effect']",
    ],
    [
      'an at-most-once claim whose facts give nothing',
      { claims: [{ ...reservation, guarantee: 'atMostOnce', facts: () => [] }] },
      "claim \"inventory reservation\" has a facts() that gives none, so every outcome would be a phantom effect: give facts(view), the committed source facts that must each yield the effect, or turn those clauses off with unchecked: ['phantom effect']",
    ],
    [
      'a build that lists a consumer group’s members as one component',
      { build: (w: { size: number }, time: never) => [...outbox.build(w, time).filter((c) => c.name !== 'consumer'), consumerGroup({ consumers: 2, group: 'g', db: 'inventoryDb', inbox: 'none', effect: { op: 'insert', table: 'reservations', columns: {} } })({ size: w.size, time })] },
      "component 7 is a list of components, not one (a consumer group's members?): draw the design with compose(...), which takes lists of parts",
    ],
  ])('refuses %s', (_, patch, message) => {
    expect(refusal(patch)).toBe(`malformed scenario mine.ts: ${message}`);
  });

  it('accepts a claim with no facts that turns the clauses needing them off, and those clauses are then not checked', () => {
    const none: Claim = { ...reservation, facts: undefined, unchecked: ['lost effect', 'phantom effect'] };
    expect(() => defineScenario({ ...base, claims: [none] })).not.toThrow();
    const constant: Claim = { ...reservation, guarantee: 'atMostOnce', facts: () => [], unchecked: ['phantom effect'] };
    expect(() => defineScenario({ ...base, claims: [constant] })).not.toThrow();
  });
});

describe('expectedAt', () => {
  it('gives one expectation at every depth, or the single and pair expectations apart', () => {
    const one = { verdict: 'holds' } as const;
    expect(expectedAt(one, 1)).toBe(one);
    expect(expectedAt(one, 3)).toBe(one);
    const single = { verdict: 'holds' } as const;
    const pairs = { verdict: 'violated', violations: ['lost effect'] } as const;
    const split = { single, pairs, why: 'two crashes' };
    expect(expectedAt(split, 0)).toBe(single);
    expect(expectedAt(split, 1)).toBe(single);
    expect(expectedAt(split, 2)).toBe(pairs);
    expect(expectedAt(split, 3)).toBe(pairs);
  });
});

describe('a scenario written as a class', () => {
  it('is taken with the build its class gives it, bound to the instance, and a misspelt field is still refused', () => {
    class OutboxScenario {
      name = 'outbox-as-class';
      title = outbox.title;
      source = outbox.source;
      lesson = outbox.lesson;
      workload = outbox.workload;
      claims = outbox.claims;
      expect = outbox.expect;
      build(w: Scenario['workload'], time: Parameters<Scenario['build']>[1]) {
        return this.parts(w, time);
      }
      parts(w: Scenario['workload'], time: Parameters<Scenario['build']>[1]) {
        return outbox.build(w, time);
      }
    }
    const s = defineScenario(new OutboxScenario() as unknown as Scenario);
    expect(s.build(s.workload, { tick: { seconds: 1 } } as never).map((c) => c.name)).toEqual(outbox.build(outbox.workload, { tick: { seconds: 1 } } as never).map((c) => c.name));
    expect({ ...s }.build).toBeTypeOf('function');
    class Misspelt extends OutboxScenario {
      lessons = 'x';
    }
    expect(() => defineScenario(new Misspelt() as unknown as Scenario)).toThrow(/the scenario has no field lessons/);
  });
});
