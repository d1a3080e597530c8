// Turning a trace into diagram steps: deliveries become arrows labelled with the keys of what
// they are about, lost and dropped messages end in a cross, crashes and restarts are kept,
// bookkeeping is left out, the heal sits where the trace has it, a long trace is folded into
// counted groups that say what they hold (never folding a fault), and the SVG lays its words out
// so that no lifeline runs through one.
import { describe, expect, it } from 'vitest';
import { mermaidSequence } from '../../src/report/mermaidSequence.ts';
import { counterexampleSteps, messageKeys, sequenceSteps } from '../../src/report/sequenceSteps.ts';
import { stepLine } from '../../src/report/keyStory.ts';
import type { KeyMoment } from '../../src/analysis/keyMoments.ts';
import type { Finding } from '../../src/checkers/finding.ts';
import { svgSequence } from '../../src/report/svgSequence.ts';
import type { TraceEvent } from '../../src/kernel/trace.ts';

let seq = 0;
const ev = (tick: number, component: string, kind: TraceEvent['kind'], data?: unknown): TraceEvent => ({ tick, seq: seq++, component, kind, ...(data === undefined ? {} : { data }) });
const deliver = (tick: number, from: string, to: string, type: string, fields: Record<string, unknown> = {}) => ev(tick, to, 'deliver', { from, event: { type, ...fields } });

/** The drawn groups of an SVG diagram: class, tooltip, background or box rectangle, and lines of text. */
interface Drawn {
  readonly cls: string;
  readonly title: string;
  readonly rect: { readonly x: number; readonly y: number; readonly width: number; readonly height: number } | undefined;
  readonly texts: readonly { readonly x: number; readonly y: number; readonly anchor: string; readonly text: string }[];
  readonly lines: readonly { readonly x1: number; readonly y: number; readonly x2: number }[];
}

const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

function drawn(svg: string): Drawn[] {
  return [...svg.matchAll(/<g class="([^"]+)"(?: data-step="\d*")?>(?:<title>([^<]*)<\/title>)?([\s\S]*?)<\/g>/g)].map((m) => {
    const body = m[3]!;
    const texts = [...body.matchAll(/<text x="(\d+)" y="(\d+)"( text-anchor="middle")?>([^<]*)<\/text>/g)].map((t) => ({ x: Number(t[1]), y: Number(t[2]), anchor: t[3] ? 'middle' : 'start', text: unescape(t[4]!) }));
    const r = /<rect(?: class="[^"]*")? x="(-?\d+)" y="(-?\d+)" width="(\d+)" height="(\d+)"/.exec(body);
    return {
      cls: m[1]!,
      // A group whose tooltip would only repeat its words has none: its words are its title.
      title: m[2] === undefined ? texts.map((t) => t.text).join(' ') : unescape(m[2]),
      rect: r ? { x: Number(r[1]), y: Number(r[2]), width: Number(r[3]), height: Number(r[4]) } : undefined,
      texts,
      lines: [...body.matchAll(/<line x1="(\d+)" y1="(\d+)" x2="(\d+)"/g)].map((l) => ({ x1: Number(l[1]), y: Number(l[2]), x2: Number(l[3]) })),
    };
  });
}

