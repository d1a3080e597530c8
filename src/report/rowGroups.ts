// A scenario's failure-window rows in the groups a page shows them in, the answer first: the
// faults that broke a claim; the faults the design absorbed (it held, and the row has something
// to show: a retry, a guard that fired, a repeat); the faults that changed nothing (it held with
// nothing lost and no repeat, as the fault-free run does); and the faults that never struck.
// The last two are listed by place, not as table rows: every figure of every row stays in
// report.json. Repair queries repeat from row to row, so a page numbers each once (Q1, Q2)
// and a row names its number.
import { formatPlace } from '../faults/place.ts';
import { isUnexpectedOutcome, outcomeRank } from '../checkers/verdict.ts';
import type { WindowRow, WindowsResult } from '../modes/windows.ts';
import { rowFaultLabel } from './windowCells.ts';
import { guardsWords } from './guardWords.ts';

export interface RowGroups {
  /** Rows whose worst run broke a claim, or could not be judged: the worst first. */
  readonly broke: readonly WindowRow[];
  /** Rows that held with a retry, a guard or a repeat to show. */
  readonly absorbed: readonly WindowRow[];
  /** Rows that held with nothing lost and no repeat: what the fault-free run shows. */
  readonly unchanged: readonly WindowRow[];
  /** Rows whose fault never struck, and that held. */
  readonly unreached: readonly WindowRow[];
}

/** Crashes first, then message faults, then restores and skews, as the tables always came. */
function family(row: WindowRow): number {
  if (row.fault === 'crash') return 0;
  return row.place.kind === 'point' ? 1 : 2;
}

function inFamilyOrder(rows: readonly WindowRow[], all: readonly WindowRow[]): WindowRow[] {
  return [...rows].sort((a, b) => family(a) - family(b) || all.indexOf(a) - all.indexOf(b));
}

export function rowGroups(result: Pick<WindowsResult, 'rows' | 'judgement'>): RowGroups {
  const all = result.rows;
  const held = (r: WindowRow) => r.outcome === 'holds';
  const unreached = all.filter((r) => held(r) && r.struck === 0);
  const unchanged = all.filter((r) => held(r) && r.struck > 0 && r.retry?.kind === 'none needed' && !r.repeatSeen && r.guards.length === 0);
  const absorbed = all.filter((r) => held(r) && r.struck > 0 && !unchanged.includes(r));
  const expected = result.judgement.expected;
  const broke = all
    .filter((r) => !held(r))
    .sort((a, b) => Number(isUnexpectedOutcome(expected, b.outcome)) - Number(isUnexpectedOutcome(expected, a.outcome)) || outcomeRank(a.outcome) - outcomeRank(b.outcome) || family(a) - family(b) || all.indexOf(a) - all.indexOf(b));
  return { broke, absorbed: inFamilyOrder(absorbed, all), unchanged: inFamilyOrder(unchanged, all), unreached: inFamilyOrder(unreached, all) };
}

/** Rows listed by place: each place once, with the faults of it the rows hold (`broker->consumer:broker.deliver (lose, delay)`). */
export function placeList(rows: readonly WindowRow[]): { readonly place: string; readonly faults: readonly string[] }[] {
  const byPlace = new Map<string, string[]>();
  for (const r of rows) {
    const place = formatPlace(r.place);
    const faults = byPlace.get(place) ?? [];
    faults.push(rowFaultLabel(r));
    byPlace.set(place, faults);
  }
  return [...byPlace].map(([place, faults]) => ({ place, faults }));
}

/** A page's repair queries, each numbered once, in the order rows first use them. */
export interface QueryLegend {
  /** The number of a row's query (`Q1`), when its cell holds SQL. */
  idOf(row: WindowRow): string | undefined;
  readonly entries: readonly { readonly id: string; readonly sql: string }[];
}

export function queryLegend(rows: readonly WindowRow[]): QueryLegend {
  const ids = new Map<string, string>();
  for (const r of rows) {
    const sql = r.repair !== undefined && r.repair.role !== 'none' ? r.repair.sql : undefined;
    if (sql !== undefined && !ids.has(sql)) ids.set(sql, `Q${ids.size + 1}`);
  }
  return {
    idOf: (row) => (row.repair !== undefined && row.repair.role !== 'none' ? ids.get(row.repair.sql) : undefined),
    entries: [...ids].map(([sql, id]) => ({ id, sql })),
  };
}

/** A row's repair cell with its query named by number: `Q1 -- finds o-1|1`, `check with Q2`, or the reason no query serves. */
export function repairCell(row: WindowRow, legend: QueryLegend): string {
  const q = row.repair;
  if (q === undefined) return '';
  if (q.role === 'none') return `no query finds this in the data: ${q.why}${q.keys.length > 0 ? ` (keys ${q.keys.join(', ')})` : ''}`;
  const id = legend.idOf(row)!;
  if (q.role === 'check') return `check with ${id}`;
  return q.keys.length > 0 ? `${id} -- finds ${q.keys.join(', ')}` : id;
}

/** What a row the design absorbed shows, in a few words: who sent the work again, and which guard stopped a repeat. */
function absorbedWords(row: WindowRow): string {
  const r = row.retry;
  const who = r === undefined ? 'not reached' : r.kind === 'resent' ? `${r.component} ${r.lookup ? 'asked after the work' : 'sent the work again'}` : r.kind === 'nobody' ? 'nobody sent the work again' : 'nothing had to be sent again';
  const guard = row.guards.length > 0 ? `; ${guardsWords(row.guards)} stopped the repeat` : row.repeatSeen ? '; a repeat was possible' : '';
  return `${who}${guard}`;
}

/** The rows the design absorbed, grouped by what they show: `broker sent the work again; the inbox key stopped the repeat` and the places it did so at. */
export function absorbedSummary(rows: readonly WindowRow[]): { readonly text: string; readonly rows: readonly WindowRow[] }[] {
  const groups = new Map<string, WindowRow[]>();
  for (const r of rows) {
    const key = absorbedWords(r);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups].map(([text, rows]) => ({ text, rows }));
}
