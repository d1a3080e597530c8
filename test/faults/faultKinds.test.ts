// Every fault kind is described once, in its own file (src/faults/kinds/<kind>.ts), and the plan
// reader, the fault space, explore, check and the reports read it from there. These tests hold
// each descriptor to that contract: a plan entry of its kind reads back as the fault it was
// printed from, a missing field is named in the kind's words, its places in a design are exactly
// those its kind allows, and each kind says in its own words why it strikes nowhere.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StrikeSpace } from '../../src/faults/faultKind.ts';
import { FAULT_DESCRIPTORS, FAULT_KINDS, faultDescriptor, faultFields, faultLabel, faultSentence, isDeclaredKind, isWindowFault, MESSAGE_FAULT_KINDS, windowDescriptors, WINDOW_FAULT_KINDS, type Fault } from '../../src/faults/faults.ts';
import { planFlag } from '../../src/cli/flagValues.ts';
import { describeFault } from '../../src/report/describePlan.ts';
import { faultJson } from '../../src/report/json.ts';

/** One fault of each kind, with a first and a later occurrence. */
const SAMPLES: readonly Fault[] = [
  { kind: 'crash', window: 'relay.afterBrokerAccept', occurrence: 1 },
  { kind: 'lose', point: 'relay->broker:broker.publish', occurrence: 2 },
  { kind: 'duplicate', point: 'broker->consumer:broker.deliver', occurrence: 1 },
  { kind: 'delay', point: 'consumer->broker:broker.commit', occurrence: 3 },
  { kind: 'reorder', point: 'relay->broker:broker.publish', occurrence: 1 },
  { kind: 'rebalance', point: 'broker->consumer1:broker.deliver', occurrence: 1 },
  { kind: 'restore', component: 'ordersDb', window: 'relay.afterBrokerAccept', occurrence: 2 },
  { kind: 'skew', window: 'device0.done', occurrence: 1 },
];

const SPACE: StrikeSpace = {
  windows: ['relay.idle', 'relay.afterBrokerAccept', 'ordersDb.afterCommit'],
  moments: ['relay.idle', 'relay.afterBrokerAccept'],
  restorable: ['ordersDb', 'broker'],
  skewable: ['relay.idle'],
};