const lifelines = (svg: string) => [...svg.matchAll(/<line class="lifeline" x1="(\d+)"/g)].map((m) => Number(m[1]));
/** The words of a message as the SVG draws them, its lines joined. */
const words = (d: Drawn) => d.texts.map((t) => t.text).join(' ');
/** A Mermaid message label with its numeric entities decoded. */
const mermaidWords = (line: string) => line.replace(/^[^:]*: /, '').replace(/#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
/** The widest a line of 11px monospace text is drawn: 0.6 em per character in the fonts the page names. */
const TEXT_ADVANCE = 6.6;

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
    expect(d.folded).toBe(0);
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
    expect(svg).toMatch(/<g class="msg lost" data-step="\d+">/);
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
    const groups = drawn(svgSequence(d, 'in flight'));
    expect(groups.filter((g) => g.cls === 'msg').map(words)).toEqual(['db.commit (sent before the crash)', 'db.exec']);
    const dropped = groups.find((g) => g.cls === 'msg dropped')!;
    expect(words(dropped)).toBe('provider.statusResultWithAVeryLongName (dropped)');
    expect(dropped.texts[dropped.texts.length - 1]!.text).toBe('(dropped)');
    expect(dropped.title).toBe('provider.statusResultWithAVeryLongName dropped: source is down');
  });

  it('folds a long trace around its fault into groups that count and name what they hold', () => {
    const long: TraceEvent[] = [];
    for (let i = 0; i < 100; i++) long.push(deliver(i, i % 2 ? 'a' : 'b', i % 2 ? 'b' : 'a', `m${i}`));
    long.push(ev(100, 'a', 'crash', { window: 'a.busy' }));
    for (let i = 101; i < 200; i++) long.push(deliver(i, 'a', 'b', `m${i}`));
    const d = sequenceSteps(long, { maxSteps: 20, contextSteps: 2 });
    const folds = d.steps.filter((s) => s.kind === 'fold');
    const shown = d.steps.length - folds.length;
    expect(shown).toBeLessThanOrEqual(20);
    expect(d.steps.some((s) => s.kind === 'crash')).toBe(true);
    // Every step of the trace is drawn or counted in a group, never dropped.
    expect(d.folded).toBe(200 - shown);
    expect(folds.reduce((n, s) => n + (s.kind === 'fold' ? s.count : 0), 0)).toBe(d.folded);
    expect(mermaidSequence(d)).toMatch(/Note over a,b: ⋯ \d+ more steps: a ↔ b m\d+/);
    expect(mermaidSequence(d)).not.toMatch(/omitted/);
  });

  it('folds a loop into its first and last rounds and a count of those between', () => {
    const loop: TraceEvent[] = [ev(0, 'a', 'state', 'idle'), ev(0, 'b', 'state', 'idle')];
    for (let i = 0; i < 30; i++) loop.push(deliver(2 * i + 1, 'a', 'b', 'poll'), deliver(2 * i + 2, 'b', 'a', 'empty'));
    const d = sequenceSteps(loop);
    expect(d.steps.map((s) => (s.kind === 'fold' ? `fold ${s.count}: ${s.text}` : s.kind === 'message' ? s.label : s.kind))).toEqual(['poll', 'empty', 'fold 56: the 2 steps above, 28 more times: a ↔ b poll/empty ×28', 'poll', 'empty']);
  });
});

describe('what a database notes of its own', () => {
  it('names a row past its time to live and an idle rollback in words, with the keys of the rows they concern', () => {
    const d = sequenceSteps([
      ev(5, 'db', 'note', { kind: 'lapsed', data: { table: 'inbox', row: { event_id: 'evt-1', consumer: 'c' }, committedAt: 3, ttlTicks: 70 } }),
      ev(9, 'db', 'note', { kind: 'idleRollback', data: { tx: 'relay/claim-1', idleTicks: 100, rows: [{ event_id: 'evt-2', published: true }] } }),
    ]);
    expect(d.steps.map((s) => (s.kind === 'note' ? `${s.component}: ${s.label}` : s.kind))).toEqual([
      'db: inbox row past its time to live (committed at t=3, kept 70 ticks) event=evt-1',
      'db: transaction relay/claim-1 rolled back after 100 ticks idle event=evt-2',
    ]);
  });
});

describe('marks on one step', () => {
  it('draws every mark of a step that made several moments: the step carries one, a note on its component each of the others, none folded as a loop', () => {
    const marksTrace: TraceEvent[] = [ev(0, 'world', 'start', {}), deliver(1, 'app', 'db', 'db.commit', { keys: 'k1 k2 k3' }), deliver(2, 'db', 'app', 'db.committed')];
    const keys = ['k1', 'k2', 'k3'];
    const findings: Finding[] = keys.map((key) => ({ violation: 'duplicate effect', effect: 'row', key, count: 2 }));
    const moments: KeyMoment[] = keys.map((key) => ({ violation: 'duplicate effect', key, kind: 'outcome', at: 1, component: 'db', nth: 2 }));
    const d = counterexampleSteps({ trace: marksTrace, findings, violation: 'duplicate effect', moments });
    expect(d.steps.filter((s) => 'mark' in s && s.mark !== undefined).map(stepLine)).toEqual([
      't=1    app → db  db.commit   ◀ DUPLICATE: 2nd committed outcome for k1',
      't=1    db: the same db.commit   ◀ DUPLICATE: 2nd committed outcome for k2',
      't=1    db: the same db.commit   ◀ DUPLICATE: 2nd committed outcome for k3',
    ]);
  });
});

