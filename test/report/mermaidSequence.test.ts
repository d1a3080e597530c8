// What the trace-to-diagram step keeps and how Mermaid is written from it, on the cases a real
// run rarely shows: message faults that only leave a note, guards and effects in words, events
// without a type, components Mermaid would misread (reserved words, dashes, leading digits) and
// text holding Mermaid's own syntax. A diagram that does not parse hides the counterexample.
import { describe, expect, it } from 'vitest';
import { markedLines } from '../../src/report/keyStory.ts';
import { mermaidSequence } from '../../src/report/mermaidSequence.ts';
import { sequenceSteps, type SequenceDiagram } from '../../src/report/sequenceSteps.ts';
import type { TraceEvent } from '../../src/kernel/trace.ts';

let seq = 0;
const ev = (tick: number, component: string, kind: TraceEvent['kind'], data?: unknown): TraceEvent => ({ tick, seq: seq++, component, kind, ...(data === undefined ? {} : { data }) });

describe('sequenceSteps', () => {
  it('marks the notes a fault drew as the faults they are, and no model note for its words alone', () => {
    const d = sequenceSteps([
      ev(1, 'relay', 'duplicate', { to: 'broker', event: { type: 'publish' } }),
      ev(2, 'relay', 'delay', { to: 'broker', event: { type: 'publish' } }),
      ev(3, 'ordersDb', 'restore', { window: 'relay.idle' }),
      ev(4, 'ordersDb', 'note', { kind: 'snapshot restored and clock jumps' }),
      ev(5, 'relay', 'note', { kind: 'batch held back' }),
    ]);
    expect(d.steps.filter((s) => s.kind === 'note' && s.fault === true).map((s) => s.kind === 'note' && s.component)).toEqual(['relay', 'relay', 'ordersDb']);
    const lines = markedLines(d);
    expect(lines.map((l) => l.replace(/ +/g, ' '))).toEqual(['t=1 relay: publish to broker duplicated', 't=2 relay: publish to broker delayed', 't=3 ordersDb: taken down and restored from its snapshot (as relay.idle was entered)']);
  });

  it('notes duplicated, delayed and reordered messages on their sender, and words guards and effects', () => {
    const d = sequenceSteps([
      ev(0, 'relay', 'state', 'idle'),
      ev(0, 'broker', 'state', 'serving'),
      ev(1, 'relay', 'duplicate', { to: 'broker', event: { type: 'publish' } }),
      ev(2, 'relay', 'delay', { to: 'broker', event: { type: 'publish' } }),
      ev(3, 'relay', 'reorder', { event: { type: 'publish' } }),
      ev(4, 'broker', 'note', { kind: 'guard', data: { guard: 'inboxKey' } }),
      ev(5, 'broker', 'note', { kind: 'effect', data: { table: 'reservations' } }),
      ev(6, 'broker', 'note', { kind: 'effect' }),
      ev(7, 'broker', 'note', { kind: 'guard' }),
      ev(8, 'broker', 'note'),
      ev(9, 'world', 'phase', 'drain'),
      ev(10, 'relay', 'lose', { event: { type: 'publish' } }), // no receiver recorded: left out
      ev(11, 'broker', 'deliver', { event: { type: 'ack' } }), // no sender recorded: left out
      ev(12, 'broker', 'deliver', { from: 'relay', event: {} }),
      ev(13, 'relay', 'crash'),
    ]);
    expect(d.participants).toEqual(['relay', 'broker']);
    expect(d.steps).toHaveLength(11);
    expect(d.steps).toMatchObject([
      { kind: 'note', tick: 1, component: 'relay', label: 'publish to broker duplicated' },
      { kind: 'note', tick: 2, component: 'relay', label: 'publish to broker delayed' },
      { kind: 'note', tick: 3, component: 'relay', label: 'publish to ? held back (reorder)' },
      { kind: 'note', tick: 4, component: 'broker', label: 'the inbox key suppressed a repeat' },
      { kind: 'note', tick: 5, component: 'broker', label: 'effect committed (reservations)' },
      { kind: 'note', tick: 6, component: 'broker', label: 'effect committed' },
      { kind: 'note', tick: 7, component: 'broker', label: 'guard' },
      { kind: 'note', tick: 8, component: 'broker', label: 'note' },
      { kind: 'phase', tick: 9, text: 't=9 phase drain' },
      { kind: 'message', tick: 12, from: 'relay', to: 'broker', ...lab('message') },
      { kind: 'crash', tick: 13, component: 'relay', window: undefined },
    ]);
  });

  it('hangs its notes on the world when no component takes part', () => {
    const d = sequenceSteps([ev(0, 'world', 'start'), ev(5, 'world', 'phase', 'liveness')]);
    expect(d.participants).toEqual(['world']);
    expect(mermaidSequence(d)).toBe('sequenceDiagram\n  participant world\n  Note over world: t=5 liveness phase: faults healed, crashed components restart');
    expect(sequenceSteps([])).toEqual({ participants: [], steps: [], folded: 0 });
  });
});

