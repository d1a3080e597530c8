// A counterexample drawn around the key its finding names: the steps about that key, the faults
// and the moments the claims' checkers place (the second committed outcome of a duplicate, the
// fact whose effect went missing) drawn and marked, every other step folded into a group that
// counts it. Checked on two real counterexamples (a carrier called twice, an order whose
// reservation never came) and on small traces for the rules that decide which step is about
// the key.
import { beforeAll, describe, expect, it } from 'vitest';
import carrier from '../../scenarios/carrier-no-key-no-lookup.ts';
import retention from '../../scenarios/carrier-key-short-retention.ts';
import { orderPipeline, reservationClaim } from '../../models/designs/orderPipeline.ts';
import { defineScenario } from '../../src/index.ts';
import { replay } from '../../src/modes/replay.ts';
import dualWrite from '../../scenarios/mercury-dual-write-commit-first.ts';
import { focusOf, relatedSteps } from '../../src/report/keyFocus.ts';
import { markedLines, storyLines } from '../../src/report/keyStory.ts';
import { mermaidSequence } from '../../src/report/mermaidSequence.ts';
import { counterexampleSteps, traceSteps, type SequenceDiagram, type SequenceStep } from '../../src/report/sequenceSteps.ts';
import { svgSequence } from '../../src/report/svgSequence.ts';
import type { TraceEvent } from '../../src/kernel/trace.ts';
import { runWindows, type Counterexample } from '../../src/modes/windows.ts';

let duplicate: Counterexample;
let lost: Counterexample;
beforeAll(() => {
  duplicate = runWindows(carrier).counterexamples.find((c) => c.violation === 'duplicate effect')!;
  lost = runWindows(dualWrite).counterexamples.find((c) => c.violation === 'lost effect')!;
});

const marked = (d: SequenceDiagram) => d.steps.filter((s): s is Extract<SequenceStep, { kind: 'message' }> => s.kind === 'message' && s.mark !== undefined);

/** Steps drawn plus steps counted in groups: every step a diagram could draw, none dropped. */
function accounted(d: SequenceDiagram): number {
  return d.steps.reduce((n, s) => n + (s.kind === 'fold' ? s.count : s.kind === 'missing' || (s.kind === 'note' && s.at !== undefined && s.mark !== undefined && s.label.startsWith('timer')) ? 0 : 1), 0);
}

