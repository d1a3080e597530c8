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
import { messageParts, messageText, type SequenceDiagram, type SequenceStep } from './sequenceSteps.ts';

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

/** The words of a box drawn on one component's lifeline, or undefined for a step that is not one. */
function boxWords(s: SequenceStep): Words | undefined {
  switch (s.kind) {
    case 'crash': {
      const parts = s.window === undefined ? ['✕ CRASH'] : ['✕ CRASH', `at ${s.window}`];
      return { lines: wrap(parts), tooltip: parts.join(' ') };
    }
    case 'restart':
      return { lines: ['restart (durable state only)'], tooltip: 'restart with durable state only' };
    case 'note':
      return { lines: wrap(s.parts), tooltip: s.detail };
    default:
      return undefined;
  }
}

/** The one line of a note across the whole drawing. */
function spanText(s: SequenceStep): string | undefined {
  if (s.kind === 'phase') return clip(s.text);
  if (s.kind === 'omitted') return `… ${s.count} step${s.count === 1 ? '' : 's'} omitted …`;
  return undefined;
}

/** The words of every step, worked out once for both the layout and the drawing. */
function stepWords(s: SequenceStep): Words | undefined {
  if (s.kind === 'message' || s.kind === 'lost' || s.kind === 'dropped') return messageWords(s);
  return boxWords(s);
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
function layout(diagram: SequenceDiagram, words: readonly (Words | undefined)[]): Layout {
  const names = diagram.participants.length > 0 ? diagram.participants : ['world'];
  const n = names.length;
  const index = new Map(names.map((p, i) => [p, i] as const));
  const at = (name: string) => index.get(name) ?? 0;
  const heads = names.map((p) => Math.max(MIN_HEAD_BOX, textWidth(p) + 2 * BOX_PAD));
  const gaps = Array.from({ length: Math.max(0, n - 1) }, (_, i) => Math.max(MIN_GAP, ROUND((heads[i]! + heads[i + 1]!) / 2) + CLEAR));
  let left = ROUND(heads[0]! / 2);
  let right = ROUND(heads[n - 1]! / 2);
  diagram.steps.forEach((s, i) => {
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
    if (s.kind !== 'crash' && s.kind !== 'restart' && s.kind !== 'note') return;
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
  // A phase or omission note runs across the whole drawing, which must hold its text.
  for (const s of diagram.steps) {
    const text = spanText(s);
    if (text !== undefined) width = Math.max(width, textWidth(text) + 2 * BOX_PAD + 8);
  }
  return { xs, heads, width };
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
    `<g class="${cls}"><title>${escapeXml(tooltip)}</title><rect x="${left}" y="${y - 11 - extra}" width="${w}" height="${22 + extra}" rx="3"/>` +
    `${textLines(lines, left + ROUND(w / 2), y + 4)}</g>`
  );
}

/**
 * A bar across the whole drawing with its text at the left, where a reader who has not scrolled
 * a wide diagram sideways still sees it.
 */
function bar(y: number, width: number, text: string, tooltip: string, cls: string): string {
  return (
    `<g class="${cls}"><title>${escapeXml(tooltip)}</title><rect x="4" y="${y - 11}" width="${width - 8}" height="22" rx="3"/>` +
    `<text x="${4 + BOX_PAD}" y="${y + 4}">${escapeXml(text)}</text></g>`
  );
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

/** The diagram as one `<svg>` element; `title` names it for screen readers. */
export function svgSequence(diagram: SequenceDiagram, title: string): string {
  const words = diagram.steps.map(stepWords);
  const { xs, heads, width } = layout(diagram, words);
  // Each step's row is one line high, plus a line for each extra line of its label or box.
  const ys: number[] = [];
  let y = HEAD;
  for (const w of words) {
    y += ROW + LINE * ((w?.lines.length ?? 1) - 1);
    ys.push(y);
  }
  const bottom = y + ROW + 12;
  const height = bottom + HEAD + 4;
  const index = new Map(diagram.participants.map((p, i) => [p, i] as const));
  const at = (name: string) => index.get(name) ?? 0;
  const x = (name: string) => xs[at(name)]!;
  const out: string[] = [
    `<svg class="sequence" role="img" aria-label="${escapeXml(title)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">`,
    `<title>${escapeXml(title)}</title>`,
  ];
  diagram.participants.forEach((p, i) => {
    const px = xs[i]!;
    out.push(`<line class="lifeline" x1="${px}" y1="${HEAD}" x2="${px}" y2="${bottom}"/>`);
    out.push(box(px, HEAD / 2 + 2, heads[i]!, [p], p, 'participant'));
    out.push(box(px, bottom + HEAD / 2 - 2, heads[i]!, [p], p, 'participant'));
  });
  diagram.steps.forEach((s: SequenceStep, i) => {
    const y = ys[i]!;
    const w = words[i];
    switch (s.kind) {
      case 'message':
      case 'lost':
      case 'dropped': {
        const x1 = x(s.from);
        const x2 = x(s.to);
        const { lines, tooltip } = w!;
        const cls = s.kind === 'message' ? 'msg' : `msg ${s.kind}`;
        if (x1 === x2) {
          out.push(`<g class="${cls}"><title>${escapeXml(tooltip)}</title>${label(lines, x1 + SELF_LABEL, y + 4)}`);
          out.push(`<path d="M${x1} ${y - 8}h${SELF_LOOP}v16h-${SELF_LOOP}"/>${arrowHead(x1, y + 8, -1)}</g>`);
          break;
        }
        const dir = x2 > x1 ? 1 : -1;
        const end = s.kind === 'lost' ? x2 - LOST_SHORT * dir : x2 - 2 * dir;
        // Centred on the drawn part of the line in the gap next to the sender, which the layout
        // made wide enough to hold it; across several gaps that part ends at the next lifeline.
        const next = at(s.from) + dir;
        const stop = next === at(s.to) ? end : xs[next]!;
        const left = ROUND((x1 + stop) / 2 - (widest(lines) + 2 * LABEL_PAD) / 2);
        out.push(`<g class="${cls}"><title>${escapeXml(tooltip)}</title>${label(lines, left, y - 5)}`);
        out.push(`<line x1="${x1}" y1="${y}" x2="${end}" y2="${y}"/>`);
        out.push(`${s.kind === 'message' ? arrowHead(end, y, dir) : cross(end, y, 5, 'cross')}</g>`);
        break;
      }
      case 'crash':
      case 'restart':
      case 'note':
        out.push(box(x(s.component), y, widest(w!.lines) + 2 * BOX_PAD, w!.lines, w!.tooltip, s.kind));
        break;
      case 'phase':
      case 'omitted': {
        const text = spanText(s)!;
        out.push(bar(y, width, text, s.kind === 'phase' ? s.text : text, s.kind));
        break;
      }
    }
  });
  out.push('</svg>');
  return out.join('\n');
}
