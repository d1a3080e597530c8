// Draws a counterexample's steps as an inline SVG sequence diagram, generated here so the HTML
// report needs no script, no CDN and no network: one lifeline per component, one arrow per
// delivery, a red box with a cross where a component crashed, and a dashed arrow ending in a
// cross, marked "lost", where the network lost a message. No word covers a lifeline and no
// lifeline crosses a word: a long label is set on several lines (a taller row, not a wider
// diagram), a message's label sits in the gap next to its sender (for a message between
// neighbours that is the whole arrow; one that passes over a third component keeps its label
// before the first lifeline it passes), each gap is widened until every label placed in it fits
// between its two lifelines, and a crash, restart or note box sits on its own lifeline and fits
// between its neighbours. Labels keep an opaque background all the same, so the words stay
// legible over anything else. Coordinates are integers computed from the steps alone, so the
// same steps always give the same bytes.
import { escapeXml } from './escapeXml.ts';
import { messageParts, messageText, type SequenceDiagram, type SequenceStep, type StepMark } from './sequenceSteps.ts';

/** A row of the drawing: a step, or the bar under a marked step that says what the mark means. */
type Row = SequenceStep | { readonly kind: 'mark'; readonly mark: StepMark };

/**
 * The advance of one character of the 11px monospace font the page asks for, a little generous:
 * ui-monospace, Menlo, DejaVu Sans Mono and Liberation Mono all advance 0.6 em (6.6px).
 */
const CHAR = 6.8;
/** The most characters one part of a label shows; the tooltip holds the rest. */
const LABEL_MAX = 90;
const MARGIN = 16;
const HEAD = 36;
const ROW = 30;
/** The narrowest gap between two lifelines, so a diagram of short labels still reads as columns. */
const MIN_GAP = 110;
/** The narrowest participant box. */
const MIN_HEAD_BOX = 90;
/** Room a label's background leaves around its text, on each side. */
const LABEL_PAD = 4;
/** Room kept between a label and a lifeline, an arrowhead or a cross. */
const CLEAR = 10;
/** How far short of its receiver a lost message stops: it never got there. */
const LOST_SHORT = 30;
/** Where a message to oneself loops out to, and where its label starts. */
const SELF_LOOP = 30;
const SELF_LABEL = 36;
/** Room inside a box around its text, on each side. */
const BOX_PAD = 8;

/** The longest line a label is given before its next part goes on a line of its own. */
const WRAP = 30;
/** The longest line of a bar across the drawing (a fold, a mark), so a bar does not widen a narrow diagram much. */
const BAR_WRAP = 56;
/** The most lines a bar's text takes; its tooltip holds the rest. */
const BAR_LINES = 3;
/** The distance between two lines of one label. */
const LINE = 13;

const ROUND = (n: number) => Math.round(n);

function clip(s: string, max = LABEL_MAX): string {
  const chars = [...s];
  return chars.length <= max ? s : `${chars.slice(0, max - 1).join('')}…`;
}

/** The drawn width of a line of label text, by the generous estimate above. */
function textWidth(s: string): number {
  return Math.ceil([...s].length * CHAR);
}

/**
 * A label's parts set on lines of at most `WRAP` characters, a part never split (a key's value
 * may hold a space, as in `ref=accept o-2#1`). A long label becomes a taller row rather than a
 * wider diagram: a page scrolls down by itself, sideways only on request.
 */
function wrap(parts: readonly string[]): string[] {
  const lines: string[] = [];
  for (const part of parts) {
    const last = lines[lines.length - 1];
    if (last !== undefined && [...last].length + 1 + [...part].length <= WRAP) lines[lines.length - 1] = `${last} ${part}`;
    else lines.push(clip(part));
  }
  return lines.length > 0 ? lines : [''];
}

function widest(lines: readonly string[]): number {
  return Math.max(...lines.map(textWidth));
}

/** What a step draws as words: its lines of text and the tooltip that says it all. */
interface Words {
  readonly lines: readonly string[];
  readonly tooltip: string;
}

/** What a message's arrow is labelled with, and what its tooltip says. */
function messageWords(s: Extract<SequenceStep, { kind: 'message' | 'lost' | 'dropped' }>): Words {
  const suffix = s.kind === 'lost' ? '(lost)' : s.kind === 'dropped' ? '(dropped)' : undefined;
  const full = messageText(s, true);
  const tooltip = s.kind === 'dropped' ? `${full} dropped: ${s.to} is down` : suffix === undefined ? full : `${full} ${suffix}`;
  return { lines: wrap(suffix === undefined ? messageParts(s) : [...messageParts(s), suffix]), tooltip };
}