describe('a duplicate drawn around its key', () => {
  it('marks the second provider.call as the duplicate and the first as the first outcome', () => {
    const d = counterexampleSteps(duplicate);
    expect(d.focus?.keys.map((k) => k.key)).toEqual(['o-1/1']);
    const calls = marked(d).filter((s) => s.parts[0] === 'provider.call');
    expect(calls.map((s) => [s.from, s.to, s.mark!.kind, s.mark!.text])).toEqual([
      ['caller', 'provider', 'outcome', '1st committed outcome for o-1/1'],
      ['caller', 'provider', 'duplicate', 'DUPLICATE: 2nd committed outcome for o-1/1'],
    ]);
    // The duplicate is the call delivered after the caller's restart, not the one in flight at its crash.
    expect(calls[0]!.inFlight).toBe(true);
    expect(calls[1]!.inFlight).toBeUndefined();
    expect(duplicate.trace[calls[1]!.at!]!.kind).toBe('deliver');
  });

  it('folds every other step into groups that count it, and never says a step was omitted', () => {
    const d = counterexampleSteps(duplicate);
    expect(accounted(d)).toBe(traceSteps(duplicate.trace).length);
    expect(d.folded).toBeGreaterThan(0);
    const folds = d.steps.filter((s) => s.kind === 'fold');
    expect(folds.every((s) => s.kind === 'fold' && /^\d+ other steps?: /.test(s.text))).toBe(true);
    expect(mermaidSequence(d)).not.toMatch(/omitted/);
    // Nothing about o-2 is drawn: its pickup is folded away.
    expect(d.steps.some((s) => s.kind === 'message' && /o-2/.test(s.label))).toBe(false);
  });

  it('draws the duplicate in red with its mark, in the SVG and in Mermaid, and tells it in words', () => {
    const d = counterexampleSteps(duplicate);
    const svg = svgSequence(d, 'duplicate');
    expect(svg).toMatch(/<g class="msg marked duplicate" data-step="\d+">/);
    expect(svg).toMatch(/<g class="mark duplicate">[\s\S]*?▲ DUPLICATE: 2nd committed outcome for o-1\/1/);
    expect(mermaidSequence(d)).toMatch(/rect rgb\(255, 214, 170\)\n  caller->>provider: provider\.call ref=0\.0#35;1\n    Note right of provider: DUPLICATE: 2nd committed outcome for o-1\/1\n  end/);
    expect(markedLines(d).at(-1)).toMatch(/^t=\d+ +caller → provider  provider\.call ref=0\.0#1   ◀ DUPLICATE: 2nd committed outcome for o-1\/1$/);
    expect(storyLines(d).length).toBe(d.steps.length);
  });
});

describe('a repeat let through because the dedup record was forgotten', () => {
  it('tells the provider key past its retention among the few steps a page opens with', () => {
    const r = runWindows(retention);
    const ce = r.counterexamples.find((c) => c.violation === 'duplicate effect')!;
    const lines = markedLines(counterexampleSteps(ce));
    const lapse = lines.findIndex((l) => /^t=\d+ +provider: idempotency key past its retention \(first used at t=\d+, kept \d+ ticks\) key=o-1\/1$/.test(l));
    expect(lapse, lines.join('\n')).toBeGreaterThan(lines.findIndex((l) => /1st committed outcome/.test(l)));
  });
});

describe('a lost effect whose outbox rows a sweep deleted', () => {
  it('tells the deletion of the key’s row among the few steps a page opens with, though the sweep names no key', () => {
    const sweeping = defineScenario({
      name: 'cleaner-deletes-unpublished',
      title: 'An outbox cleaner that deletes unpublished rows, and a relay down for five minutes',
      source: 'test',
      lesson: 'A cleaner that does not check published loses the rows a slow relay has not sent.',
      build: orderPipeline({ design: 'outbox', relay: { restartAfter: '5m' }, cleanup: { retention: '1m', every: '20s', rows: 'all' } }),
      workload: { size: 1 },
      claims: [reservationClaim],
      expect: { verdict: 'violated', violations: ['lost effect'] },
    });
    const r = replay(sweeping, { kind: 'plan', seed: 1, plan: [{ kind: 'crash', window: 'relay.idle', occurrence: 1 }] });
    expect(r.outcome).toBe('lost effect');
    const lines = markedLines(counterexampleSteps({ trace: r.trace, findings: r.findings, violation: 'lost effect' }));
    expect(lines, lines.join('\n')).toContainEqual(expect.stringMatching(/^t=\d+ +ordersDb: outbox row deleted \(committed at t=\d+\) event=evt-o-1-v1$/));
  });
});

describe('a lost effect drawn around its key', () => {
  it('draws only the components that touched o-1|1 and marks the effect that never came', () => {
    const d = counterexampleSteps(lost);
    expect(d.participants).toEqual(['client', 'source', 'ordersDb', 'inventoryDb']);
    const missing = d.steps.filter((s) => s.kind === 'missing');
    expect(missing).toEqual([expect.objectContaining({ component: 'inventoryDb', text: 'MISSING: no inventory reservation for o-1|1' })]);
    expect(marked(d).map((s) => s.mark!.text)).toEqual(['source fact o-1|1 committed']);
    expect(mermaidSequence(d)).toContain('rect rgb(255, 205, 205)\n    Note over inventoryDb: MISSING: no inventory reservation for o-1|1\n  end');
  });
});

let seq = 0;
const ev = (tick: number, component: string, kind: TraceEvent['kind'], data?: unknown): TraceEvent => ({ tick, seq: seq++, component, kind, ...(data === undefined ? {} : { data }) });
const deliver = (tick: number, from: string, to: string, event: Record<string, unknown>) => ev(tick, to, 'deliver', { from, event });

describe('which steps are about the key', () => {
  const focus = focusOf([{ violation: 'lost effect', effect: 'reservation', key: 'o-1|1' }], 'lost effect')!;
  const related = (trace: TraceEvent[]) => relatedSteps(traceSteps(trace), trace, focus);

  it('searches for the key and for the entity its first part names, as whole words', () => {
    expect(focus.tokens).toEqual(['o-1|1', 'o-1']);
    expect(related([deliver(1, 'a', 'b', { type: 'x', payload: { event_id: 'evt-o-1-v1' } }), deliver(2, 'a', 'b', { type: 'x', payload: { event_id: 'evt-o-12-v1' } }), deliver(3, 'a', 'b', { type: 'y', intent: 'address=dock 1&order_id=o-1&v=1' })])).toEqual([true, false, true]);
  });

  it('follows a conversation by its tx until a crash ends it or it turns to another entity', () => {
    const t = [
      deliver(1, 'source', 'db', { type: 'db.exec', tx: 'cmd-1', ops: [{ row: { order_id: 'o-1' } }] }),
      deliver(2, 'db', 'source', { type: 'db.result', tx: 'cmd-1' }),
      deliver(3, 'source', 'db', { type: 'db.commit', tx: 'cmd-1' }),
      deliver(4, 'source', 'db', { type: 'db.exec', tx: 'cmd-1', ops: [{ row: { order_id: 'o-2' } }] }),
      deliver(5, 'db', 'source', { type: 'db.result', tx: 'cmd-1' }),
    ];
    expect(related(t)).toEqual([true, true, true, false, false]);
    const crashed = [t[0]!, ev(2, 'source', 'crash', { window: 'source.busy' }), ev(3, 'source', 'restart'), deliver(4, 'source', 'db', { type: 'db.exec', tx: 'cmd-1' })];
    expect(related(crashed)).toEqual([true, true, true, false]);
  });

  it('takes a message naming nothing (an offset commit) as about the key when its sender last received the key, until its restart', () => {
    const t = [
      deliver(1, 'broker', 'consumer', { type: 'broker.deliver', offset: 0, payload: { order_id: 'o-2' } }),
      deliver(2, 'consumer', 'broker', { type: 'broker.commit', partition: 0, offset: 1 }),
      deliver(3, 'broker', 'consumer', { type: 'broker.deliver', offset: 1, payload: { order_id: 'o-1' } }),
      ev(4, 'consumer', 'crash', { window: 'consumer.received' }),
      // Sent before the crash, delivered after it: still the handling of o-1.
      deliver(5, 'consumer', 'broker', { type: 'broker.commit', partition: 0, offset: 2 }),
      ev(6, 'consumer', 'restart'),
      deliver(7, 'consumer', 'broker', { type: 'broker.subscribe', group: 'g' }),
    ];
    expect(related(t)).toEqual([false, false, true, true, true, true, false]);
  });

  it('keeps a reply that names an entity of another kind (an operation id) in the conversation', () => {
    const t = [deliver(1, 'caller', 'provider', { type: 'provider.call', ref: '0.0#1', intent: 'order_id=o-1' }), deliver(2, 'provider', 'caller', { type: 'provider.response', ref: '0.0#1', op_id: 'op-2' })];
    expect(related(t)).toEqual([true, true]);
  });
});

describe('a restore drawn as one step', () => {
  it('draws its crash as part of the restore, naming the window that struck it, and its restart as back from the snapshot', () => {
    const t = [
      ev(5, 'world', 'fault', { kind: 'restore', component: 'broker', window: 'source.idle', occurrence: 4 }),
      ev(5, 'broker', 'restore', { window: 'source.idle' }),
      ev(5, 'broker', 'crash', { window: 'source.idle' }),
      ev(15, 'broker', 'restart'),
      ev(20, 'relay', 'crash', { window: 'relay.polling' }),
      ev(30, 'relay', 'restart'),
    ];
    const steps = traceSteps(t);
    expect(steps.map((s) => s.kind)).toEqual(['note', 'restart', 'crash', 'restart']);
    const words = storyLines({ participants: ['broker', 'relay'], steps, folded: 0 });
    expect(words).toEqual([
      't=5    broker: taken down and restored from its snapshot (as source.idle was entered)',
      't=15   broker restarted from the restored snapshot',
      't=20   ✕ relay crashed at relay.polling',
      't=30   relay restarted with its durable state only',
    ]);
    // Restored while already down: it comes back from the snapshot when its restart comes.
    const down = [ev(1, 'relay', 'crash', { window: 'relay.polling' }), ev(3, 'relay', 'restore', { window: 'source.idle' }), ev(11, 'relay', 'restart')];
    expect(storyLines({ participants: ['relay'], steps: traceSteps(down), folded: 0 }).at(-1)).toBe('t=11   relay restarted from the restored snapshot');
  });
});

describe('an order regression drawn around its key', () => {
  it('marks each version the effect applied, and draws the delivery that carried each before its commit', async () => {
    const { default: regression } = await import('../../scenarios/ordering-concurrent-relay-no-version-check.ts');
    const ce = runWindows(regression).counterexamples.find((c) => c.violation === 'order regression')!;
    const d = counterexampleSteps(ce);
    const applied = d.steps.flatMap((s) => (s.kind !== 'fold' && s.kind !== 'missing' && 'mark' in s && s.mark !== undefined && / applied version /.test(s.mark.text) ? [s] : []));
    expect(applied.map((s) => ('mark' in s ? s.mark!.text : ''))).toEqual(['o-1 applied version 2', 'o-1 applied version 1', 'o-1 applied version 3']);
    // Before each commit that applied a version, the drawn delivery to the consumer that carried that version.
    for (const s of applied.filter((x) => x.kind === 'message')) {
      const version = / applied version (\d+)/.exec('mark' in s ? s.mark!.text : '')![1];
      const before = d.steps.slice(0, d.steps.indexOf(s)).filter((x): x is Extract<SequenceStep, { kind: 'message' }> => x.kind === 'message' && x.to === 'consumer' && x.parts[0] === 'broker.deliver');
      expect(before.at(-1)?.label, `the delivery before version ${version}`).toMatch(new RegExp(`-v${version}\\b`));
    }
  });
});

describe('a fault on a message that names no entity', () => {
  it('says whose conversation it was: the entity its transaction began about', () => {
    const t = [
      deliver(1, 'consumer', 'db', { type: 'db.exec', tx: 'd0.1.1', ops: [{ row: { event_id: 'evt-2' } }] }),
      deliver(2, 'db', 'consumer', { type: 'db.result', tx: 'd0.1.1' }),
      ev(3, 'consumer', 'lose', { to: 'db', event: { type: 'db.commit', tx: 'd0.1.1' } }),
      ev(4, 'consumer', 'lose', { to: 'db', event: { type: 'db.commit', tx: 'd9.9.9' } }),
    ];
    const lost = traceSteps(t).filter((s) => s.kind === 'lost');
    expect(lost.map((s) => (s.kind === 'lost' ? s.label : ''))).toEqual(['db.commit tx=d0.1.1 (for event_id=evt-2)', 'db.commit tx=d9.9.9']);
  });
});

describe('what led to a marked step', () => {
  const msg = (at: number, from: string, to: string, label: string, mark?: string): SequenceStep =>
    ({ kind: 'message', tick: at, from, to, label, parts: [label], detail: label, at, ...(mark === undefined ? {} : { mark: { kind: 'duplicate', text: mark } }) }) as SequenceStep;

  it('is drawn even when it is about another key, and its actor’s replies from the step’s own peer are passed over', async () => {
    const { foldSteps } = await import('../../src/report/foldSteps.ts');
    const all = [
      msg(0, 'broker', 'consumer', 'broker.deliver order=o-2'),
      msg(1, 'relay', 'db', 'db.run ref=poll-1'),
      msg(2, 'db', 'consumer', 'db.result tx=t1'),
      msg(3, 'consumer', 'db', 'db.commit tx=t1', 'DUPLICATE: 2nd committed outcome for o-1'),
    ];
    const { steps } = foldSteps(all, [false, false, true, true], { maxSteps: 40, context: 0 });
    expect(steps.map((s) => (s.kind === 'fold' ? `fold ${s.count}` : 'label' in s ? s.label : s.kind))).toEqual(['broker.deliver order=o-2', 'fold 1', 'db.result tx=t1', 'db.commit tx=t1']);
  });
});
