// Draws a counterexample's steps as an inline SVG sequence diagram, generated here so the HTML
// report needs no script, no CDN and no network: one lifeline per component, one arrow per
// delivery, a red box with a cross where a component crashed, and a dashed arrow ending in a
// cross, marked "lost", where the network lost a message. Coordinates are integers computed
// from the step index alone, so the same steps always give the same bytes.
import { escapeXml } from './escapeXml.ts';
import { messageText, type SequenceDiagram, type SequenceStep } from './sequenceSteps.ts';

const COLUMN = 160;
const MARGIN = 20;
const HEAD = 36;
const ROW = 30;
const CHAR = 6.4;
const LABEL_MAX = 44;
/** The advance of one character of an 11px monospace label, a little generous so labels never collide. */
const TEXT_CHAR = 6.8;

const ROUND = (n: number) => Math.round(n);

function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

/** A labelled box centred on x, kept inside the drawing. */
function box(x: number, y: number, label: string, width: number, cls: string, min = COLUMN - 16): string {
  const shown = clip(label, Math.floor((width - 12) / CHAR));
  const w = Math.min(width - 4, Math.max(min, ROUND(shown.length * CHAR + 16)));
  const left = Math.max(2, Math.min(width - w - 2, ROUND(x - w / 2)));
  return (
    `<g class="${cls}"><title>${escapeXml(label)}</title><rect x="${left}" y="${y - 11}" width="${w}" height="22" rx="3"/>` +
    `<text x="${left + ROUND(w / 2)}" y="${y + 4}" text-anchor="middle">${escapeXml(shown)}</text></g>`
  );
}

function cross(x: number, y: number, size: number, cls: string): string {
  return `<path class="${cls}" d="M${x - size} ${y - size}L${x + size} ${y + size}M${x - size} ${y + size}L${x + size} ${y - size}"/>`;
}

function arrowHead(x: number, y: number, dir: number): string {
  return `<polygon class="head" points="${x},${y} ${x - 8 * dir},${y - 4} ${x - 8 * dir},${y + 4}"/>`;
}

/**
 * A message label above its line, centred on the drawn part. A label longer than its arrow
 * spills past the ends (each step has a row of its own, and the label's halo keeps crossed
 * lifelines readable) but stays inside the drawing and clear of a cross that ends the line.
 */
function labelText(label: string, x1: number, end: number, y: number, marked: boolean, width: number): string {
  const half = (label.length * TEXT_CHAR) / 2;
  const dir = end > x1 ? 1 : -1;
  let cx = (x1 + end) / 2;
  if (marked) cx = dir > 0 ? Math.min(cx, end - 10 - half) : Math.max(cx, end + 10 + half);
  cx = Math.max(half + 4, Math.min(width - half - 4, cx));
  return `<text x="${ROUND(cx)}" y="${y - 5}" text-anchor="middle">${escapeXml(label)}</text>`;
}

/** The diagram as one `<svg>` element; `title` names it for screen readers. */
export function svgSequence(diagram: SequenceDiagram, title: string): string {
  const n = Math.max(1, diagram.participants.length);
  const width = MARGIN * 2 + COLUMN * n;
  const height = HEAD * 2 + ROW * (diagram.steps.length + 1) + 16;
  const xOf = new Map(diagram.participants.map((p, i) => [p, MARGIN + COLUMN * i + COLUMN / 2] as const));
  const x = (name: string) => xOf.get(name) ?? MARGIN + COLUMN / 2;
  const out: string[] = [
    `<svg class="sequence" role="img" aria-label="${escapeXml(title)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">`,
    `<title>${escapeXml(title)}</title>`,
  ];
  const bottom = height - HEAD - 4;
  for (const p of diagram.participants) {
    const px = x(p);
    out.push(`<line class="lifeline" x1="${px}" y1="${HEAD}" x2="${px}" y2="${bottom}"/>`);
    out.push(box(px, HEAD / 2 + 2, p, width, 'participant'));
    out.push(box(px, bottom + HEAD / 2 - 2, p, width, 'participant'));
  }
  diagram.steps.forEach((s: SequenceStep, i) => {
    const y = HEAD + ROW * (i + 1);
    switch (s.kind) {
      case 'message':
      case 'lost':
      case 'dropped': {
        const x1 = x(s.from);
        const x2 = x(s.to);
        // The drawn label keeps its fault suffix even when the message name is cut; the tooltip says why a dropped message went nowhere.
        const base = messageText(s);
        const full = messageText(s, true);
        const suffix = s.kind === 'lost' ? ' (lost)' : s.kind === 'dropped' ? ' (dropped)' : '';
        const label = `${clip(base, LABEL_MAX - suffix.length)}${suffix}`;
        const tooltip = s.kind === 'dropped' ? `${full} dropped: ${s.to} is down` : `${full}${suffix}`;
        const cls = s.kind === 'message' ? 'msg' : `msg ${s.kind}`;
        if (x1 === x2) {
          out.push(`<g class="${cls}"><title>${escapeXml(tooltip)}</title><text x="${x1 + 36}" y="${y + 4}">${escapeXml(label)}</text>`);
          out.push(`<path d="M${x1} ${y - 8}h30v16h-30"/>${arrowHead(x1, y + 8, -1)}</g>`);
          break;
        }
        const dir = x2 > x1 ? 1 : -1;
        // A lost message stops short of its receiver: it never got there.
        const end = s.kind === 'lost' ? ROUND(x1 + (x2 - x1) * 0.7) : x2 - 2 * dir;
        // The label is written first, so the line, its arrowhead or cross stay on top of the label's halo.
        out.push(`<g class="${cls}"><title>${escapeXml(tooltip)}</title>${labelText(label, x1, end, y, s.kind !== 'message', width)}`);
        out.push(`<line x1="${x1}" y1="${y}" x2="${end}" y2="${y}"/>`);
        out.push(`${s.kind === 'message' ? arrowHead(end, y, dir) : cross(end, y, 5, 'cross')}</g>`);
        break;
      }
      case 'crash': {
        const cx = x(s.component);
        out.push(box(cx, y, `✕ CRASH${s.window === undefined ? '' : ` at ${s.window}`}`, width, 'crash'));
        break;
      }
      case 'restart':
        out.push(box(x(s.component), y, 'restart (durable state only)', width, 'restart'));
        break;
      case 'note':
        out.push(box(x(s.component), y, s.label, width, 'note', 40));
        break;
      case 'phase':
        out.push(box(width / 2, y, s.text, width, 'phase', width - 8));
        break;
      case 'omitted':
        out.push(box(width / 2, y, `… ${s.count} step${s.count === 1 ? '' : 's'} omitted …`, width, 'omitted', width - 8));
        break;
    }
  });
  out.push('</svg>');
  return out.join('\n');
}
