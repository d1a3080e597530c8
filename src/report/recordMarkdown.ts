// Renders a filled decision record as Markdown a code host draws without help: one heading per
// section of seed 004's template, its tables with every property linked to the run that backs
// it (an in-page anchor in the Evidence section, which holds the run's verdict, its report and
// the line that replays each counterexample). A property its run contradicts is set in bold
// with a warning sign, so a reviewer finds it without reading every cell.
import type { DecisionRecord, RecordBlock, RecordCell } from './decisionRecord.ts';

/** Prose from metadata: `<` could open an HTML tag, and an `&` an entity. */
function prose(s: string): string {
  return s.replace(/&(?=#?[A-Za-z0-9]+;)/g, '&amp;').replace(/</g, '&lt;');
}

/** A code span that survives any backticks inside it. */
function code(s: string): string {
  const longest = Math.max(0, ...(s.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = s.startsWith('`') || s.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${s}${pad}${fence}`;
}

function cellText(c: RecordCell, inTable: boolean): string {
  const flat = c.text.replace(/\r?\n/g, ' ');
  let body = c.code ? code(flat) : prose(flat);
  if (c.link !== undefined) body = c.code ? `${body} ([run](#${c.link}))` : `[${body}](#${c.link})`;
  if (c.flag) body = `⚠ **${body}**`;
  return inTable ? body.replace(/\|/g, '\\|') : body;
}

function block(b: RecordBlock): string[] {
  if (b.kind === 'heading') return [`### ${prose(b.text)}`, ''];
  if (b.kind === 'para') return [b.cells.map((c) => cellText(c, false)).join(''), ''];
  const { head, rows } = b.table;
  if (rows.length === 0) return ['None backed by the scenarios given.', ''];
  return [`| ${head.map(prose).join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.map((c) => cellText(c, true)).join(' | ')} |`), ''];
}

export function renderRecordMarkdown(record: DecisionRecord): string {
  const lines = [`# ${prose(record.title)}`, ''];
  lines.push(
    'Building-block decision record for how messages and events travel between services without being lost or applied twice, filled from the scenarios below and their measured verdicts. Every property links to the run that backs it; a property a run contradicts is marked ⚠ and listed as an open item.',
    '',
  );
  for (const s of record.sections) lines.push(`## ${prose(s.title)}`, '', ...s.blocks.flatMap(block));
  lines.push('## Evidence: the runs behind this record', '');
  for (const r of record.runs) {
    lines.push(`### <a id="${r.anchor}"></a>${prose(r.title)}`, '');
    lines.push(`Scenario ${code(r.name)} · **verdict:** ${prose(r.verdict)} · **expected:** ${prose(r.expected)} · ${r.asExpected ? 'as expected' : '**NOT as expected**'} · [report](${encodeURIComponent(r.name)}.md)`, '');
    lines.push(`Covers: ${prose(r.covers)}.`, '');
    for (const ce of r.counterexamples) {
      lines.push(`<a id="${ce.anchor}"></a>**${prose(ce.violation)}** under ${prose(ce.plan)}. Replay:`, '', '```sh', ce.replay, '```', '');
    }
  }
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}
