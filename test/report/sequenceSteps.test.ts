// Turning a trace into diagram steps: deliveries become arrows, lost and dropped messages end in
// a cross, crashes and restarts are kept, bookkeeping is left out, and a long trace is capped
// with a count of what was omitted, never omitting a fault.
import { describe, expect, it } from 'vitest';
import { mermaidSequence } from '../../src/report/mermaidSequence.ts';
import { sequenceSteps } from '../../src/report/sequenceSteps.ts';
import { svgSequence } from '../../src/report/svgSequence.ts';
import type { TraceEvent } from '../../src/trace.ts';

let seq = 0;
const ev = (tick: number, component: string, kind: TraceEvent['kind'], data?: unknown): TraceEvent => ({ tick, seq: seq++, component, kind, ...(data === undefined ? {} : { data }) });
const deliver = (tick: number, from: string, to: string, type: string) => ev(tick, to, 'deliver', { from, event: { type } });

const trace: TraceEvent[] = [
  ev(0, 'world', 'start', { seed: '1', plan: [] }),
  ev(0, 'client', 'state', 'idle'),
  ev(0, 'source', 'state', 'idle'),
  ev(0, 'db', 'state', 'ready'),
  deliver(1, 'client', 'source', 'cmd'),
  ev(2, 'source', 'timer', 'retry'),
  ev(3, 'source', 'lose', { to: 'db', event: { type: 'db.exec' } }),
  ev(4, 'world', 'fault', { kind: 'crash', window: 'source.waiting', occurrence: 1 }),
  ev(4, 'source', 'crash', { window: 'source.waiting' }),
  deliver(5, 'source', 'db', 'sys.peerCrashed'),
  ev(6, 'source', 'drop', { from: 'db', event: { type: 'db.result' } }),
  ev(7, 'source', 'restart'),
  ev(8, 'db', 'note', { kind: 'effect', data: { table: 'orders' } }),
  ev(9, 'world', 'phase', 'liveness'),
];

describe('sequenceSteps', () => {
  it('keeps messages and faults, in booting order, and leaves bookkeeping out', () => {
    const d = sequenceSteps(trace);
    expect(d.participants).toEqual(['client', 'source', 'db']);
    expect(d.steps.map((s) => s.kind)).toEqual(['message', 'lost', 'crash', 'dropped', 'restart', 'note', 'phase']);
    expect(d.omitted).toBe(0);
  });

  it('renders Mermaid arrows, a crossed lost message and a visible crash', () => {
    const m = mermaidSequence(sequenceSteps(trace));
    expect(m.split('\n')[0]).toBe('sequenceDiagram');
    expect(m).toContain('client->>source: cmd');
    expect(m).toContain('source--xdb: db.exec\n  Note over source,db: lost');
    expect(m).toContain('rect rgb(255, 205, 205)\n    Note over source: CRASH at source.waiting\n  end');
    expect(m).toContain('db--xsource: db.result');
    expect(m).toContain('Note over source: restart');
    expect(m).not.toMatch(/retry|idle|ready|sys\./);
  });

  it('renders SVG with a dashed lost arrow, a red crash box and no external reference', () => {
    const svg = svgSequence(sequenceSteps(trace), 'example');
    expect(svg.startsWith('<svg ')).toBe(true);
    expect(svg.match(/class="lifeline"/g)).toHaveLength(3);
    expect(svg).toContain('<g class="msg lost">');
    expect(svg).toContain('db.exec (lost)');
    expect(svg).toMatch(/<g class="crash">.*CRASH at source\.waiting/);
    expect(svg).not.toMatch(/https?:|xlink|href/);
  });

  it('marks a message its crashed sender sent before the crash, and keeps a long label\'s fault suffix', () => {
    const t: TraceEvent[] = [
      ev(0, 'source', 'state', 'idle'),
      ev(0, 'db', 'state', 'ready'),
      ev(1, 'source', 'crash', { window: 'source.committing' }),
      deliver(2, 'source', 'db', 'db.commit'),
      ev(3, 'source', 'drop', { from: 'db', event: { type: 'provider.statusResultWithAVeryLongName' } }),
      ev(4, 'source', 'restart'),
      deliver(5, 'source', 'db', 'db.exec'),
    ];
    const d = sequenceSteps(t);
    expect(mermaidSequence(d)).toContain('source->>db: db.commit (sent before the crash)\n');
    expect(mermaidSequence(d).endsWith('source->>db: db.exec')).toBe(true);
    const svg = svgSequence(d, 'in flight');
    expect(svg).toContain('db.commit (sent before the crash)</text>');
    expect(svg).toMatch(/>provider\.statusResult[^<]*… \(dropped\)<\/text>/);
  });

  it('caps a long trace around its fault and says how many steps were omitted', () => {
    const long: TraceEvent[] = [];
    for (let i = 0; i < 100; i++) long.push(deliver(i, i % 2 ? 'a' : 'b', i % 2 ? 'b' : 'a', `m${i}`));
    long.push(ev(100, 'a', 'crash', { window: 'a.busy' }));
    for (let i = 101; i < 200; i++) long.push(deliver(i, 'a', 'b', `m${i}`));
    const d = sequenceSteps(long, { maxSteps: 20, contextSteps: 2 });
    const omittedNotes = d.steps.filter((s) => s.kind === 'omitted');
    const shown = d.steps.length - omittedNotes.length;
    expect(shown).toBeLessThanOrEqual(20);
    expect(d.steps.some((s) => s.kind === 'crash')).toBe(true);
    expect(d.omitted).toBe(200 - shown);
    expect(omittedNotes.reduce((n, s) => n + (s.kind === 'omitted' ? s.count : 0), 0)).toBe(d.omitted);
    expect(mermaidSequence(d)).toMatch(/Note over [ab],[ab]: … \d+ steps omitted …/);
  });
});