/** Text of a bar set on lines of at most `BAR_WRAP` characters, broken between words, at most `BAR_LINES` of them. */
function wrapBar(text: string): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines[lines.length - 1];
    if (last !== undefined && [...last].length + 1 + [...word].length <= BAR_WRAP) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(clip(word, BAR_WRAP));
  }
  if (lines.length <= BAR_LINES) return lines;
  return [...lines.slice(0, BAR_LINES - 1), clip(`${lines[BAR_LINES - 1]} …`, BAR_WRAP)];
}

/** The words of a box drawn on one component's lifeline, or undefined for a step that is not one. */
function boxWords(s: Row): Words | undefined {
  switch (s.kind) {
    case 'crash': {
      const parts = s.window === undefined ? ['✕ CRASH'] : ['✕ CRASH', `at ${s.window}`];
      return { lines: wrap(parts), tooltip: parts.join(' ') };
    }
    case 'restart':
      return s.restored ? { lines: ['restart (restored snapshot)'], tooltip: 'restart from the restored snapshot' } : { lines: ['restart (durable state only)'], tooltip: 'restart with durable state only' };
    case 'note':
      return { lines: wrap(s.parts), tooltip: s.detail };
    case 'missing':
      return { lines: wrap(s.text.split(' ')), tooltip: s.detail };
    default:
      return undefined;
  }
}

/** The lines of a bar across the whole drawing: the heal, a folded group, a mark. */
function spanWords(s: Row): Words | undefined {
  if (s.kind === 'phase') return { lines: [clip(s.text)], tooltip: s.text };
  if (s.kind === 'fold') return { lines: wrapBar(`⋯ ${s.text}`), tooltip: s.detail };
  if (s.kind === 'mark') return { lines: wrapBar(`▲ ${s.mark.text}`), tooltip: s.mark.text };
  return undefined;
}

/** The words of every row, worked out once for both the layout and the drawing. */
function stepWords(s: Row): Words | undefined {
  if (s.kind === 'message' || s.kind === 'lost' || s.kind === 'dropped') return messageWords(s);
  return spanWords(s) ?? boxWords(s);
}

function isBar(s: Row): boolean {
  return s.kind === 'phase' || s.kind === 'fold' || s.kind === 'mark';
}

/** The rows of a diagram: its steps, each marked one followed by the bar that says what its mark means. */
function rowsOf(diagram: SequenceDiagram): Row[] {
  const rows: Row[] = [];
  for (const s of diagram.steps) {
    rows.push(s);
    if ((s.kind === 'message' || s.kind === 'lost' || s.kind === 'dropped' || s.kind === 'note') && s.mark !== undefined) rows.push({ kind: 'mark', mark: s.mark });
  }
  return rows;
}

interface Layout {
  readonly xs: readonly number[];
  readonly heads: readonly number[];
  readonly width: number;
}

/**
 * The gap a message's label sits in: the one next to its sender, on the receiver's side. A
 * message between neighbours has only that gap; one across several keeps its label where it
 * starts, before the first lifeline it passes over, so the label covers none of them.
 */
function labelGap(from: number, to: number): number {
  return to > from ? from : from - 1;
}

/**
 * Where each lifeline goes. Every gap starts at its minimum and grows to fit what must sit inside
 * it: the participant boxes on either side, each message label placed in it (clear of both
 * lifelines, and of the arrowhead or cross when the message ends at the gap's far lifeline),
 * each label of a message to oneself, and half of each box on either neighbour's side. The outer
 * margins grow for whatever hangs past the first and last lifelines.
 */