describe('fault kind descriptors', () => {
  it('are one per kind, each in src/faults/kinds/<kind>.ts, listed once in the order kinds are swept', () => {
    expect(FAULT_DESCRIPTORS.map((d) => d.kind)).toEqual(FAULT_KINDS);
    expect(new Set(FAULT_KINDS).size).toBe(FAULT_KINDS.length);
    const files = readdirSync(join(import.meta.dirname, '..', '..', 'src', 'faults', 'kinds')).map((f) => f.replace(/\.ts$/, ''));
    expect(files.sort()).toEqual([...FAULT_KINDS].sort());
    expect(FAULT_KINDS).toEqual(['crash', 'lose', 'duplicate', 'delay', 'reorder', 'rebalance', 'restore', 'skew']);
    expect(WINDOW_FAULT_KINDS).toEqual(['crash', 'restore', 'skew']);
    expect(MESSAGE_FAULT_KINDS).toEqual(['lose', 'duplicate', 'delay', 'reorder', 'rebalance']);
    expect(FAULT_KINDS.filter(isDeclaredKind)).toEqual(['rebalance', 'restore', 'skew']);
    expect(faultDescriptor('crahs')).toBeUndefined();
  });

  it('cover every kind in the samples, a crash, a restore and a skew striking at a window and the rest at a message point', () => {
    expect(SAMPLES.map((f) => f.kind)).toEqual(FAULT_KINDS);
    expect(SAMPLES.filter(isWindowFault).map((f) => f.kind)).toEqual(['crash', 'restore', 'skew']);
  });

  it('print a plan entry with its fields in the order plans have always printed them', () => {
    expect(SAMPLES.map((f) => Object.keys(faultJson(f)).join(','))).toEqual([
      'kind,window,occurrence',
      'kind,point,occurrence',
      'kind,point,occurrence',
      'kind,point,occurrence',
      'kind,point,occurrence',
      'kind,point,occurrence',
      'kind,component,window,occurrence',
      'kind,window,occurrence',
    ]);
    // Read back, each entry prints the same text, key order and all.
    for (const f of SAMPLES) expect(JSON.stringify(planFlag(JSON.stringify([faultJson(f)]))![0])).toBe(JSON.stringify(faultJson(f)));
  });

  it.each(SAMPLES.map((f) => [f.kind, f] as const))('%s: a plan entry reads back as the fault it was printed from, fields in order', (_, f) => {
    const json = faultJson(f);
    expect(Object.keys(json)).toEqual(['kind', ...faultDescriptor(f.kind)!.fields, 'occurrence']);
    expect(planFlag(JSON.stringify([json]))).toEqual([f]);
    expect(faultFields(f)).toEqual(json);
  });

  it.each(SAMPLES.map((f) => [f.kind, f] as const))('%s: a plan entry missing any of its fields is refused in the kind\'s words', (kind, f) => {
    for (const field of faultDescriptor(kind)!.fields) {
      const entry: Record<string, unknown> = { ...faultJson(f) };
      delete entry[field];
      expect(() => planFlag(JSON.stringify([entry]))).toThrow(new RegExp(`^--plan fault 1: a ${kind} (fault )?needs `));
      entry[field] = 7;
      expect(() => planFlag(JSON.stringify([entry]))).toThrow(/needs/);
    }
    expect(() => planFlag(JSON.stringify([{ ...faultJson(f), extra: 1 }]))).toThrow(`a ${kind} fault has no field "extra"`);
  });

  it('describe each fault in a line naming its place and, past the first, its occurrence', () => {
    const lines = SAMPLES.map(describeFault);
    expect(lines).toEqual([
      'crash-and-restart at relay.afterBrokerAccept',
      'lose relay->broker:broker.publish (occurrence 2)',
      'duplicate broker->consumer:broker.deliver',
      'delay consumer->broker:broker.commit (occurrence 3)',
      'reorder relay->broker:broker.publish',
      'rebalance broker->consumer1:broker.deliver: its work moves to another receiver while it is on its way',
      'restore ordersDb from its snapshot at relay.afterBrokerAccept (occurrence 2)',
      'skew the clock of device0 at device0.done',
    ]);
    expect(SAMPLES.map(faultSentence)).toEqual(lines);
    expect(SAMPLES.map(faultLabel)).toEqual(['crash', 'lose', 'duplicate', 'delay', 'reorder', 'rebalance', 'restore ordersDb', 'skew']);
  });

  it('strike a design only where their kind allows, in the order a sweep strikes them', () => {
    const places = Object.fromEntries(windowDescriptors().map((d) => [d.kind, d.places(SPACE).map((p) => p.fault(2))]));
    expect(places['crash']).toEqual(SPACE.windows.map((window) => ({ kind: 'crash', window, occurrence: 2 })));
    expect(places['restore']).toEqual(SPACE.restorable.flatMap((component) => SPACE.moments.map((window) => ({ kind: 'restore', component, window, occurrence: 2 }))));
    expect(places['skew']).toEqual([{ kind: 'skew', window: 'relay.idle', occurrence: 2 }]);
    const bare: StrikeSpace = { windows: ['relay.idle'], moments: ['relay.idle'], restorable: [], skewable: [] };
    expect(windowDescriptors().map((d) => d.places(bare).length)).toEqual([1, 0, 0]);
    expect(windowDescriptors().map((d) => d.arbitrary(bare, fc.constant(1)) !== undefined)).toEqual([true, false, false]);
  });

  it("draw explore's faults from the places their kind allows", () => {
    for (const kind of windowDescriptors()) {
      const places = kind.places(SPACE).map((p) => JSON.stringify(p.fault(1)));
      const drawn = fc.sample(kind.arbitrary(SPACE, fc.constant(1))!, { seed: 7, numRuns: 50 });
      for (const f of drawn) expect(places).toContain(JSON.stringify(f));
    }
  });

  it('refuse a replayed window fault whose design does not declare what it needs', () => {
    const components = [{ name: 'relay', process: true }, { name: 'ordersDb', restore: () => ({}) }, { name: 'device0', process: true, skewTicks: 5 }];
    const [crash, restore, skew] = windowDescriptors();
    expect(crash!.refuse({ kind: 'crash', window: 'relay.idle', occurrence: 1 }, components, 'relay')).toBeUndefined();
    expect(restore!.refuse({ kind: 'restore', component: 'ordersDb', window: 'relay.idle', occurrence: 1 }, components, 'relay')).toBeUndefined();
    expect(restore!.refuse({ kind: 'restore', component: 'ordersdb', window: 'relay.idle', occurrence: 1 }, components, 'relay')).toMatch(/^"ordersdb" cannot be restored \(components with a snapshot: ordersDb\).*ordersDb/);
    expect(restore!.refuse({ kind: 'restore', component: 'ordersDb', window: 'ordersDb.afterCommit', occurrence: 1 }, components, 'ordersDb')).toBe("a restore strikes at a process's window, and ordersDb.afterCommit is a server's");
    expect(skew!.refuse({ kind: 'skew', window: 'device0.done', occurrence: 1 }, components, 'device0')).toBeUndefined();
    expect(skew!.refuse({ kind: 'skew', window: 'relay.idle', occurrence: 1 }, components, 'relay')).toBe("relay's clock cannot be skewed (components whose clock can jump: device0)");
  });

  it("say, each in its own words, why they strike nowhere, and how a diagram draws what they did", () => {
    const nowhere = FAULT_DESCRIPTORS.map((d) => d.nowhere);
    expect(new Set(nowhere).size).toBe(nowhere.length);
    const [crash, restore, skew] = windowDescriptors();
    expect(crash!.note({ window: 'relay.idle' })).toBeUndefined();
    expect(restore!.note({ window: 'relay.idle' })).toBe('restored from its snapshot');
    expect(skew!.note({ ticks: 40 })).toBe('clock jumps 40 ticks ahead');
    const drawn = FAULT_DESCRIPTORS.flatMap((d) => (d.strikes === 'point' ? [[d.kind, d.drawn]] : []));
    expect(drawn).toEqual([
      ['lose', undefined],
      ['duplicate', 'duplicated'],
      ['delay', 'delayed'],
      ['reorder', 'held back (reorder)'],
      ['rebalance', 'on its way as its work is rebalanced away'],
    ]);
  });
});