describe('messageKeys', () => {
  it('finds entity ids, keys and references at any depth, entities first, and nothing else', () => {
    const exec = { type: 'db.exec', tx: 'cmd-1', ops: [{ op: 'insert', table: 'orders', onConflict: 'error', row: { order_id: 'o-2', intent: 'accept o-2', version: 1 } }] };
    expect(messageKeys(exec)).toEqual([
      { name: 'order_id', value: 'o-2' },
      { name: 'tx', value: 'cmd-1' },
    ]);
    expect(messageKeys({ type: 'x', ref: 'r-1', idempotencyKey: 'k-1', orderId: 'o-1', partition_key: 'p-1' })).toEqual([
      { name: 'orderId', value: 'o-1' },
      { name: 'idempotencyKey', value: 'k-1' },
      { name: 'partition_key', value: 'p-1' },
      { name: 'ref', value: 'r-1' },
    ]);
  });

  it('counts numbers, ignores other values and names that merely end in "id", and gives a value once', () => {
    expect(messageKeys({ offset: 0, partition: 0 })).toEqual([{ name: 'offset', value: '0' }]);
    expect(messageKeys({ tx: true, paid: 'p', valid: 'v', id: null, key: { nested: 1 } })).toEqual([]);
    expect(messageKeys({ payload: { aggregate_id: 'o-1', order_id: 'o-1' } })).toEqual([{ name: 'aggregate_id', value: 'o-1' }]);
    expect(messageKeys(undefined)).toEqual([]);
  });
});

describe('labels with keys', () => {
  // Two orders' commands through a source that restarted in between: its transaction counter
  // starts again, so only the order keys tell the second command from a retry of the first.
  const command = (order: string) => ({ ref: `accept ${order}#1`, command: { aggregate_id: order, intent: `accept ${order}`, data: { order_id: order } } });
  const exec = (order: string) => ({ tx: 'cmd-1', ops: [{ op: 'insert', table: 'orders', row: { order_id: order, intent: `accept ${order}` } }] });
  const dual: TraceEvent[] = [
    ev(0, 'client', 'state', 'idle'),
    ev(0, 'source', 'state', 'idle'),
    ev(0, 'ordersDb', 'state', 'ready'),
    deliver(1, 'client', 'source', 'cmd', command('o-1')),
    deliver(2, 'source', 'ordersDb', 'db.exec', exec('o-1')),
    ev(3, 'source', 'crash', { window: 'source.committing' }),
    deliver(4, 'source', 'ordersDb', 'db.commit', { tx: 'cmd-1' }),
    ev(5, 'source', 'restart'),
    deliver(6, 'client', 'source', 'cmd', command('o-2')),
    deliver(7, 'source', 'ordersDb', 'db.exec', exec('o-2')),
    ev(8, 'ordersDb', 'note', { kind: 'effect', data: { table: 'orders', row: { order_id: 'o-2' } } }),
  ];

  it('names the order each command and statement is about, in the same words in Mermaid and SVG', () => {
    const d = sequenceSteps(dual);
    const mermaid = mermaidSequence(d).split('\n').filter((l) => l.includes('->>'));
    expect(mermaid.map(mermaidWords)).toEqual([
      'cmd ref=accept o-1#1',
      'db.exec order=o-1 tx=cmd-1',
      'db.commit tx=cmd-1 (sent before the crash)',
      'cmd ref=accept o-2#1',
      'db.exec order=o-2 tx=cmd-1',
    ]);
    // `#` would start a Mermaid entity and `;` end a statement: both are written as entities.
    expect(mermaid[0]).toBe('  client->>source: cmd ref=accept o-1#35;1');
    const svg = svgSequence(d, 'dual write');
    expect(drawn(svg).filter((g) => g.cls === 'msg').map(words)).toEqual(mermaid.map(mermaidWords));
    expect(mermaidSequence(d)).toContain('Note over ordersDb: effect committed (orders) order=o-2');
  });

  it('keeps the more specific of two related values, and a short value only as itself', () => {
    const label = (fields: Record<string, unknown>) => {
      const s = sequenceSteps([deliver(1, 'a', 'b', 'm', fields)]).steps[0]!;
      return s.kind === 'message' ? s.label : '';
    };
    expect(label({ payload: { aggregate_id: 'o-1', event_id: 'evt-o-1-v1' }, ref: 'pub-1' })).toBe('m event=evt-o-1-v1 ref=pub-1');
    expect(label({ order_id: 'o-1', tx: 'o-12' })).toBe('m order=o-1 tx=o-12');
    expect(label({ offset: 0, ref: 'rec-0' })).toBe('m offset=0 ref=rec-0');
    // At most two keys are drawn; the third waits in the tooltip.
    expect(label({ order_id: 'o-1', event_id: 'e-9', ref: 'r-3' })).toBe('m event=e-9 order=o-1');
  });

  it('cuts a long value in the middle and keeps it whole in the SVG tooltip', () => {
    const key = 'customer-84/cart-19/attempt-1#2';
    const d = sequenceSteps([deliver(1, 'client', 'source', 'cmd', { key })]);
    const step = d.steps[0]!;
    expect(step.kind === 'message' && step.label).toBe('cmd key=custo…t-19/attempt-1#2');
    const g = drawn(svgSequence(d, 'long')).find((x) => x.cls === 'msg')!;
    expect(words(g)).toBe('cmd key=custo…t-19/attempt-1#2');
    expect(g.title).toBe(`cmd key=${key}`);
  });
});

