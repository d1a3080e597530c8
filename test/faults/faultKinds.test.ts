// Every fault kind is described once, in its own file (src/faults/kinds/<kind>.ts), and the plan
// reader, the fault space, explore, check and the reports read it from there. These tests hold
// each descriptor to that contract: a plan entry of its kind reads back as the fault it was
// printed from, a missing field is named in the kind's words, its places in a design are exactly
// those its kind allows, each kind says in its own words why it strikes nowhere, and what a kind
// does to a running world is said with the kernel's primitives alone (the kernel names no kind).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { StrikeSpace } from '../../src/faults/faultKind.ts';
import type { MessageOps, ServerCrashChoice, WindowOps, WorldView } from '../../src/faults/faultWorld.ts';
import { FAULT_DESCRIPTORS, FAULT_KINDS, faultDescriptor, faultFields, faultLabel, faultSentence, isDeclaredKind, isWindowFault, MESSAGE_FAULT_KINDS, MESSAGE_WORLDS, windowDescriptors, WINDOW_FAULT_KINDS, WINDOW_STRIKE_ORDER, type Fault, type WindowChoice } from '../../src/faults/faults.ts';
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
    expect(restore!.note({ window: 'relay.idle' })).toBe('taken down and restored from its snapshot (as relay.idle was entered)');
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

  describe('in a running world', () => {
    // Three processes (relay up, device0 up with a clock that can jump, worker down) and a
    // server with a snapshot that crashes at marks inside its steps.
    const NAMES = ['relay', 'device0', 'worker', 'ordersDb'];
    const serverCrash: ServerCrashChoice = { kind: 'crash', comp: 3, at: { step: { kind: 'timer', id: 't1' }, mark: 0, window: 'ordersDb.afterCommit', nth: 1 } };
    const view: WorldView = {
      components: 4,
      liveProcess: (i) => i === 0 || i === 1,
      restorable: (i) => i === 3,
      skewable: (i) => i === 1,
      name: (i) => NAMES[i]!,
      windowOf: (i) => `${NAMES[i]}.${['waiting', 'done', 'down', 'idle'][i]}`,
      serverCrashes: (out) => void out.push(serverCrash),
    };
    /** WindowOps that record what a kind asked for, in order; `booted` and `down` as the test sets them. */
    const recorder = (o: { booted?: (i: number) => boolean; down?: (i: number) => boolean } = {}) => {
      const calls: unknown[][] = [];
      const ops: WindowOps = {
        crash: (...a) => void calls.push(['crash', ...a]),
        crashInStep: (...a) => void calls.push(['crashInStep', ...a]),
        restore: (...a) => void calls.push(['restore', ...a]),
        skew: (...a) => void calls.push(['skew', ...a]),
        booted: o.booted ?? (() => true),
        down: o.down ?? (() => false),
        indexOf: (name) => NAMES.indexOf(name),
        chosen: (place) => void calls.push(['chosen', place]),
        struck: () => void calls.push(['struck']),
      };
      return { ops, calls };
    };
    const offers = (kind: string) => {
      const out: WindowChoice[] = [];
      windowDescriptors().find((d) => d.kind === kind)!.world.offer(view, out);
      return out;
    };

    it('window kinds offer a search their choices where their kind strikes, and only there', () => {
      expect(offers('crash')).toEqual([{ kind: 'crash', comp: 0 }, { kind: 'crash', comp: 1 }, serverCrash]);
      expect(offers('restore')).toEqual([
        { kind: 'restore', comp: 3, at: 0 },
        { kind: 'restore', comp: 3, at: 1 },
      ]);
      expect(offers('skew')).toEqual([{ kind: 'skew', comp: 1 }]);
    });

    it('a chosen window fault is traced by the place its plan entry names, then done; its entry counts the windows entered', () => {
      const entered = new Map([['relay.waiting', 3], ['ordersDb.afterCommit', 2]]);
      for (const d of windowDescriptors()) {
        for (const c of offers(d.kind)) {
          const { ops, calls } = recorder();
          d.world.take(ops, view, c);
          const entry = d.world.entry(view, c, entered);
          if (c.kind === 'crash' && c.at !== undefined) {
            // A server's crash is traced inside its step, at the mark; the entry strikes the next entry of that window.
            expect(calls).toEqual([['crashInStep', 3, c.at]]);
            expect(entry).toEqual({ kind: 'crash', window: 'ordersDb.afterCommit', occurrence: 3 });
            continue;
          }
          const { occurrence, ...place } = entry;
          expect(calls[0], `${d.kind} ${JSON.stringify(c)}`).toEqual(['chosen', place]);
          expect(calls[1]![0]).toBe(d.kind);
          expect(occurrence).toBe(entered.get((place as { window: string }).window) ?? 1);
        }
      }
    });

    it("a plan's window entry records its strike before it acts, and strikes nothing where there is nothing to strike", () => {
      const [crash, restore, skew] = windowDescriptors();
      let r = recorder();
      crash!.world.strike(r.ops, 0, 'relay.waiting', { kind: 'crash', window: 'relay.waiting', occurrence: 1 });
      expect(r.calls).toEqual([['struck'], ['crash', 0, 'relay.waiting']]);
      r = recorder({ down: () => true });
      crash!.world.strike(r.ops, 0, 'relay.waiting', { kind: 'crash', window: 'relay.waiting', occurrence: 1 });
      expect(r.calls, 'a crash of a process already down').toEqual([]);
      r = recorder();
      restore!.world.strike(r.ops, 0, 'relay.waiting', { kind: 'restore', component: 'ordersDb', window: 'relay.waiting', occurrence: 1 });
      expect(r.calls).toEqual([['struck'], ['restore', 3, 'relay.waiting']]);
      r = recorder({ booted: (i) => i < 3 });
      restore!.world.strike(r.ops, 0, 'relay.waiting', { kind: 'restore', component: 'ordersDb', window: 'relay.waiting', occurrence: 1 });
      expect(r.calls, 'a restore of a component not yet booted').toEqual([]);
      r = recorder();
      skew!.world.strike(r.ops, 1, 'device0.done', { kind: 'skew', window: 'device0.done', occurrence: 1 });
      expect(r.calls).toEqual([['struck'], ['skew', 1]]);
      // A skew and a restore strike before a crash at the same moment; only a crash cuts a server's step short.
      expect(WINDOW_STRIKE_ORDER).toEqual(['skew', 'restore', 'crash']);
      expect(windowDescriptors().filter((d) => d.world.insideStep).map((d) => d.kind)).toEqual(['crash']);
    });

    it('message kinds each do one thing to the message they strike, with the primitives alone', () => {
      const done = MESSAGE_FAULT_KINDS.map((kind) => {
        const calls: unknown[][] = [];
        const ops: MessageOps = {
          delayTicks: 40,
          drop: () => void calls.push(['drop']),
          hold: () => void calls.push(['hold']),
          later: (t) => void calls.push(['later', t]),
          twice: () => void calls.push(['twice']),
          tellSender: (type) => void calls.push(['tellSender', type]),
        };
        MESSAGE_WORLDS.get(kind)!.act(ops);
        return [kind, calls, MESSAGE_WORLDS.get(kind)!.ownConnection];
      });
      expect(done).toEqual([
        ['lose', [['drop']], true],
        ['duplicate', [['twice']], true],
        ['delay', [['later', 40]], true],
        // A request on a connection of its own has no order to break.
        ['reorder', [['hold']], false],
        ['rebalance', [['tellSender', 'sys.rebalance']], true],
      ]);
    });

    it('the kernel names no fault kind: it asks the descriptors', () => {
      const kernel = readFileSync(join(import.meta.dirname, '..', '..', 'src', 'kernel', 'kernel.ts'), 'utf8');
      const kinds = FAULT_KINDS.join('|');
      expect(kernel.match(new RegExp(`(kind\\s*[!=]==\\s*'(${kinds})'|case '(${kinds})':)`, 'g')) ?? []).toEqual([]);
    });
  });
});