/** A label drawn as one part, with nothing more to show on hover. */
const lab = (label: string) => ({ label, parts: [label], detail: label });

describe('mermaidSequence', () => {
  it('aliases components Mermaid would misread, and keeps their names for the reader', () => {
    const d: SequenceDiagram = {
      participants: ['order-db', 'end', '2nd', 'relay'],
      steps: [
        { kind: 'message', tick: 1, from: 'relay', to: 'order-db', ...lab('db.run') },
        { kind: 'lost', tick: 2, from: 'end', to: '2nd', ...lab('x') },
        { kind: 'lost', tick: 2, from: 'relay', to: 'relay', ...lab('self') },
        { kind: 'dropped', tick: 3, from: 'relay', to: 'end', ...lab('y') },
      ],
      folded: 0,
    };
    expect(mermaidSequence(d)).toBe(
      [
        'sequenceDiagram',
        '  participant order_db as order-db',
        '  participant p_end as end',
        '  participant p_2nd as 2nd',
        '  participant relay',
        '  relay->>order_db: db.run',
        '  p_end--xp_2nd: x',
        '  Note over p_end,p_2nd: lost',
        '  relay--xrelay: self',
        '  Note over relay: lost',
        '  relay--xp_end: y',
        '  Note over p_end: dropped, end is down',
      ].join('\n'),
    );
  });

  it('writes the characters Mermaid reads as syntax as entity codes in every text, and counts what a group folds', () => {
    const d: SequenceDiagram = {
      participants: ['a'],
      steps: [
        { kind: 'note', tick: 1, component: 'a', ...lab('x; y #1 <b>\nnext\r\nline') },
        { kind: 'crash', tick: 2, component: 'a', window: 'a.busy;now' },
        { kind: 'restart', tick: 3, component: 'a' },
        { kind: 'fold', count: 1, text: '1 other step: a x;y', detail: '1 step: a: x;y' },
        { kind: 'fold', count: 7, text: 'the 7 steps above, 1 more time', detail: '7 steps' },
        { kind: 'phase', tick: 9, text: 'end # of run' },
      ],
      folded: 8,
    };
    expect(mermaidSequence(d).split('\n').slice(2)).toEqual([
      '  Note over a: x#59; y #35;1 #60;b#62; next line',
      '  rect rgb(255, 205, 205)',
      '    Note over a: CRASH at a.busy#59;now',
      '  end',
      '  Note over a: restart with durable state only',
      '  Note over a: ⋯ 1 other step: a x#59;y',
      '  Note over a: ⋯ the 7 steps above, 1 more time',
      '  Note over a: end #35; of run',
    ]);
  });

  it('spans phase notes over the first and last participant', () => {
    const d: SequenceDiagram = { participants: ['a', 'b', 'c'], steps: [{ kind: 'phase', tick: 1, text: 'liveness' }], folded: 0 };
    expect(mermaidSequence(d).split('\n').at(-1)).toBe('  Note over a,c: liveness');
  });
});
