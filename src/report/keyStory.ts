// A counterexample's diagram in words, one line a step, for a terminal and for the top of a
// report page: which components touched the key, and the steps that went wrong. `storyLines`
// gives every drawn step and each folded group as one line (what `replay` prints); `markedLines`
// gives only the faults, the marked steps and a missing effect (what a page opens with).
import { messageText, type SequenceDiagram, type SequenceStep } from './sequenceSteps.ts';

/** One step in words, without its time. */
export function stepWords(s: SequenceStep): string {
  switch (s.kind) {
    case 'message':
      return `${s.from} → ${s.to}  ${messageText(s)}`;
    case 'lost':
      return `${s.from} → ${s.to}  ${messageText(s)} (lost)`;
    case 'dropped':
      return `${s.from} → ${s.to}  ${messageText(s)} (dropped: ${s.to} is down)`;
    case 'crash':
      return `✕ ${s.component} crashed${s.window === undefined ? '' : ` at ${s.window}`}`;
    case 'restart':
      return s.restored ? `${s.component} restarted from the restored snapshot` : `${s.component} restarted with its durable state only`;
    case 'note':
      return `${s.component}: ${s.label}`;
    case 'phase':
      return s.text.replace(/^t=\d+ /, '');
    case 'fold':
      return `⋯ ${s.text}`;
    case 'missing':
      return `${s.component}: ${s.text}`;
  }
}

function tickOf(s: SequenceStep): string {
  return 'tick' in s ? `t=${s.tick}` : '';
}

/** One step as a line: its time, its words, and its mark. */
export function stepLine(s: SequenceStep): string {
  const mark = 'mark' in s && s.mark !== undefined ? `   ◀ ${s.mark.text}` : '';
  return `${tickOf(s).padEnd(7)}${stepWords(s)}${mark}`;
}

/** Who took part, in a sentence: "Drawn around o-1/1: publisher, broker and caller touched it; 28 other steps are folded." */
export function focusSentence(d: SequenceDiagram): string {
  const names = d.participants;
  const who = names.length <= 1 ? (names[0] ?? 'nobody') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  const folded = d.folded === 0 ? 'every step is drawn' : `${d.folded} other step${d.folded === 1 ? ' is' : 's are'} folded (⋯)`;
  if (d.focus === undefined) return `No finding names a key, so the whole run is drawn (${who}); ${folded}.`;
  const keys = d.focus.keys.map((k) => k.key).join(', ');
  const more = d.focus.more > 0 ? ` (and ${d.focus.more} more key${d.focus.more === 1 ? '' : 's'} like ${d.focus.keys.length === 1 ? 'it' : 'them'})` : '';
  return `Drawn around ${keys}${more}: ${who} touched ${d.focus.keys.length === 1 ? 'it' : 'them'}; ${folded}.`;
}

/** Every drawn step, one line each, folded groups as one line. */
export function storyLines(d: SequenceDiagram): string[] {
  return d.steps.map(stepLine);
}

/**
 * The faults (each fault's note marked so where the diagram drew it), the marked steps, a missing effect, a dedup record forgotten (a row past its time
 * to live, a row a bounded table evicted, a provider's key past its retention), which is why a
 * repeat got through, and a row about the key that a transaction deleted (a sweep, a truncation),
 * which may be why a record was never sent: the finding told in a few steps.
 */
export function markedSteps(d: SequenceDiagram): SequenceStep[] {
  return d.steps.filter((s) => s.kind === 'crash' || s.kind === 'lost' || s.kind === 'missing' || ('mark' in s && s.mark !== undefined) || (s.kind === 'note' && (s.dropped === true || s.fault === true)));
}

/** The same, one line each. */
export function markedLines(d: SequenceDiagram): string[] {
  return markedSteps(d).map(stepLine);
}