function layout(diagram: SequenceDiagram, rows: readonly Row[], words: readonly (Words | undefined)[]): Layout {
  const names = diagram.participants.length > 0 ? diagram.participants : ['world'];
  const n = names.length;
  const index = new Map(names.map((p, i) => [p, i] as const));
  const at = (name: string) => index.get(name) ?? 0;
  const heads = names.map((p) => Math.max(MIN_HEAD_BOX, textWidth(p) + 2 * BOX_PAD));
  const gaps = Array.from({ length: Math.max(0, n - 1) }, (_, i) => Math.max(MIN_GAP, ROUND((heads[i]! + heads[i + 1]!) / 2) + CLEAR));
  let left = ROUND(heads[0]! / 2);
  let right = ROUND(heads[n - 1]! / 2);
  rows.forEach((s, i) => {
    const w = words[i];
    if (w === undefined) return;
    if (s.kind === 'message' || s.kind === 'lost' || s.kind === 'dropped') {
      const a = at(s.from);
      const b = at(s.to);
      const labelWidth = widest(w.lines) + 2 * LABEL_PAD;
      if (a === b) {
        const need = SELF_LABEL + labelWidth + CLEAR;
        if (a < n - 1) gaps[a] = Math.max(gaps[a]!, need);
        else right = Math.max(right, need);
        return;
      }
      // A lost message stops short of its receiver; between neighbours its label must fit in what is drawn.
      const short = Math.abs(a - b) === 1 && s.kind === 'lost' ? LOST_SHORT : 0;
      const g = labelGap(a, b);
      gaps[g] = Math.max(gaps[g]!, labelWidth + 2 * CLEAR + short);
      return;
    }
    if (s.kind !== 'crash' && s.kind !== 'restart' && s.kind !== 'note' && s.kind !== 'missing') return;
    const p = at(s.component);
    const half = ROUND((widest(w.lines) + 2 * BOX_PAD) / 2) + CLEAR;
    if (p > 0) gaps[p - 1] = Math.max(gaps[p - 1]!, half);
    else left = Math.max(left, half);
    if (p < n - 1) gaps[p] = Math.max(gaps[p]!, half);
    else right = Math.max(right, half);
  });
  const xs = [MARGIN + left];
  for (const g of gaps) xs.push(xs[xs.length - 1]! + g);
  let width = xs[n - 1]! + right + MARGIN;
  // A bar runs across the whole drawing, which must hold its text.
  rows.forEach((s, i) => {
    if (isBar(s)) width = Math.max(width, widest(words[i]!.lines) + 2 * BOX_PAD + 8);
  });
  return { xs, heads, width };
}

/**
 * A group's tooltip: left out when it would only repeat the words drawn, which a reader already
 * sees (and which would cost a diagram its size twice); kept when it says more (every key in full).
 */
function titleOf(tooltip: string, lines: readonly string[]): string {
  return tooltip === lines.join(' ') ? '' : `<title>${escapeXml(tooltip)}</title>`;
}

/** Lines of text centred on x, the last one's baseline at `baseline`, each earlier one a line higher. */
function textLines(lines: readonly string[], x: number, baseline: number): string {
  return lines.map((l, j) => `<text x="${x}" y="${baseline - LINE * (lines.length - 1 - j)}" text-anchor="middle">${escapeXml(l)}</text>`).join('');
}

/** A box of width `w` centred on x whose last line's baseline sits 4 below y; its height grows upward with its lines. */
function box(x: number, y: number, w: number, lines: readonly string[], tooltip: string, cls: string): string {
  const left = ROUND(x - w / 2);
  const extra = LINE * (lines.length - 1);
  return (
    `<g class="${cls}">${titleOf(tooltip, lines)}<rect x="${left}" y="${y - 11 - extra}" width="${w}" height="${22 + extra}" rx="3"/>` +
    `${textLines(lines, left + ROUND(w / 2), y + 4)}</g>`
  );
}

/**
 * A bar across the whole drawing with its text at the left, where a reader who has not scrolled
 * a wide diagram sideways still sees it.
 */
function bar(y: number, width: number, lines: readonly string[], tooltip: string, cls: string): string {
  const extra = LINE * (lines.length - 1);
  const texts = lines.map((l, j) => `<text x="${4 + BOX_PAD}" y="${y + 4 - LINE * (lines.length - 1 - j)}">${escapeXml(l)}</text>`).join('');
  return `<g class="${cls}">${titleOf(tooltip, lines)}<rect x="4" y="${y - 11 - extra}" width="${width - 8}" height="${22 + extra}" rx="3"/>${texts}</g>`;
}

function cross(x: number, y: number, size: number, cls: string): string {
  return `<path class="${cls}" d="M${x - size} ${y - size}L${x + size} ${y + size}M${x - size} ${y + size}L${x + size} ${y - size}"/>`;
}

function arrowHead(x: number, y: number, dir: number): string {
  return `<polygon class="head" points="${x},${y} ${x - 8 * dir},${y - 4} ${x - 8 * dir},${y + 4}"/>`;
}

/** A label on an opaque background, its left edge at `left`, its last line's baseline at `baseline`. */
function label(lines: readonly string[], left: number, baseline: number): string {
  const extra = LINE * (lines.length - 1);
  const w = widest(lines) + 2 * LABEL_PAD;
  return `<rect class="label-bg" x="${left}" y="${baseline - 12 - extra}" width="${w}" height="${15 + extra}"/>${textLines(lines, left + ROUND(w / 2), baseline)}`;
}

/** The class of a step's group: its kind, and its mark's kind when it carries one (`msg duplicate`). */
function classOf(s: Row, base: string): string {
  const mark = (s.kind === 'message' || s.kind === 'lost' || s.kind === 'dropped' || s.kind === 'note') && s.mark !== undefined ? ` marked ${s.mark.kind}` : '';
  return `${base}${mark}`;
}