describe('the heal', () => {
  it('is drawn where the trace has it, between the messages before and after it', () => {
    const t: TraceEvent[] = [
      ev(0, 'a', 'state', 'idle'),
      ev(0, 'b', 'state', 'idle'),
      deliver(1, 'a', 'b', 'before'),
      ev(2, 'a', 'crash', { window: 'a.busy' }),
      ev(40, 'world', 'phase', 'liveness'),
      ev(40, 'a', 'restart'),
      deliver(41, 'a', 'b', 'after'),
      deliver(42, 'b', 'a', 'reply'),
    ];
    const d = sequenceSteps(t);
    expect(d.steps.map((s) => s.kind)).toEqual(['message', 'crash', 'phase', 'restart', 'message', 'message']);
    const lines = mermaidSequence(d).split('\n');
    const at = (text: string) => lines.findIndex((l) => l.includes(text));
    expect(at('t=40 liveness phase')).toBeGreaterThan(at(': before'));
    expect(at('t=40 liveness phase')).toBeLessThan(at(': after'));
    const groups = drawn(svgSequence(d, 'heal'));
    const y = (cls: string, text?: string) => {
      const g = groups.find((x) => x.cls === cls && (text === undefined || words(x).startsWith(text)))!;
      return g.lines[0]?.y ?? g.rect!.y;
    };
    expect(y('phase')).toBeGreaterThan(y('msg', 'before'));
    expect(y('phase')).toBeLessThan(y('msg', 'after'));
    expect(groups.find((g) => g.cls === 'phase')!.title).toBe('t=40 liveness phase: faults healed, crashed components restart');
  });
});

