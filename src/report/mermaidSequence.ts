// Renders a counterexample's steps as a Mermaid `sequenceDiagram`, which GitHub and GitLab draw
// inline in Markdown. Crashes sit in a red box so the eye finds them first; lost and dropped
// messages end in a cross, because the arrowhead is exactly what never happened. A marked step
// (the duplicate, the first outcome, the source fact) sits in a coloured box with its mark
// beside it, a missing effect is a red note where the effect should have been, and a folded
// group is a note across the diagram that says what it holds.
import { messageText, type SequenceDiagram, type StepMark } from './sequenceSteps.ts';

/** The box a mark sits in: the duplicate and the break in red-orange, the rest in pale yellow. */
function markBox(mark: StepMark): string {
  return mark.kind === 'duplicate' || mark.kind === 'broke' ? 'rect rgb(255, 214, 170)' : 'rect rgb(255, 248, 197)';
}

// Words Mermaid's sequence grammar reserves; a component named like one gets an alias instead.
const RESERVED = new Set(['end', 'loop', 'alt', 'else', 'opt', 'par', 'and', 'rect', 'note', 'participant', 'actor', 'critical', 'break', 'box', 'activate', 'deactivate', 'autonumber', 'create', 'destroy', 'links', 'link', 'title']);

/** A participant id Mermaid parses: letters, digits and underscores, never a keyword. */
function participantId(name: string): string {
  const id = name.replace(/[^A-Za-z0-9_]/g, '_');
  return RESERVED.has(id.toLowerCase()) || /^[0-9]/.test(id) ? `p_${id}` : id;
}

/**
 * Message and note text in Mermaid's own escapes. `;` would end the statement and `#` start an
 * entity, and both occur in keys (a ref such as `accept o-2#1`), so they are written as the
 * numeric entities Mermaid decodes (`#35;`, `#59;`) and the diagram shows the same words as the
 * SVG; so are `<` and `>`, which a code host would read as HTML. A line break would end the
 * statement, so it becomes a space.
 */
function text(s: string): string {
  return s
    .replace(/[\r\n]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[#;<>]/g, (c) => `#${c.charCodeAt(0)};`);
}

/** The diagram as Mermaid source, without the surrounding code fence. */
export function mermaidSequence(diagram: SequenceDiagram): string {
  const lines = ['sequenceDiagram'];
  const ids = new Map<string, string>();
  for (const name of diagram.participants) {
    const id = participantId(name);
    ids.set(name, id);
    lines.push(id === name ? `  participant ${id}` : `  participant ${id} as ${text(name)}`);
  }
  const id = (name: string) => ids.get(name) ?? participantId(name);
  const first = id(diagram.participants[0] ?? 'world');
  const last = id(diagram.participants[diagram.participants.length - 1] ?? 'world');
  const span = first === last ? first : `${first},${last}`;
  const pair = (a: string, b: string) => (id(a) === id(b) ? id(a) : `${id(a)},${id(b)}`);
  for (const s of diagram.steps) {
    const mark = s.kind === 'message' || s.kind === 'lost' || s.kind === 'dropped' || s.kind === 'note' ? s.mark : undefined;
    if (mark !== undefined) lines.push(`  ${markBox(mark)}`);
    switch (s.kind) {
      case 'message':
        lines.push(`  ${id(s.from)}->>${id(s.to)}: ${text(messageText(s))}`);
        break;
      case 'lost':
        lines.push(`  ${id(s.from)}--x${id(s.to)}: ${text(messageText(s))}`);
        lines.push(`  Note over ${pair(s.from, s.to)}: lost`);
        break;
      case 'dropped':
        lines.push(`  ${id(s.from)}--x${id(s.to)}: ${text(messageText(s))}`);
        lines.push(`  Note over ${id(s.to)}: dropped, ${text(s.to)} is down`);
        break;
      case 'crash':
        lines.push('  rect rgb(255, 205, 205)');
        lines.push(`    Note over ${id(s.component)}: CRASH${s.window === undefined ? '' : ` at ${text(s.window)}`}`);
        lines.push('  end');
        break;
      case 'restart':
        lines.push(`  Note over ${id(s.component)}: ${s.restored ? 'restart from the restored snapshot' : 'restart with durable state only'}`);
        break;
      case 'note':
        lines.push(`  Note over ${id(s.component)}: ${text(s.label)}`);
        break;
      case 'phase':
        lines.push(`  Note over ${span}: ${text(s.text)}`);
        break;
      case 'fold':
        lines.push(`  Note over ${span}: ⋯ ${text(s.text)}`);
        break;
      case 'missing':
        lines.push('  rect rgb(255, 205, 205)');
        lines.push(`    Note over ${id(s.component)}: ${text(s.text)}`);
        lines.push('  end');
        break;
    }
    if (mark !== undefined) {
      const where = s.kind === 'note' ? s.component : s.kind === 'message' || s.kind === 'lost' || s.kind === 'dropped' ? s.to : first;
      lines.push(`    Note right of ${id(where)}: ${text(mark.text)}`);
      lines.push('  end');
    }
  }
  return lines.join('\n');
}