/** One message's arrow and label, at row height y. */
function arrow(s: Extract<Row, { kind: 'message' | 'lost' | 'dropped' }>, y: number, w: Words, xs: readonly number[], at: (name: string) => number): string {
  const x1 = xs[at(s.from)]!;
  const x2 = xs[at(s.to)]!;
  const { lines, tooltip } = w;
  const cls = classOf(s, s.kind === 'message' ? 'msg' : `msg ${s.kind}`);
  if (x1 === x2) {
    return `<g class="${cls}" data-step="${s.at ?? ''}">${titleOf(tooltip, lines)}${label(lines, x1 + SELF_LABEL, y + 4)}\n<path d="M${x1} ${y - 8}h${SELF_LOOP}v16h-${SELF_LOOP}"/>${arrowHead(x1, y + 8, -1)}</g>`;
  }
  const dir = x2 > x1 ? 1 : -1;
  const end = s.kind === 'lost' ? x2 - LOST_SHORT * dir : x2 - 2 * dir;
  // Centred on the drawn part of the line in the gap next to the sender, which the layout
  // made wide enough to hold it; across several gaps that part ends at the next lifeline.
  const next = at(s.from) + dir;
  const stop = next === at(s.to) ? end : xs[next]!;
  const left = ROUND((x1 + stop) / 2 - (widest(lines) + 2 * LABEL_PAD) / 2);
  return (
    `<g class="${cls}" data-step="${s.at ?? ''}">${titleOf(tooltip, lines)}${label(lines, left, y - 5)}\n` +
    `<line x1="${x1}" y1="${y}" x2="${end}" y2="${y}"/>\n${s.kind === 'message' ? arrowHead(end, y, dir) : cross(end, y, 5, 'cross')}</g>`
  );
}

/** The y of each row: one line high, plus a line for each extra line of its label, box or bar. */
function rowYs(words: readonly (Words | undefined)[]): number[] {
  const ys: number[] = [];
  let y = HEAD;
  for (const w of words) {
    y += ROW + LINE * ((w?.lines.length ?? 1) - 1);
    ys.push(y);
  }
  return ys;
}

/** The diagram as one `<svg>` element; `title` names it for screen readers. */
export function svgSequence(diagram: SequenceDiagram, title: string): string {
  const rows = rowsOf(diagram);
  const words = rows.map(stepWords);
  const { xs, heads, width } = layout(diagram, rows, words);
  const ys = rowYs(words);
  const bottom = (ys[ys.length - 1] ?? HEAD) + ROW + 12;
  const height = bottom + HEAD + 4;
  const index = new Map(diagram.participants.map((p, i) => [p, i] as const));
  const at = (name: string) => index.get(name) ?? 0;
  const out: string[] = [
    `<svg class="sequence" role="img" aria-label="${escapeXml(title)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">`,
    `<title>${escapeXml(title)}</title>`,
  ];
  // A marked step's row is banded across the drawing, under everything else, so the eye finds it.
  rows.forEach((s, i) => {
    if (s.kind !== 'mark') return;
    // From the top of the marked step's row (its label's first line) to the foot of the mark's bar.
    const top = ys[i - 1]! - ROW - LINE * ((words[i - 1]?.lines.length ?? 1) - 1) + 6;
    out.push(`<rect class="band ${s.mark.kind}" x="0" y="${top}" width="${width}" height="${ys[i]! + 13 - top}"/>`);
  });
  diagram.participants.forEach((p, i) => {
    const px = xs[i]!;
    out.push(`<line class="lifeline" x1="${px}" y1="${HEAD}" x2="${px}" y2="${bottom}"/>`);
    out.push(box(px, HEAD / 2 + 2, heads[i]!, [p], p, 'participant'));
    out.push(box(px, bottom + HEAD / 2 - 2, heads[i]!, [p], p, 'participant'));
  });
  rows.forEach((s, i) => {
    const y = ys[i]!;
    const w = words[i]!;
    if (s.kind === 'message' || s.kind === 'lost' || s.kind === 'dropped') out.push(arrow(s, y, w, xs, at));
    else if (s.kind === 'crash' || s.kind === 'restart' || s.kind === 'note' || s.kind === 'missing') out.push(box(xs[at(s.component)]!, y, widest(w.lines) + 2 * BOX_PAD, w.lines, w.tooltip, classOf(s, s.kind)));
    else out.push(bar(y, width, w.lines, w.tooltip, s.kind === 'mark' ? `mark ${s.mark.kind}` : s.kind));
  });
  out.push('</svg>');
  return out.join('\n');
}