describe('SVG layout', () => {
  // Long labels between neighbours, messages across third lifelines (rightwards, leftwards and
  // lost), a message to oneself, a lost message and notes on the first and last lifelines: every
  // placement rule at once.
  const t: TraceEvent[] = [
    ev(0, 'client', 'state', 'idle'),
    ev(0, 'source', 'state', 'idle'),
    ev(0, 'db', 'state', 'ready'),
    ev(0, 'broker', 'state', 'idle'),
    deliver(1, 'client', 'source', 'cmd', { ref: 'accept order-with-a-long-name#1', command: { aggregate_id: 'order-with-a-long-name' } }),
    deliver(2, 'source', 'db', 'db.exec', { tx: 'cmd-1', ops: [{ row: { event_id: 'evt-order-with-a-long-name-v1' } }] }),
    deliver(3, 'source', 'broker', 'broker.publish', { payload: { event_id: 'evt-order-with-a-long-name-v1' } }),
    deliver(4, 'source', 'source', 'self.check', { ref: 'a-reference-long-enough-to-matter' }),
    ev(5, 'db', 'lose', { to: 'source', event: { type: 'db.result', tx: 'cmd-1' } }),
    ev(6, 'client', 'note', { kind: 'guard', data: { guard: 'checkoutKey', key: 'customer-84/cart-19/attempt-1' } }),
    ev(7, 'broker', 'note', { kind: 'effect', data: { table: 'reservations', row: { order_id: 'order-with-a-long-name' } } }),
    deliver(8, 'broker', 'client', 'broker.ack', { ref: 'accept order-with-a-long-name#1' }),
    ev(9, 'source', 'lose', { to: 'broker', event: { type: 'broker.publish', payload: { event_id: 'evt-order-with-a-long-name-v2' } } }),
    ev(10, 'source', 'crash', { window: 'source.waitingForTheBrokerToAcknowledge' }),
  ];
  const svg = svgSequence(sequenceSteps(t), 'layout');
  const xs = lifelines(svg);
  const groups = drawn(svg);
  const width = Number(/ width="(\d+)"/.exec(svg)![1]);

  it('puts every message label on an opaque background that holds its text', () => {
    const msgs = groups.filter((g) => g.cls.startsWith('msg'));
    expect(msgs).toHaveLength(7);
    for (const g of msgs) {
      expect(svg).toContain(`<rect class="label-bg" x="${g.rect!.x}"`);
      for (const line of g.texts) {
        const half = (line.text.length * TEXT_ADVANCE) / 2;
        expect(line.x - half).toBeGreaterThanOrEqual(g.rect!.x);
        expect(line.x + half).toBeLessThanOrEqual(g.rect!.x + g.rect!.width);
        expect(line.y).toBeLessThanOrEqual(g.rect!.y + g.rect!.height);
        expect(line.y - 11).toBeGreaterThanOrEqual(g.rect!.y);
      }
    }
    // Lifelines come first in the document, so everything after is painted over them.
    expect(svg.lastIndexOf('class="lifeline"')).toBeLessThan(svg.indexOf('<g class="msg'));
  });

  it('widens each gap so a label between neighbours sits between their lifelines, clear of the arrow\'s end', () => {
    const neighbours = groups.filter((g) => g.cls.startsWith('msg') && g.lines.length === 1 && !xs.some((x) => x > Math.min(g.lines[0]!.x1, g.lines[0]!.x2) + 2 && x < Math.max(g.lines[0]!.x1, g.lines[0]!.x2) - 2));
    expect(neighbours.map((g) => g.title.split(' ')[0])).toEqual(['cmd', 'db.exec', 'db.result']);
    for (const g of neighbours) {
      const { x1, x2 } = g.lines[0]!;
      const lo = Math.min(x1, x2);
      const hi = Math.max(x1, x2);
      expect(g.rect!.x).toBeGreaterThan(lo + 5);
      expect(g.rect!.x + g.rect!.width).toBeLessThan(hi - 8);
    }
    const self = groups.find((g) => g.title.startsWith('self.check'))!;
    const source = xs[1]!;
    expect(self.rect!.x).toBeGreaterThan(source);
    expect(self.rect!.x + self.rect!.width).toBeLessThan(xs[2]!);
  });

  it('keeps every message label off every lifeline: one across several gaps sits in the gap next to its sender', () => {
    const msgs = groups.filter((g) => g.cls.startsWith('msg'));
    for (const g of msgs) expect(xs.filter((x) => x >= g.rect!.x && x <= g.rect!.x + g.rect!.width), g.title).toEqual([]);
    const across = msgs.filter((g) => g.lines.length === 1 && xs.some((x) => x > Math.min(g.lines[0]!.x1, g.lines[0]!.x2) + 2 && x < Math.max(g.lines[0]!.x1, g.lines[0]!.x2) - 2));
    expect(across.map((g) => `${g.cls} ${g.title.split(' ')[0]}`)).toEqual(['msg broker.publish', 'msg broker.ack', 'msg lost broker.publish']);
    for (const g of across) {
      const from = g.lines[0]!.x1;
      const next = xs[xs.indexOf(from) + (g.lines[0]!.x2 > from ? 1 : -1)]!;
      expect(g.rect!.x, g.title).toBeGreaterThan(Math.min(from, next));
      expect(g.rect!.x + g.rect!.width, g.title).toBeLessThan(Math.max(from, next));
    }
  });

  it('fits crash and note boxes between the neighbouring lifelines and inside the drawing', () => {
    const boxes = groups.filter((g) => g.cls === 'crash' || g.cls === 'note');
    expect(boxes).toHaveLength(3);
    for (const g of boxes) {
      const centre = g.rect!.x + g.rect!.width / 2;
      const i = xs.findIndex((x) => Math.abs(x - centre) <= 1);
      expect(i).toBeGreaterThanOrEqual(0);
      expect(g.rect!.x).toBeGreaterThan(i === 0 ? 0 : xs[i - 1]!);
      expect(g.rect!.x + g.rect!.width).toBeLessThan(i === xs.length - 1 ? width : xs[i + 1]!);
      for (const line of g.texts) expect(line.text.length * TEXT_ADVANCE).toBeLessThanOrEqual(g.rect!.width);
    }
  });

  it('is the same bytes for the same steps', () => {
    expect(svgSequence(sequenceSteps(t), 'layout')).toBe(svg);
  });
});
