// Renders one failure-window row as the plain-text cells a reviewer reads: the Markdown, HTML
// and JUnit forms all take their wording from here, so they can never disagree on what a row
// says (a fault that never struck reads "not reached" in all of them, a missing guard "none").
import { formatPlace } from '../place.ts';
import type { Evidence, WindowRow, WindowsResult } from '../windows.ts';

export interface WindowCells {
  readonly window: string;
  readonly fault: string;
  readonly outcome: string;
  readonly evidence: string;
  readonly retryOwner: string;
  readonly duplicatePossible: string;
  readonly duplicateGuard: string;
  /** Empty when the design gives no query for this place; renderers show a dash then. */
  readonly repairQuery: string;
}

/** The column headings, in table order. */
export const WINDOW_COLUMNS: readonly { readonly key: keyof WindowCells; readonly title: string }[] = [
  { key: 'window', title: 'window' },
  { key: 'fault', title: 'fault' },
  { key: 'outcome', title: 'outcome' },
  { key: 'evidence', title: 'durable evidence' },
  { key: 'retryOwner', title: 'retry owner' },
  { key: 'duplicatePossible', title: 'duplicate possible' },
  { key: 'duplicateGuard', title: 'guard that suppresses it' },
  { key: 'repairQuery', title: 'repair query' },
];

/**
 * The outcome as a reader should see it. A fault that never struck proves nothing about its
 * window, so "holds" there would mislead; a violation is still shown, because the unfaulted run
 * itself failed.
 */
export function outcomeLabel(row: Pick<WindowRow, 'struck' | 'outcome'>): string {
  if (row.struck > 0) return row.outcome;
  return row.outcome === 'holds' ? 'not reached' : `not reached (${row.outcome})`;
}

/** Durable state per component, then what was in flight: `ordersDb {orders: o-1 ACCEPTED v1} · in flight: source->ordersDb:db.commit`. */
export function evidenceText(e: Evidence | undefined): string {
  if (e === undefined) return 'not reached by this workload';
  const parts = e.components.map(({ component, parts }) => {
    const body = parts.map((p) => `${p.label}: ${p.items.join(', ')}`).join('; ');
    return `${component} {${body || 'empty'}}`;
  });
  if (e.inFlight.length > 0) parts.push(`in flight: ${e.inFlight.map((m) => `${m.from}->${m.to}:${m.event.type}`).join(', ')}`);
  return parts.length === 0 ? 'nothing durable yet' : parts.join(' · ');
}

/** The retry owner as declared by the design, or what a fault of this kind leaves to by default. */
export function retryOwnerText(row: WindowRow): string {
  if (row.note?.retryOwner !== undefined) return row.note.retryOwner;
  if (row.fault === 'crash') return 'the component itself after restart';
  return row.fault === 'rebalance' ? 'the receiver the work was moved to, and the first receiver still at work' : 'the sender on timeout';
}

/** A scenario's rows as the tables every form shows, crashes first, each with its heading; empty tables are left out. */
export function windowTables(result: Pick<WindowsResult, 'rows'>): { readonly heading: string; readonly rows: readonly WindowRow[] }[] {
  const tables = [
    { heading: 'Crash at each failure window', rows: result.rows.filter((r) => r.fault === 'crash') },
    { heading: 'Message faults at each message point', rows: result.rows.filter((r) => r.fault !== 'crash') },
  ];
  return tables.filter((t) => t.rows.length > 0);
}

export function windowCells(row: WindowRow): WindowCells {
  return {
    window: formatPlace(row.place),
    fault: row.fault,
    outcome: outcomeLabel(row),
    evidence: evidenceText(row.evidence),
    retryOwner: retryOwnerText(row),
    duplicatePossible: row.repeatSeen ? 'yes' : 'no',
    duplicateGuard: row.guards.length > 0 ? row.guards.join(', ') : 'none',
    repairQuery: (row.note?.repairQuery ?? '').trim(),
  };
}
